package expr

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
)

// casts are the XSD constructor functions SPARQL 1.1 §17.5 imports, with
// the XPath F&O §17.1 rules for the source types §17.5 allows.
var casts = map[string]func(*Context, value) (value, error){
	rdf.XSDString:   castString,
	rdf.XSDBoolean:  castBoolean,
	rdf.XSDInteger:  castInteger,
	rdf.XSDDecimal:  castDecimal,
	xsdFloat:        castFloating(nFloat),
	rdf.XSDDouble:   castFloating(nDouble),
	rdf.XSDDateTime: castDateTime,
}

// castSource classifies a cast argument; str is set for simple literals
// and xsd:string (whitespace-trimmed, as XSD's whitespace facet does
// before parsing).
type castSource struct {
	str    string
	isStr  bool
	num    number
	isNum  bool
	b      bool
	isBool bool
}

func classify(v value) (castSource, bool) {
	if n, ok := v.number(); ok {
		return castSource{num: n, isNum: true}, true
	}
	if b, ok := v.boolean(); ok {
		return castSource{b: b, isBool: true}, true
	}
	if s, ok := simpleArg(v); ok {
		return castSource{str: strings.Trim(s, " \t\n\r"), isStr: true}, true
	}
	return castSource{}, false
}

func castString(_ *Context, v value) (value, error) {
	if n, ok := v.number(); ok {
		return strVal(n.xpathString()), nil
	}
	if b, ok := v.boolean(); ok {
		return strVal(boolTerm(b).Value), nil
	}
	t := v.term()
	switch {
	case t.Kind == rdf.KindIRI:
		return strVal(t.Value), nil
	case t.Kind != rdf.KindLiteral || t.Datatype == rdf.RDFLangString:
		return value{}, ErrType
	case isNumericDatatype(t.Datatype) || t.Datatype == rdf.XSDBoolean:
		return value{}, ErrType // ill-formed: no value to cast
	}
	return strVal(t.Value), nil
}

func castBoolean(_ *Context, v value) (value, error) {
	s, ok := classify(v)
	switch {
	case !ok:
		return value{}, ErrType
	case s.isBool:
		return boolVal(s.b), nil
	case s.isNum:
		return boolVal(!s.num.isZero() && !s.num.isNaN()), nil
	}
	switch s.str {
	case "true", "1":
		return boolVal(true), nil
	case "false", "0":
		return boolVal(false), nil
	}
	return value{}, ErrType
}

func castInteger(_ *Context, v value) (value, error) {
	s, ok := classify(v)
	switch {
	case !ok:
		return value{}, ErrType
	case s.isBool:
		return intVal(b2i(s.b)), nil
	case s.isStr:
		n, ok := parseInteger(s.str)
		if !ok {
			return value{}, ErrType
		}
		return numVal(n), nil
	}
	n := s.num
	switch n.k {
	case nInteger:
		return numVal(n), nil
	case nDecimal:
		q := new(big.Int).Quo(n.r.Num(), n.r.Denom()) // truncates towards zero
		return numVal(intFromBig(q)), nil
	}
	if math.IsNaN(n.f) || math.IsInf(n.f, 0) {
		return value{}, ErrType
	}
	t := math.Trunc(n.f)
	if t >= -(1<<63) && t < 1<<63 {
		return intVal(int64(t)), nil
	}
	b, _ := new(big.Float).SetFloat64(t).Int(nil)
	return numVal(intFromBig(b)), nil
}

func intFromBig(b *big.Int) number {
	if b.IsInt64() {
		return intNum(b.Int64())
	}
	return bigIntNum(new(big.Rat).SetInt(b))
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func castDecimal(_ *Context, v value) (value, error) {
	s, ok := classify(v)
	switch {
	case !ok:
		return value{}, ErrType
	case s.isBool:
		return numVal(decNum(new(big.Rat).SetInt64(b2i(s.b)))), nil
	case s.isStr:
		n, ok := parseDecimal(s.str)
		if !ok {
			return value{}, ErrType
		}
		return numVal(n), nil
	}
	n := s.num
	switch n.k {
	case nInteger, nDecimal:
		return numVal(decNum(n.rat())), nil
	}
	if math.IsNaN(n.f) || math.IsInf(n.f, 0) {
		return value{}, ErrType
	}
	// The shortest decimal that reads back as the same float or double,
	// rather than the binary fraction's exact expansion.
	bits := 64
	if n.k == nFloat {
		bits = 32
	}
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(n.f, 'f', -1, bits))
	return numVal(decNum(r)), nil
}

func castFloating(k numKind) func(*Context, value) (value, error) {
	return func(_ *Context, v value) (value, error) {
		s, ok := classify(v)
		switch {
		case !ok:
			return value{}, ErrType
		case s.isBool:
			return numVal(intNum(b2i(s.b)).to(k)), nil
		case s.isStr:
			f, ok := parseDouble(s.str)
			if !ok {
				return value{}, ErrType
			}
			return numVal(doubleNum(f).to(k)), nil
		}
		return numVal(s.num.to(k)), nil
	}
}

func castDateTime(_ *Context, v value) (value, error) {
	if v.kind == vTerm && v.t.Kind == rdf.KindLiteral && v.t.Datatype == rdf.XSDDateTime {
		if _, ok := parseDateTime(v.t.Value, false); ok {
			return v, nil
		}
		return value{}, ErrType
	}
	s, ok := simpleArg(v)
	if !ok {
		return value{}, ErrType
	}
	s = strings.Trim(s, " \t\n\r")
	if _, ok := parseDateTime(s, false); !ok {
		return value{}, ErrType
	}
	return termVal(rdf.Literal(s, rdf.XSDDateTime)), nil
}
