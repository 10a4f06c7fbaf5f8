package expr

import (
	"math"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
)

// equal implements = (§17.3 operator mapping, falling back to
// RDFterm-equal §17.4.1.7): values of known types compare by value;
// different terms whose equality cannot be decided are a type error.
func equal(a, b value) (bool, error) {
	if na, ok := a.number(); ok {
		if nb, ok := b.number(); ok {
			c, unordered := cmpNum(na, nb)
			return c == 0 && !unordered, nil
		}
	}
	if ba, ok := a.boolean(); ok {
		if bb, ok := b.boolean(); ok {
			return ba == bb, nil
		}
	}
	ta, tb := a.term(), b.term()
	if ta == tb {
		return true, nil
	}
	if ta.Kind != rdf.KindLiteral || tb.Kind != rdf.KindLiteral {
		return false, nil
	}
	switch {
	case ta.Datatype == rdf.XSDString && tb.Datatype == rdf.XSDString:
		return false, nil // same datatype, different lexical forms
	case ta.Datatype == rdf.RDFLangString && tb.Datatype == rdf.RDFLangString:
		return ta.Value == tb.Value && strings.EqualFold(ta.Lang, tb.Lang), nil
	case ta.Datatype == rdf.RDFLangString || tb.Datatype == rdf.RDFLangString:
		// The value space of rdf:langString is disjoint from every
		// other datatype's: a language-tagged string equals no other
		// literal.
		return false, nil
	case isTemporal(ta.Datatype) && ta.Datatype == tb.Datatype:
		da, okA := parseDateTime(ta.Value, ta.Datatype == rdf.XSDDate)
		db, okB := parseDateTime(tb.Value, tb.Datatype == rdf.XSDDate)
		if okA && okB {
			c, ind := cmpDateTime(da, db)
			if ind {
				return false, ErrType
			}
			return c == 0, nil
		}
	}
	// Both literals are well-formed values of datatypes we know but they
	// are not equal values (e.g. a string and a number): they differ.
	if knownValue(ta) && knownValue(tb) {
		return false, nil
	}
	return false, ErrType
}

func isTemporal(dt string) bool { return dt == rdf.XSDDateTime || dt == rdf.XSDDate }

// knownValue reports whether t is a well-formed literal of a datatype
// whose value space the operators know.
func knownValue(t rdf.Term) bool {
	switch dt := t.Datatype; {
	case dt == rdf.XSDString || dt == rdf.RDFLangString:
		return true
	case dt == rdf.XSDBoolean:
		_, ok := parseBoolean(t)
		return ok
	case isTemporal(dt):
		_, ok := parseDateTime(t.Value, dt == rdf.XSDDate)
		return ok
	case isNumericDatatype(dt):
		_, ok := parseNumber(t)
		return ok
	}
	return false
}

// order compares a and b for < <= > >= (§17.3): numbers, simple literals
// and xsd:strings, booleans and dateTimes. unordered is true when a NaN
// is involved: then all four operators are false.
func order(a, b value) (c int, unordered bool, err error) {
	if na, ok := a.number(); ok {
		if nb, ok := b.number(); ok {
			c, unordered = cmpNum(na, nb)
			return c, unordered, nil
		}
		return 0, false, ErrType
	}
	if sa, ok := simpleArg(a); ok {
		if sb, ok := simpleArg(b); ok {
			return strings.Compare(sa, sb), false, nil
		}
		return 0, false, ErrType
	}
	if ba, ok := a.boolean(); ok {
		if bb, ok := b.boolean(); ok {
			return cmpBool(ba, bb), false, nil
		}
		return 0, false, ErrType
	}
	ta, tb := a.term(), b.term()
	if ta.Kind == rdf.KindLiteral && isTemporal(ta.Datatype) && ta.Datatype == tb.Datatype && tb.Kind == rdf.KindLiteral {
		da, okA := parseDateTime(ta.Value, ta.Datatype == rdf.XSDDate)
		db, okB := parseDateTime(tb.Value, tb.Datatype == rdf.XSDDate)
		if okA && okB {
			c, ind := cmpDateTime(da, db)
			if ind {
				return 0, false, ErrType
			}
			return c, false, nil
		}
	}
	return 0, false, ErrType
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}

// Equal reports a = b as SPARQL's = operator does; err is a type error
// when the equality of the two terms cannot be decided.
func Equal(a, b rdf.Term) (bool, error) { return equal(termVal(a), termVal(b)) }

// Compare is the ORDER BY order (§15.1), a total order on terms: unbound
// < blank nodes < IRIs < literals; literals of one kind by the operator
// order (numbers by value, strings by code point, booleans, dateTimes),
// kinds in a fixed order (numbers, booleans, dateTimes, dates, simple
// literals, language-tagged strings, others), and ties between distinct
// terms broken by datatype, lexical form and language, so that Compare
// is 0 only for identical terms.
func Compare(a, b rdf.Term) int {
	ka, kb := KeyOf(a), KeyOf(b)
	return CompareKeys(&ka, &kb)
}

