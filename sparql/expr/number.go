package expr

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
)

// numKind orders the numeric types by the promotion of XPath F&O §1.2:
// integer < decimal < float < double.
type numKind uint8

const (
	nInteger numKind = iota
	nDecimal
	nFloat
	nDouble
)

// number is a numeric value. Integers that fit in int64 live in i (r is
// nil), bigger ones and all decimals in r, floats (rounded to float32)
// and doubles in f.
type number struct {
	k numKind
	i int64
	r *big.Rat
	f float64
}

func intNum(i int64) number       { return number{k: nInteger, i: i} }
func doubleNum(f float64) number  { return number{k: nDouble, f: f} }
func floatNum(f float64) number   { return number{k: nFloat, f: float64(float32(f))} }
func decNum(r *big.Rat) number    { return number{k: nDecimal, r: r} }
func bigIntNum(r *big.Rat) number { return number{k: nInteger, r: r} }

// Integer datatypes derived from xsd:integer, with their value ranges
// (nil bound: unbounded on that side).
const (
	xsdFloat              = rdf.XSDNS + "float"
	xsdNonPositiveInteger = rdf.XSDNS + "nonPositiveInteger"
	xsdNegativeInteger    = rdf.XSDNS + "negativeInteger"
	xsdLong               = rdf.XSDNS + "long"
	xsdInt                = rdf.XSDNS + "int"
	xsdShort              = rdf.XSDNS + "short"
	xsdByte               = rdf.XSDNS + "byte"
	xsdNonNegativeInteger = rdf.XSDNS + "nonNegativeInteger"
	xsdUnsignedLong       = rdf.XSDNS + "unsignedLong"
	xsdUnsignedInt        = rdf.XSDNS + "unsignedInt"
	xsdUnsignedShort      = rdf.XSDNS + "unsignedShort"
	xsdUnsignedByte       = rdf.XSDNS + "unsignedByte"
	xsdPositiveInteger    = rdf.XSDNS + "positiveInteger"
	xsdDayTimeDuration    = rdf.XSDNS + "dayTimeDuration"
)

type intRange struct{ min, max *big.Int }

func bigInt(s string) *big.Int {
	b, _ := new(big.Int).SetString(s, 10)
	return b
}

var derivedIntegers = map[string]intRange{
	xsdNonPositiveInteger: {nil, big.NewInt(0)},
	xsdNegativeInteger:    {nil, big.NewInt(-1)},
	xsdLong:               {big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)},
	xsdInt:                {big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)},
	xsdShort:              {big.NewInt(math.MinInt16), big.NewInt(math.MaxInt16)},
	xsdByte:               {big.NewInt(math.MinInt8), big.NewInt(math.MaxInt8)},
	xsdNonNegativeInteger: {big.NewInt(0), nil},
	xsdUnsignedLong:       {big.NewInt(0), bigInt("18446744073709551615")},
	xsdUnsignedInt:        {big.NewInt(0), big.NewInt(math.MaxUint32)},
	xsdUnsignedShort:      {big.NewInt(0), big.NewInt(math.MaxUint16)},
	xsdUnsignedByte:       {big.NewInt(0), big.NewInt(math.MaxUint8)},
	xsdPositiveInteger:    {big.NewInt(1), nil},
}

// isNumericDatatype reports whether dt is one of the numeric XSD types.
func isNumericDatatype(dt string) bool {
	switch dt {
	case rdf.XSDInteger, rdf.XSDDecimal, rdf.XSDDouble, xsdFloat:
		return true
	}
	if !maybeDerived(dt) {
		return false
	}
	_, ok := derivedIntegers[dt]
	return ok
}

// maybeDerived is a quick test that dt may name a type derived from
// xsd:integer, sparing the map lookup (a hash of the whole IRI) for the
// strings and other literals that most values are.
func maybeDerived(dt string) bool {
	return len(dt) > len(rdf.XSDNS) && dt != rdf.XSDString && strings.HasPrefix(dt, rdf.XSDNS)
}

