package expr

import (
	"testing"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// aggregate runs the aggregate of src (e.g. "SUM(?x)") over one group
// whose solutions bind ?x to the given terms (zero Term: unbound).
func aggregate(t *testing.T, src string, xs ...rdf.Term) string {
	t.Helper()
	var agg *syntax.Aggregate
	syntax.WalkExpr(parseAggExpr(t, src), func(e syntax.Expr) bool {
		if a, ok := e.(*syntax.Aggregate); ok {
			agg = a
		}
		return true
	})
	if agg == nil {
		t.Fatalf("no aggregate in %s", src)
	}
	scope := NewScope("x", "y")
	a, err := CompileAggregate(agg, scope)
	if err != nil {
		t.Fatal(err)
	}
	c := newTestContext()
	acc := a.New()
	for _, x := range xs {
		acc.Add(c, Row{x, rdf.String("same")})
	}
	r, err := acc.Result()
	if err != nil {
		return "error"
	}
	return short(r)
}

func parseAggExpr(t *testing.T, src string) syntax.Expr {
	q, err := syntax.Parse(testPrefixes+"SELECT ("+src+" AS ?r) { ?x ?y ?z }", syntax.Options{})
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return q.Project[0].Expr
}

func TestAggregates(t *testing.T) {
	i := func(s string) rdf.Term { return rdf.Literal(s, rdf.XSDInteger) }
	d := func(s string) rdf.Term { return rdf.Literal(s, rdf.XSDDecimal) }
	dbl := func(s string) rdf.Term { return rdf.Literal(s, rdf.XSDDouble) }
	unbound := rdf.Term{}
	cases := []struct {
		agg  string
		xs   []rdf.Term
		want string
	}{
		{"COUNT(*)", []rdf.Term{i("1"), unbound, i("1")}, `"3"^^xsd:integer`},
		{"COUNT(DISTINCT *)", []rdf.Term{i("1"), unbound, i("1")}, `"2"^^xsd:integer`},
		{"COUNT(?x)", []rdf.Term{i("1"), unbound, i("1")}, `"2"^^xsd:integer`},
		{"COUNT(DISTINCT ?x)", []rdf.Term{i("1"), unbound, i("1"), d("1.0")}, `"2"^^xsd:integer`},
		{"COUNT(*)", nil, `"0"^^xsd:integer`},
		{"SUM(?x)", []rdf.Term{i("1"), i("2"), d("0.5")}, `"3.5"^^xsd:decimal`},
		{"SUM(?x)", []rdf.Term{i("1"), dbl("2")}, `"3.0E0"^^xsd:double`},
		{"SUM(?x)", nil, `"0"^^xsd:integer`},
		{"SUM(?x)", []rdf.Term{i("1"), rdf.String("2")}, `error`},
		{"SUM(?x)", []rdf.Term{i("1"), unbound}, `error`},
		{"SUM(DISTINCT ?x)", []rdf.Term{i("1"), i("1"), i("2")}, `"3"^^xsd:integer`},
		{"AVG(?x)", []rdf.Term{i("1"), i("2"), i("3"), i("4")}, `"2.5"^^xsd:decimal`},
		{"AVG(?x)", []rdf.Term{d("1.0"), d("2.2"), d("3.5"), i("4")}, `"2.675"^^xsd:decimal`},
		{"AVG(?x)", []rdf.Term{i("1"), rdf.Blank("b")}, `error`},
		{"AVG(?x)", nil, `"0"^^xsd:integer`},
		{"AVG(DISTINCT ?x)", []rdf.Term{i("1"), i("1"), i("4")}, `"2.5"^^xsd:decimal`},
		{"MIN(?x)", []rdf.Term{i("3"), d("1.0"), dbl("2")}, `"1.0"^^xsd:decimal`},
		{"MIN(?x)", []rdf.Term{i("1"), rdf.Blank("b2"), i("3")}, `_:b2`},
		{"MIN(?x)", []rdf.Term{unbound, i("3")}, `"3"^^xsd:integer`},
		{"MIN(?x)", nil, `error`},
		{"MAX(?x)", []rdf.Term{dbl("1.0E2"), dbl("3.0E4"), i("5")}, `"3.0E4"^^xsd:double`},
		{"MAX(?x)", []rdf.Term{i("5"), rdf.String("a"), rdf.IRI("http://x/")}, `"a"`},
		{"MAX(?x)", nil, `error`},
		{"SAMPLE(?x)", []rdf.Term{unbound, i("5"), i("6")}, `"5"^^xsd:integer`},
		{"SAMPLE(?x)", nil, `error`},
		{`GROUP_CONCAT(?x)`, []rdf.Term{rdf.String("1"), rdf.String("22")}, `"1 22"`},
		{`GROUP_CONCAT(?x; SEPARATOR=":")`, []rdf.Term{rdf.String("1"), rdf.String("22")}, `"1:22"`},
		{`GROUP_CONCAT(?x)`, []rdf.Term{rdf.LangLiteral("1", "en"), rdf.LangLiteral("2", "en")}, `"1 2"`},
		{`GROUP_CONCAT(DISTINCT ?x)`, []rdf.Term{rdf.String("1"), rdf.String("2"), rdf.String("1")}, `"1 2"`},
		{`GROUP_CONCAT(?x)`, []rdf.Term{i("1"), unbound, rdf.IRI("http://x/")}, `"1 http://x/"`},
		{`GROUP_CONCAT(?x)`, []rdf.Term{i("1"), rdf.Blank("b")}, `error`},
		{`GROUP_CONCAT(?x)`, nil, `""`},
		{`SUM(?x * 2)`, []rdf.Term{i("1"), i("2")}, `"6"^^xsd:integer`},
	}
	for _, c := range cases {
		if got := aggregate(t, c.agg, c.xs...); got != c.want {
			t.Errorf("%s over %v = %s, want %s", c.agg, c.xs, got, c.want)
		}
	}
}