// OrderKey is a term prepared for repeated ORDER BY comparisons: its
// kind of value found and its value parsed once, so that a sort or a
// top-k heap compares without parsing lexical forms again.
type OrderKey struct {
	t     rdf.Term
	class int // literalClass, for literals
	num   number
	b     bool
	dt    dateTime
}

// KeyOf prepares t for CompareKeys.
func KeyOf(t rdf.Term) OrderKey {
	k := OrderKey{t: t}
	if t.Kind != rdf.KindLiteral {
		return k
	}
	k.class = literalClass(t)
	switch k.class {
	case classNumber:
		k.num, _ = parseNumber(t)
	case classBoolean:
		k.b, _ = parseBoolean(t)
	case classDateTime, classDate:
		k.dt, _ = parseDateTime(t.Value, k.class == classDate)
	}
	return k
}

// Term returns the term k was made from.
func (k *OrderKey) Term() rdf.Term { return k.t }

// CompareKeys is Compare on prepared terms.
func CompareKeys(ka, kb *OrderKey) int {
	a, b := ka.t, kb.t
	if a.Kind != b.Kind {
		return cmpInt64(int64(kindRank(a.Kind)), int64(kindRank(b.Kind)))
	}
	switch a.Kind {
	case rdf.KindNone:
		return 0
	case rdf.KindBlank, rdf.KindIRI:
		return strings.Compare(a.Value, b.Value)
	}
	ca, cb := ka.class, kb.class
	if ca != cb {
		return cmpInt64(int64(ca), int64(cb))
	}
	c := 0
	switch ca {
	case classNumber:
		na, nb := ka.num, kb.num
		var unordered bool
		if c, unordered = cmpNum(na, nb); unordered {
			// NaN sorts before every other number.
			c = cmpBool(!na.isNaN(), !nb.isNaN())
		}
	case classBoolean:
		c = cmpBool(ka.b, kb.b)
	case classDateTime, classDate:
		c = cmpInstant(ka.dt, kb.dt, 0, 0)
	case classLang:
		if c = strings.Compare(a.Value, b.Value); c == 0 {
			c = strings.Compare(a.Lang, b.Lang)
		}
	}
	if c != 0 {
		return c
	}
	if c = strings.Compare(a.Datatype, b.Datatype); c != 0 {
		return c
	}
	if c = strings.Compare(a.Value, b.Value); c != 0 {
		return c
	}
	return strings.Compare(a.Lang, b.Lang)
}

func kindRank(k rdf.Kind) int {
	switch k {
	case rdf.KindBlank:
		return 1
	case rdf.KindIRI:
		return 2
	case rdf.KindLiteral:
		return 3
	}
	return 0
}

const (
	classNumber = iota
	classBoolean
	classDateTime
	classDate
	classString
	classLang
	classOther
)

// literalClass groups literals whose values compare with each other.
func literalClass(t rdf.Term) int {
	switch dt := t.Datatype; {
	case dt == rdf.XSDString:
		return classString
	case dt == rdf.RDFLangString:
		return classLang
	case knownValue(t):
		switch {
		case dt == rdf.XSDBoolean:
			return classBoolean
		case dt == rdf.XSDDateTime:
			return classDateTime
		case dt == rdf.XSDDate:
			return classDate
		}
		return classNumber
	}
	return classOther
}

// EqualKey returns a key of literal t that every literal equal to t
// under = (Equal true) shares: numbers by their value rounded to float
// (the coarsest type a comparison promotes to), booleans by value,
// strings by lexical form and language, the well-formed dates and
// dateTimes one key per datatype (time zones make equal values of different forms),
// and anything else, whose equality is term identity, by the term.
// Unequal literals may share a key: a join on it must still check =.
func EqualKey(t rdf.Term) string {
	v := termVal(t)
	if n, ok := v.number(); ok {
		f := float32(n.float())
		if f == 0 {
			f = 0 // -0 = +0
		}
		b := math.Float32bits(f)
		return string([]byte{'n', byte(b >> 24), byte(b >> 16), byte(b >> 8), byte(b)})
	}
	if b, ok := v.boolean(); ok {
		if b {
			return "b1"
		}
		return "b0"
	}
	switch dt := t.Datatype; {
	case dt == rdf.XSDString:
		return "s" + t.Value
	case dt == rdf.RDFLangString:
		return "l" + strings.ToLower(t.Lang) + "\x00" + t.Value
	case isTemporal(dt):
		if _, ok := parseDateTime(t.Value, dt == rdf.XSDDate); ok {
			return "t" + dt
		}
	}
	return "o" + t.Datatype + "\x00" + t.Lang + "\x00" + t.Value
}
