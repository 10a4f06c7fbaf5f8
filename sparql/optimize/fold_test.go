package optimize

import (
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

func folded(t *testing.T, query string) string {
	t.Helper()
	q, err := syntax.Parse("PREFIX : <http://ex/>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"+query, syntax.Options{})
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	op := algebra.Translate(q).Op
	before := algebra.String(op)
	out := strings.Join(strings.Fields(algebra.String(FoldConstants(op))), " ")
	if algebra.String(op) != before {
		t.Errorf("FoldConstants modified its input")
	}
	return out
}

func TestFoldConstants(t *testing.T) {
	cases := []struct{ query, want string }{
		// Constant arithmetic and functions become literals.
		{`SELECT ?x { ?x :p ?o FILTER(?o > 1 + 2 * 3) }`,
			`(project (?x) (filter (> ?o 7) (bgp (triple ?x <http://ex/p> ?o))))`},
		{`SELECT (CONCAT(UCASE("a"), STR(:b)) AS ?c) {}`,
			`(project (?c) (extend ((?c "Ahttp://ex/b")) (table unit)))`},
		{`SELECT (xsd:integer("12") + ?v AS ?c) { ?s :p ?v }`,
			`(project (?c) (extend ((?c (+ 12 ?v))) (bgp (triple ?s <http://ex/p> ?v))))`},
		// A filter that is always true disappears, one that is always
		// false empties its operand.
		{`SELECT ?x { ?x :p ?o FILTER(1 < 2) }`,
			`(project (?x) (bgp (triple ?x <http://ex/p> ?o)))`},
		{`SELECT ?x { ?x :p ?o FILTER(STRLEN("abc") = 4) }`,
			`(project (?x) (table empty))`},
		// true || x and false && x are decided whatever x does.
		{`SELECT ?x { ?x :p ?o FILTER(?o || true) }`,
			`(project (?x) (bgp (triple ?x <http://ex/p> ?o)))`},
		{`SELECT ?x { ?x :p ?o FILTER(false && ?o) }`,
			`(project (?x) (table empty))`},
		{`SELECT (IF(1 > 0, ?o, 1/0) AS ?c) { ?x :p ?o }`,
			`(project (?c) (extend ((?c ?o)) (bgp (triple ?x <http://ex/p> ?o))))`},
		// Errors stay, to fail per solution; volatile functions stay.
		{`SELECT ?x { ?x :p ?o FILTER(?o = 1/0) }`,
			`(project (?x) (filter (= ?o (/ 1 0)) (bgp (triple ?x <http://ex/p> ?o))))`},
		{`SELECT (RAND() < 2 AS ?r) (STR(BNODE()) AS ?b) (STRUUID() AS ?u) (NOW() AS ?n) (UUID() AS ?i) {}`,
			`(project (?r ?b ?u ?n ?i) (extend ((?i (uuid))) (extend ((?n (now))) (extend ((?u (struuid))) (extend ((?b (str (bnode)))) (extend ((?r (< (rand) 2))) (table unit)))))))`},
		// Inside OPTIONAL conditions, EXISTS patterns, grouping and ordering.
		{`SELECT ?x { ?x :p ?o OPTIONAL { ?x :q ?z FILTER(2 > 1) } FILTER EXISTS { ?x :r ?w FILTER(?w = ABS(-3)) } }`,
			`(project (?x) (filter (exists (filter (= ?w 3) (bgp (triple ?x <http://ex/r> ?w)))) (leftjoin (bgp (triple ?x <http://ex/p> ?o)) (bgp (triple ?x <http://ex/q> ?z)))))`},
		{`SELECT (SUM(?o * (1 + 1)) AS ?s) { ?x :p ?o } GROUP BY (?x = LCASE("A")) ORDER BY (1 + ?s)`,
			`(project (?s) (order ((+ 1 ?s)) (extend ((?s ?.agg1)) (group ((?.key1 (= ?x "a"))) ((?.agg1 (sum (* ?o 2)))) (bgp (triple ?x <http://ex/p> ?o))))))`},
	}
	for _, c := range cases {
		if got := folded(t, c.query); got != c.want {
			t.Errorf("%s\n got  %s\n want %s", c.query, got, c.want)
		}
	}
}
