package expr

import (
	"sort"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

func TestCompareOrder(t *testing.T) {
	xsd := func(lex, local string) rdf.Term { return rdf.Literal(lex, rdf.XSDNS+local) }
	// The ORDER BY order, lowest first.
	want := []rdf.Term{
		{},
		rdf.Blank("a"),
		rdf.Blank("b"),
		rdf.IRI("http://a/"),
		rdf.IRI("http://b/"),
		xsd("NaN", "double"),
		xsd("-INF", "double"),
		xsd("-5", "integer"),
		xsd("1.0", "decimal"), // equal value: ties broken by datatype IRI
		xsd("1", "integer"),
		xsd("1.5", "float"),
		xsd("2", "int"),
		xsd("10", "integer"),
		xsd("false", "boolean"),
		xsd("1", "boolean"),
		xsd("true", "boolean"),
		xsd("2001-01-01T00:00:00+01:00", "dateTime"),
		xsd("2001-01-01T00:00:00Z", "dateTime"),
		xsd("2000-12-31", "date"),
		rdf.String(""),
		rdf.String("B"),
		rdf.String("a"),
		rdf.String("ä"),
		rdf.LangLiteral("a", "en"),
		rdf.LangLiteral("a", "fr"),
		rdf.LangLiteral("b", "en"),
		rdf.Literal("x", "http://example.org/dt"),
		xsd("abc", "integer"), // ill-formed numbers are "other" literals
	}
	for i := range want {
		for j := range want {
			got := Compare(want[i], want[j])
			exp := 0
			if i < j {
				exp = -1
			} else if i > j {
				exp = 1
			}
			if got != exp {
				t.Errorf("Compare(%v, %v) = %d, want %d", want[i], want[j], got, exp)
			}
		}
	}
	shuffled := append([]rdf.Term(nil), want...)
	for i, j := 0, len(shuffled)-1; i < j; i, j = i+1, j-1 {
		shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
	}
	sort.Slice(shuffled, func(i, j int) bool { return Compare(shuffled[i], shuffled[j]) < 0 })
	for i := range want {
		if shuffled[i] != want[i] {
			t.Fatalf("sorted[%d] = %v, want %v", i, shuffled[i], want[i])
		}
	}
}

func TestEBVAndEqualExported(t *testing.T) {
	for _, c := range []struct {
		t    rdf.Term
		want bool
		err  bool
	}{
		{rdf.Literal("true", rdf.XSDBoolean), true, false},
		{rdf.Literal("0", rdf.XSDBoolean), false, false},
		{rdf.Literal("0.0", rdf.XSDDecimal), false, false},
		{rdf.Literal("0.1", rdf.XSDDecimal), true, false},
		{rdf.String(""), false, false},
		{rdf.LangLiteral("x", "en"), true, false},
		{rdf.IRI("http://x/"), false, true},
		{rdf.Literal("2001-01-01", rdf.XSDDate), false, true},
	} {
		got, err := EBV(c.t)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("EBV(%v) = %v, %v", c.t, got, err)
		}
	}
	if eq, err := Equal(rdf.Literal("1", rdf.XSDInteger), rdf.Literal("1.0", rdf.XSDDouble)); !eq || err != nil {
		t.Errorf("Equal(1, 1.0e0) = %v, %v", eq, err)
	}
}

func TestCanonical(t *testing.T) {
	for _, c := range []struct{ in, want rdf.Term }{
		{rdf.Literal("01", rdf.XSDInteger), rdf.Literal("1", rdf.XSDInteger)},
		{rdf.Literal("+007", xsdInt), rdf.Literal("7", xsdInt)},
		{rdf.Literal("1E0", rdf.XSDDouble), rdf.Literal("1.0E0", rdf.XSDDouble)},
		{rdf.Literal("0", rdf.XSDDouble), rdf.Literal("0.0E0", rdf.XSDDouble)},
		{rdf.Literal("1", rdf.XSDDecimal), rdf.Literal("1.0", rdf.XSDDecimal)},
		{rdf.Literal("+33.3300", rdf.XSDDecimal), rdf.Literal("33.33", rdf.XSDDecimal)},
		{rdf.Literal("0", rdf.XSDBoolean), rdf.Literal("false", rdf.XSDBoolean)},
		{rdf.Literal("x", rdf.XSDInteger), rdf.Literal("x", rdf.XSDInteger)},
		{rdf.String("01"), rdf.String("01")},
	} {
		if got := Canonical(c.in); got != c.want {
			t.Errorf("Canonical(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
