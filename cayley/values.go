package cayley

import (
	"fmt"
	"time"

	"github.com/cayleygraph/quad"

	"github.com/mneme-archive/mneme/rdf"
)

// xsdDateTime is the datatype of quad.Time values.
const xsdDateTime = "http://www.w3.org/2001/XMLSchema#dateTime"

// ToTerm maps a Cayley value to the RDF term the store holds for it; nil
// is the default graph (the zero Term). Native values (Int, Float, Bool,
// Time) become typed literals in Cayley's canonical form, times with their
// nanoseconds, so that they come back equal.
func ToTerm(v quad.Value) (rdf.Term, error) {
	switch v := v.(type) {
	case nil:
		return rdf.Term{}, nil
	case quad.IRI:
		return rdf.IRI(string(v)), nil
	case quad.BNode:
		return rdf.Blank(string(v)), nil
	case quad.String:
		return rdf.String(string(v)), nil
	case quad.LangString:
		return rdf.LangLiteral(string(v.Value), v.Lang), nil
	case quad.TypedString:
		return rdf.Literal(string(v.Value), string(v.Type.Full())), nil
	case quad.Time:
		return rdf.Literal(time.Time(v).UTC().Format(time.RFC3339Nano), xsdDateTime), nil
	case quad.TypedStringer:
		ts := v.TypedString()
		return rdf.Literal(string(ts.Value), string(ts.Type.Full())), nil
	}
	return rdf.Term{}, fmt.Errorf("cayley: value %v of type %T has no RDF term", v, v)
}

// ToValue maps a stored term back to a Cayley value: IRIs, blank nodes,
// plain, language-tagged and typed literals as themselves. A typed literal
// becomes Cayley's native value (Int, Float, Bool, Time) only when that
// value maps back to the very same term, so that no lexical form is lost
// ("010"^^xsd:integer stays a TypedString).
func ToValue(t rdf.Term) quad.Value {
	switch t.Kind {
	case rdf.KindNone:
		return nil
	case rdf.KindIRI:
		return quad.IRI(t.Value)
	case rdf.KindBlank:
		return quad.BNode(t.Value)
	}
	switch t.Datatype {
	case rdf.XSDString:
		return quad.String(t.Value)
	case rdf.RDFLangString:
		return quad.LangString{Value: quad.String(t.Value), Lang: t.Lang}
	}
	ts := quad.TypedString{Value: quad.String(t.Value), Type: quad.IRI(t.Datatype)}
	if nv, err := ts.ParseValue(); err == nil && nv != nil {
		if _, same := nv.(quad.TypedString); !same {
			if back, err := ToTerm(nv); err == nil && back == t {
				return nv
			}
		}
	}
	return ts
}
