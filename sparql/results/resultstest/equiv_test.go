package resultstest

import (
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/results"
)

func TestEquivalent(t *testing.T) {
	iri := func(s string) rdf.Term { return rdf.IRI("http://e/" + s) }
	b := rdf.Blank
	num := func(s string) rdf.Term { return rdf.Literal(s, rdf.XSDDouble) }
	rs := func(vars string, rows ...[]rdf.Term) *results.Results {
		return &results.Results{Vars: strings.Fields(vars), Rows: rows}
	}
	row := func(ts ...rdf.Term) []rdf.Term { return ts }
	cases := []struct {
		name      string
		want, got *results.Results
		opts      CompareOptions
		err       string // "" when equivalent
	}{
		{"same bag, other order", rs("x y", row(iri("a"), iri("b")), row(iri("c"), rdf.Term{})),
			rs("x y", row(iri("c"), rdf.Term{}), row(iri("a"), iri("b"))), CompareOptions{}, ""},
		{"columns permuted", rs("x y", row(iri("a"), iri("b"))), rs("y x", row(iri("b"), iri("a"))), CompareOptions{}, ""},
		{"sequence order matters", rs("x", row(iri("a")), row(iri("b"))), rs("x", row(iri("b")), row(iri("a"))),
			CompareOptions{Ordered: true}, "row 1: want {?x=<http://e/a>}"},
		{"multiplicity", rs("x", row(iri("a")), row(iri("a")), row(iri("b"))), rs("x", row(iri("a")), row(iri("b")), row(iri("b"))),
			CompareOptions{}, "found fewer times"},
		{"blank nodes renamed consistently", rs("x y", row(b("a"), b("b")), row(b("b"), iri("z"))),
			rs("x y", row(b("q"), iri("z")), row(b("p"), b("q"))), CompareOptions{}, ""},
		{"blank nodes not a bijection", rs("x y", row(b("a"), b("b")), row(b("c"), iri("z"))),
			rs("x y", row(b("p"), b("q")), row(b("q"), iri("z"))), CompareOptions{}, "no mapping between the blank nodes"},
		{"two labels onto one", rs("x", row(b("a")), row(b("b"))), rs("x", row(b("p")), row(b("p"))),
			CompareOptions{}, "no mapping"},
		{"search must backtrack", rs("x y", row(b("a"), iri("1")), row(b("a"), iri("2")), row(b("b"), iri("1"))),
			rs("x y", row(b("q"), iri("1")), row(b("p"), iri("1")), row(b("p"), iri("2"))), CompareOptions{}, ""},
		{"blank is not an IRI", rs("x", row(b("a"))), rs("x", row(iri("a"))), CompareOptions{}, "not found"},
		{"values need the option", rs("x", row(num("1"))), rs("x", row(num("1.0E0"))), CompareOptions{}, "not found"},
		{"values by value", rs("x", row(num("1"))), rs("x", row(num("1.0E0"))), CompareOptions{ValueLiterals: true}, ""},
		{"values keep datatypes apart", rs("x", row(num("1"))), rs("x", row(rdf.Literal("1", rdf.XSDInteger))),
			CompareOptions{ValueLiterals: true}, "not found"},
		{"variables differ", rs("x", row(iri("a"))), rs("y", row(iri("a"))), CompareOptions{}, "want variables [x], got [y]"},
		{"row count", rs("x", row(iri("a"))), rs("x"), CompareOptions{}, "want 1 rows, got 0"},
		{"ask", &results.Results{Ask: true, Boolean: true}, &results.Results{Ask: true, Boolean: false}, CompareOptions{}, "want true, got false"},
		{"ask vs select", &results.Results{Ask: true}, rs("x"), CompareOptions{}, "want an ASK result"},
	}
	for _, c := range cases {
		err := Equivalent(c.want, c.got, c.opts)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.err)
		}
	}
}
