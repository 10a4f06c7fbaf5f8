package expr

import (
	"errors"

	"github.com/mneme-archive/mneme/rdf"
)

// Evaluation errors. SPARQL folds every error into "no value" (an unbound
// variable in BIND, false in FILTER), so callers rarely tell them apart;
// they are sentinels so that the per-row error path does not allocate.
var (
	ErrUnbound  = errors.New("unbound variable")
	ErrType     = errors.New("type error")
	errDivZero  = errors.New("division by zero")
	errNoExists = errors.New("EXISTS needs an evaluator (Context.Exists is nil)")
	errUnknownF = errors.New("unknown function")
)

type vkind uint8

const (
	vTerm vkind = iota // t holds the value
	vNum               // n holds a computed number
	vBool              // b holds a computed boolean
)

// value is an intermediate result: a term, or a number or boolean kept
// unboxed until something needs it as a term.
type value struct {
	kind vkind
	b    bool
	// numOK marks a term whose numeric value is already in n (constants
	// are parsed once, at compile time).
	numOK bool
	n     number
	t     rdf.Term
}

var (
	trueTerm  = rdf.Literal("true", rdf.XSDBoolean)
	falseTerm = rdf.Literal("false", rdf.XSDBoolean)
)

func termVal(t rdf.Term) value { return value{t: t} }
func numVal(n number) value    { return value{kind: vNum, n: n} }
func boolVal(b bool) value     { return value{kind: vBool, b: b} }
func strVal(s string) value    { return termVal(rdf.String(s)) }
func intVal(i int64) value     { return numVal(intNum(i)) }
func boolTerm(b bool) rdf.Term {
	if b {
		return trueTerm
	}
	return falseTerm
}

// term materializes v.
func (v value) term() rdf.Term {
	switch v.kind {
	case vNum:
		return v.n.term()
	case vBool:
		return boolTerm(v.b)
	}
	return v.t
}

// number returns v's numeric value; ok is false for non-numbers.
func (v value) number() (number, bool) {
	if v.kind == vNum || v.numOK {
		return v.n, true
	}
	if v.kind == vBool {
		return number{}, false
	}
	return parseNumber(v.t)
}

// boolean returns the value of an xsd:boolean; ok is false otherwise.
func (v value) boolean() (b, ok bool) {
	switch v.kind {
	case vBool:
		return v.b, true
	case vNum:
		return false, false
	}
	return parseBoolean(v.t)
}

func parseBoolean(t rdf.Term) (b, ok bool) {
	if t.Kind != rdf.KindLiteral || t.Datatype != rdf.XSDBoolean {
		return false, false
	}
	switch t.Value {
	case "true", "1":
		return true, true
	case "false", "0":
		return false, true
	}
	return false, false
}

// ebv is the effective boolean value (§17.2.2).
func (v value) ebv() (bool, error) {
	switch v.kind {
	case vBool:
		return v.b, nil
	case vNum:
		return !v.n.isZero() && !v.n.isNaN(), nil
	}
	return EBV(v.t)
}

// EBV returns the effective boolean value of a term (§17.2.2): booleans
// and numbers by value (false for ill-formed lexical forms), strings by
// non-emptiness, a type error for everything else.
func EBV(t rdf.Term) (bool, error) {
	if t.Kind != rdf.KindLiteral {
		return false, ErrType
	}
	switch dt := t.Datatype; {
	case dt == rdf.XSDBoolean:
		b, _ := parseBoolean(t)
		return b, nil
	case dt == rdf.XSDString || dt == rdf.RDFLangString:
		return t.Value != "", nil
	case isNumericDatatype(dt):
		n, ok := parseNumber(t)
		return ok && !n.isZero() && !n.isNaN(), nil
	}
	return false, ErrType
}

// stringArg returns the lexical form and language of a string literal
// (simple, xsd:string or language-tagged); ok is false otherwise.
func stringArg(v value) (lex, lang string, ok bool) {
	if v.kind != vTerm || v.t.Kind != rdf.KindLiteral {
		return "", "", false
	}
	switch v.t.Datatype {
	case rdf.XSDString:
		return v.t.Value, "", true
	case rdf.RDFLangString:
		return v.t.Value, v.t.Lang, true
	}
	return "", "", false
}

// simpleArg returns the lexical form of a simple literal or xsd:string.
func simpleArg(v value) (string, bool) {
	if v.kind == vTerm && v.t.Kind == rdf.KindLiteral && v.t.Datatype == rdf.XSDString {
		return v.t.Value, true
	}
	return "", false
}

// langStr builds a string result carrying lang (simple when empty).
func langStr(s, lang string) value {
	if lang == "" {
		return strVal(s)
	}
	return termVal(rdf.LangLiteral(s, lang))
}
