package expr

import (
	"strings"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/iri"
)

// builtins maps operator symbols and upper-case function names to their
// implementations. Non-strict forms (||, &&, IN, IF, COALESCE, BOUND,
// EXISTS) and the regular-expression functions are compiled specially.
var builtins map[string]builtin

func init() {
	builtins = map[string]builtin{
		"=":  {binary: opEq},
		"!=": {binary: opNe},
		"<":  {binary: cmpOp(func(c int) bool { return c < 0 })},
		">":  {binary: cmpOp(func(c int) bool { return c > 0 })},
		"<=": {binary: cmpOp(func(c int) bool { return c <= 0 })},
		">=": {binary: cmpOp(func(c int) bool { return c >= 0 })},
		"+":  {binary: arithOp('+')},
		"-":  {binary: arithOp('-')},
		"*":  {binary: arithOp('*')},
		"/":  {binary: arithOp('/')},
		"!":  {unary: opNot},
		"NEG": {unary: func(_ *Context, a value) (value, error) {
			n, ok := a.number()
			if !ok {
				return value{}, ErrType
			}
			return numVal(negate(n)), nil
		}},
		"POS": {unary: func(_ *Context, a value) (value, error) {
			n, ok := a.number()
			if !ok {
				return value{}, ErrType
			}
			return numVal(n), nil
		}},

		"SAMETERM":  {binary: func(_ *Context, a, b value) (value, error) { return boolVal(sameTerm(a, b)), nil }},
		"ISIRI":     {unary: kindTest(rdf.KindIRI)},
		"ISBLANK":   {unary: kindTest(rdf.KindBlank)},
		"ISLITERAL": {unary: func(_ *Context, a value) (value, error) { return boolVal(a.kind != vTerm || a.t.IsLiteral()), nil }},
		"ISNUMERIC": {unary: func(_ *Context, a value) (value, error) { _, ok := a.number(); return boolVal(ok), nil }},
		"STR":       {unary: fnStr},
		"LANG":      {unary: fnLang},
		"DATATYPE":  {unary: fnDatatype},
		"IRI":       {unary: fnIRI},
		"BNODE":     {nullary: func(c *Context) (value, error) { return termVal(c.freshBlank()), nil }, unary: fnBnode},
		"STRDT":     {binary: fnStrdt},
		"STRLANG":   {binary: fnStrlang},
		"UUID":      {nullary: func(c *Context) (value, error) { return termVal(rdf.IRI("urn:uuid:" + c.uuid())), nil }},
		"STRUUID":   {nullary: func(c *Context) (value, error) { return strVal(c.uuid()), nil }},
		"RAND":      {nullary: func(c *Context) (value, error) { return numVal(doubleNum(c.rand.Float64())), nil }},
		"ABS":       {unary: numFn(numAbs)},
		"CEIL":      {unary: numFn(numCeil)},
		"FLOOR":     {unary: numFn(numFloor)},
		"ROUND":     {unary: numFn(numRound)},
	}
	for name, b := range stringBuiltins {
		builtins[name] = b
	}
	for name, b := range dateBuiltins {
		builtins[name] = b
	}
	for name, b := range hashBuiltins {
		builtins[name] = b
	}
}

func opEq(_ *Context, a, b value) (value, error) {
	eq, err := equal(a, b)
	return boolVal(eq), err
}

func opNe(_ *Context, a, b value) (value, error) {
	eq, err := equal(a, b)
	if err != nil {
		return value{}, err
	}
	// NaN != NaN is true although NaN = NaN is false; equal already
	// returns false for NaN, so negation gives the XPath result.
	return boolVal(!eq), nil
}

func cmpOp(test func(int) bool) func(*Context, value, value) (value, error) {
	return func(_ *Context, a, b value) (value, error) {
		c, unordered, err := order(a, b)
		if err != nil {
			return value{}, err
		}
		return boolVal(!unordered && test(c)), nil
	}
}

func arithOp(op byte) func(*Context, value, value) (value, error) {
	return func(_ *Context, a, b value) (value, error) {
		x, ok := a.number()
		if !ok {
			return value{}, ErrType
		}
		y, ok := b.number()
		if !ok {
			return value{}, ErrType
		}
		n, err := arith(op, x, y)
		if err != nil {
			return value{}, err
		}
		return numVal(n), nil
	}
}

