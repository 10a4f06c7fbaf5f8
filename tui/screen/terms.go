package screen

import (
	"strings"

	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// Prefixes are the namespaces cells abbreviate, the ones of mneme's data
// model (docs/data-model.md).
var Prefixes = []struct{ Prefix, NS string }{
	{"mneme", ontology.MnemeNS},
	{"prov", ontology.ProvNS},
	{"sioc", ontology.SIOCNS},
	{"sioct", ontology.SIOCTNS},
	{"schema", ontology.SchemaNS},
	{"dcterms", ontology.DCTermsNS},
	{"foaf", ontology.FOAFNS},
	{"rdf", rdf.RDFNS},
	{"rdfs", ontology.RDFSNS},
	{"owl", ontology.OWLNS},
	{"xsd", rdf.XSDNS},
}

// WithPrefixes puts before a query the PREFIX lines of the Prefixes its
// text uses, for queries the TUI writes.
func WithPrefixes(query string) string {
	var b strings.Builder
	for _, p := range Prefixes {
		if strings.Contains(query, p.Prefix+":") {
			b.WriteString("PREFIX " + p.Prefix + ": <" + p.NS + ">\n")
		}
	}
	return b.String() + query
}

// Compact abbreviates an IRI with Prefixes, or returns it in <>.
func Compact(iri string) string {
	for _, p := range Prefixes {
		if rest, ok := strings.CutPrefix(iri, p.NS); ok && rest != "" && !strings.ContainsAny(rest, "/#?") {
			return p.Prefix + ":" + rest
		}
	}
	return "<" + iri + ">"
}

// Cell is how a term reads in one line of a table: IRIs abbreviated,
// literals by their text (with a language tag), line breaks as spaces,
// unbound as empty.
func Cell(t rdf.Term) string {
	switch t.Kind {
	case rdf.KindIRI:
		return Compact(t.Value)
	case rdf.KindBlank:
		return "_:" + t.Value
	case rdf.KindLiteral:
		s := oneLine(t.Value)
		if t.Lang != "" {
			s += "@" + t.Lang
		}
		return s
	}
	return ""
}

// Full is the term in full, for the row detail: IRIs and blank nodes as
// in N-Triples, literals with their datatype.
func Full(t rdf.Term) string {
	switch t.Kind {
	case rdf.KindNone:
		return "(unbound)"
	case rdf.KindLiteral:
		switch {
		case t.Lang != "":
			return t.Value + "  @" + t.Lang
		case t.Datatype != "" && t.Datatype != rdf.XSDString:
			return t.Value + "  ^^" + Compact(t.Datatype)
		}
		return t.Value
	}
	return t.String()
}

var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ")

func oneLine(s string) string { return lineBreaks.Replace(s) }