// parseNumber returns the value of a numeric literal; ok is false for
// other terms and for ill-formed or out-of-range lexical forms.
func parseNumber(t rdf.Term) (number, bool) {
	if t.Kind != rdf.KindLiteral {
		return number{}, false
	}
	switch t.Datatype {
	case rdf.XSDInteger:
		return parseInteger(t.Value)
	case rdf.XSDDecimal:
		return parseDecimal(t.Value)
	case rdf.XSDDouble:
		f, ok := parseDouble(t.Value)
		return doubleNum(f), ok
	case xsdFloat:
		f, ok := parseDouble(t.Value)
		return floatNum(f), ok
	}
	if !maybeDerived(t.Datatype) {
		return number{}, false
	}
	rng, derived := derivedIntegers[t.Datatype]
	if !derived {
		return number{}, false
	}
	n, ok := parseInteger(t.Value)
	if !ok {
		return n, false
	}
	v := n.bigInt()
	if rng.min != nil && v.Cmp(rng.min) < 0 || rng.max != nil && v.Cmp(rng.max) > 0 {
		return number{}, false
	}
	return n, true
}

// parseInteger accepts the xsd:integer lexical space: [+-]?[0-9]+.
func parseInteger(s string) (number, bool) {
	if !isIntegerLex(s) {
		return number{}, false
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return intNum(i), true
	}
	b, ok := new(big.Int).SetString(strings.TrimPrefix(s, "+"), 10)
	if !ok {
		return number{}, false
	}
	return bigIntNum(new(big.Rat).SetInt(b)), true
}

func isIntegerLex(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return s != "" && allDigits(s)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isDecimalLex accepts the xsd:decimal lexical space: [+-]?(digits with
// at most one '.' and at least one digit).
func isDecimalLex(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	return intPart+frac != "" && allDigits(intPart) && allDigits(frac)
}

// parseDecimal accepts the xsd:decimal lexical space; decimals without a
// fraction keep the int64 fast path internally but stay decimals.
func parseDecimal(s string) (number, bool) {
	if !isDecimalLex(s) {
		return number{}, false
	}
	r, ok := new(big.Rat).SetString(strings.TrimPrefix(s, "+"))
	if !ok {
		return number{}, false
	}
	return decNum(r), true
}

// parseDouble accepts the xsd:double lexical space: a decimal with an
// optional exponent, or INF, +INF, -INF, NaN. strconv alone would also
// take "Infinity", hexadecimal and underscores.
func parseDouble(s string) (float64, bool) {
	switch s {
	case "INF", "+INF":
		return math.Inf(1), true
	case "-INF":
		return math.Inf(-1), true
	case "NaN":
		return math.NaN(), true
	}
	mant, exp, hasExp := strings.Cut(s, "e")
	if !hasExp {
		mant, exp, hasExp = strings.Cut(s, "E")
	}
	if !isDecimalLex(mant) || hasExp && !isIntegerLex(exp) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		// Out of range: ParseFloat returns ±Inf or 0, the IEEE value.
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	return f, true
}

// bigInt returns an integer value as a big.Int.
func (n number) bigInt() *big.Int {
	if n.r != nil {
		return new(big.Int).Set(n.r.Num())
	}
	return big.NewInt(n.i)
}

// rat returns an integer or decimal as a big.Rat (shared for decimals:
// callers must not modify it).
func (n number) rat() *big.Rat {
	if n.r != nil {
		return n.r
	}
	return new(big.Rat).SetInt64(n.i)
}

// float returns the value as float64 (exact for floats and doubles).
func (n number) float() float64 {
	switch n.k {
	case nFloat, nDouble:
		return n.f
	}
	if n.r == nil {
		return float64(n.i)
	}
	f, _ := n.r.Float64()
	return f
}

// to converts n to the (wider) kind k.
func (n number) to(k numKind) number {
	if n.k == k {
		return n
	}
	switch k {
	case nDecimal:
		return decNum(n.rat())
	case nFloat:
		return floatNum(n.float())
	case nDouble:
		return doubleNum(n.float())
	}
	return n
}

// isZero and isNaN serve the effective boolean value and casts.
func (n number) isZero() bool {
	switch n.k {
	case nFloat, nDouble:
		return n.f == 0
	}
	if n.r != nil {
		return n.r.Sign() == 0
	}
	return n.i == 0
}

func (n number) isNaN() bool { return (n.k == nFloat || n.k == nDouble) && math.IsNaN(n.f) }

// term returns n as a literal in canonical form.
func (n number) term() rdf.Term {
	switch n.k {
	case nInteger:
		if n.r == nil {
			return rdf.Term{Kind: rdf.KindLiteral, Value: strconv.FormatInt(n.i, 10), Datatype: rdf.XSDInteger}
		}
		return rdf.Term{Kind: rdf.KindLiteral, Value: n.r.Num().String(), Datatype: rdf.XSDInteger}
	case nDecimal:
		return rdf.Term{Kind: rdf.KindLiteral, Value: decimalString(n.r), Datatype: rdf.XSDDecimal}
	case nFloat:
		return rdf.Term{Kind: rdf.KindLiteral, Value: doubleString(n.f, 32), Datatype: xsdFloat}
	}
	return rdf.Term{Kind: rdf.KindLiteral, Value: doubleString(n.f, 64), Datatype: rdf.XSDDouble}
}

// decimalString writes a terminating decimal canonically: at least one
// digit on each side of the point, no other leading or trailing zeros.
func decimalString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String() + ".0"
	}
	s := r.FloatString(fractionDigits(r.Denom()))
	return strings.TrimRight(s, "0")
}