func opNot(_ *Context, a value) (value, error) {
	b, err := a.ebv()
	if err != nil {
		return value{}, err
	}
	return boolVal(!b), nil
}

func numFn(f func(number) number) func(*Context, value) (value, error) {
	return func(_ *Context, a value) (value, error) {
		n, ok := a.number()
		if !ok {
			return value{}, ErrType
		}
		return numVal(f(n)), nil
	}
}

// sameTerm compares terms, not values (§17.4.1.8).
func sameTerm(a, b value) bool {
	if a.kind != vTerm || b.kind != vTerm {
		return a.term() == b.term()
	}
	return a.t == b.t
}

func kindTest(k rdf.Kind) func(*Context, value) (value, error) {
	return func(_ *Context, a value) (value, error) { return boolVal(a.kind == vTerm && a.t.Kind == k), nil }
}

func fnStr(_ *Context, a value) (value, error) {
	t := a.term()
	switch t.Kind {
	case rdf.KindIRI, rdf.KindLiteral:
		if t.Datatype == rdf.XSDString {
			return a, nil
		}
		return strVal(t.Value), nil
	}
	return value{}, ErrType
}

func fnLang(_ *Context, a value) (value, error) {
	t := a.term()
	if t.Kind != rdf.KindLiteral {
		return value{}, ErrType
	}
	return strVal(t.Lang), nil
}

func fnDatatype(_ *Context, a value) (value, error) {
	t := a.term()
	if t.Kind != rdf.KindLiteral {
		return value{}, ErrType
	}
	return termVal(rdf.IRI(t.Datatype)), nil
}

// fnIRI resolves a simple literal against the base; an IRI is returned
// unchanged (§17.4.2.8).
func fnIRI(c *Context, a value) (value, error) {
	if a.kind == vTerm && a.t.IsIRI() {
		return a, nil
	}
	s, ok := simpleArg(a)
	if !ok {
		return value{}, ErrType
	}
	if c.Base != "" {
		r, err := iri.Resolve(c.Base, s)
		if err != nil {
			return value{}, ErrType
		}
		s = r
	}
	if !iri.IsAbsolute(s) || strings.ContainsAny(s, " <>\"{}|\\^`") {
		return value{}, ErrType
	}
	return termVal(rdf.IRI(s)), nil
}

// fnBnode returns the same blank node for the same string within one
// solution (see Context.NewSolution).
func fnBnode(c *Context, a value) (value, error) {
	s, ok := simpleArg(a)
	if !ok {
		return value{}, ErrType
	}
	if t, ok := c.rowBnodes[s]; ok {
		return termVal(t), nil
	}
	if c.rowBnodes == nil {
		c.rowBnodes = map[string]rdf.Term{}
	}
	t := c.freshBlank()
	c.rowBnodes[s] = t
	return termVal(t), nil
}

func fnStrdt(_ *Context, a, b value) (value, error) {
	s, ok := simpleArg(a)
	if !ok || b.kind != vTerm || !b.t.IsIRI() || b.t.Value == rdf.RDFLangString {
		return value{}, ErrType
	}
	return termVal(rdf.Literal(s, b.t.Value)), nil
}

func fnStrlang(_ *Context, a, b value) (value, error) {
	s, ok := simpleArg(a)
	lang, ok2 := simpleArg(b)
	if !ok || !ok2 || !validLangTag(lang) {
		return value{}, ErrType
	}
	return termVal(rdf.LangLiteral(s, lang)), nil
}

// validLangTag checks the BCP 47 shape Turtle and SPARQL accept:
// [a-zA-Z]+ ('-' [a-zA-Z0-9]+)*.
func validLangTag(s string) bool {
	for i, part := range strings.Split(s, "-") {
		if part == "" {
			return false
		}
		for j := 0; j < len(part); j++ {
			c := part[j]
			letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			if !letter && (i == 0 || c < '0' || c > '9') {
				return false
			}
		}
	}
	return true
}