// fractionDigits is how many fraction digits represent 1/d exactly when
// d = 2^a·5^b: max(a, b). Decimals here always terminate, since division
// rounds (see divide).
func fractionDigits(d *big.Int) int {
	a := int(d.TrailingZeroBits())
	q := new(big.Int).Rsh(d, uint(a))
	five, m := big.NewInt(5), new(big.Int)
	b := 0
	for q.Cmp(big.NewInt(1)) > 0 {
		q.QuoRem(q, five, m)
		if m.Sign() != 0 {
			return max(a, b) + 24 // not terminating; cannot happen for our decimals
		}
		b++
	}
	return max(a, b)
}

// doubleString writes the XSD canonical form of a float or double:
// mantissa with one non-zero digit before the point and at least one
// after, "E", exponent without '+' or leading zeros ("1.0E0", "-2.5E-3").
func doubleString(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "INF"
	case math.IsInf(f, -1):
		return "-INF"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0E0"
		}
		return "0.0E0"
	}
	s := strconv.FormatFloat(f, 'E', -1, bits)
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}

// xpathString is the XPath cast of a number to xs:string (F&O §17.1.2):
// integers and decimals without exponent or trailing ".0", floats and
// doubles in [1e-6, 1e6) as decimals, others in canonical form.
func (n number) xpathString() string {
	switch n.k {
	case nInteger:
		return n.term().Value
	case nDecimal:
		s := decimalString(n.r)
		return strings.TrimSuffix(s, ".0")
	}
	bits := 64
	if n.k == nFloat {
		bits = 32
	}
	a := math.Abs(n.f)
	if a == 0 {
		if math.Signbit(n.f) {
			return "-0"
		}
		return "0"
	}
	if a >= 1e-6 && a < 1e6 {
		return strconv.FormatFloat(n.f, 'f', -1, bits)
	}
	return doubleString(n.f, bits)
}

// Canonical returns t with the canonical lexical form of its value when
// t is a well-formed numeric or boolean literal ("01"^^xsd:integer
// becomes "1", "1E0"^^xsd:double "1.0E0", "0"^^xsd:boolean "false"),
// keeping its datatype; other terms are returned unchanged. Result
// comparisons use it to match literals by value.
func Canonical(t rdf.Term) rdf.Term {
	if n, ok := parseNumber(t); ok {
		c := n.term()
		c.Datatype = t.Datatype
		return c
	}
	if b, ok := parseBoolean(t); ok {
		return boolTerm(b)
	}
	return t
}

// Integer returns the xsd:integer term of i in canonical form, as
// arithmetic and COUNT produce it.
func Integer(i int64) rdf.Term { return intNum(i).term() }
