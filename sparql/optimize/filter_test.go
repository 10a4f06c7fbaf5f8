package optimize

import (
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

func optimized(t *testing.T, query string) string {
	t.Helper()
	q, err := syntax.Parse("PREFIX : <http://ex/>\n"+query, syntax.Options{})
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	op := algebra.Translate(q).Op
	before := algebra.String(op)
	out := strings.Join(strings.Fields(algebra.String(Optimize(op))), " ")
	if algebra.String(op) != before {
		t.Errorf("Optimize modified its input")
	}
	return out
}

func TestPushFilters(t *testing.T) {
	cases := []struct{ query, want string }{
		// Each conjunct goes to the join side that binds its variables.
		{"SELECT * { ?s :p ?o { ?x :q ?y } UNION { ?x :r ?y } FILTER(?o > 1 && ?y < 2 && ?o != ?y) }",
			"(project (?s ?o ?x ?y) (filter (!= ?o ?y) (join (filter (> ?o 1) (bgp (triple ?s <http://ex/p> ?o))) (union (filter (< ?y 2) (bgp (triple ?x <http://ex/q> ?y))) (filter (< ?y 2) (bgp (triple ?x <http://ex/r> ?y)))))))"},
		// Only the left side of OPTIONAL binds for sure; the !bound left
		// above it makes the left join a MINUS (OptionalToMinus).
		{"SELECT * { ?s :p ?o OPTIONAL { ?s :q ?x } FILTER(?o = 1 && !bound(?x)) }",
			"(project (?s ?o ?x) (minus (filter (= ?o 1) (bgp (triple ?s <http://ex/p> ?o))) (bgp (triple ?s <http://ex/q> ?x))))"},
		{"SELECT * { ?s :p ?o OPTIONAL { ?s :q ?x } FILTER(?o = 1 && bound(?x)) }",
			"(project (?s ?o ?x) (filter (bound ?x) (leftjoin (filter (= ?o 1) (bgp (triple ?s <http://ex/p> ?o))) (bgp (triple ?s <http://ex/q> ?x)))))"},
		{"SELECT * { { ?s :p ?o } UNION { ?s :q ?o } FILTER(isIRI(?o)) }",
			"(project (?s ?o) (union (filter (isiri ?o) (bgp (triple ?s <http://ex/p> ?o))) (filter (isiri ?o) (bgp (triple ?s <http://ex/q> ?o)))))"},
		// EXISTS and RAND stay put; the filter on the BIND variable stays above it.
		{"SELECT * { ?s :p ?o OPTIONAL { ?o :q ?z } BIND(?o + 1 AS ?n) FILTER(?n > 2 && ?o > 0 && EXISTS { ?s :r ?o } && RAND() < 0.5) }",
			"(project (?s ?o ?z ?n) (filter (exprlist (> ?n 2) (exists (bgp (triple ?s <http://ex/r> ?o))) (< (rand) 0.5)) (extend ((?n (+ ?o 1))) (leftjoin (filter (> ?o 0) (bgp (triple ?s <http://ex/p> ?o))) (bgp (triple ?o <http://ex/q> ?z))))))"},
		// Into GRAPH unless the filter reads the graph variable.
		{"SELECT * { GRAPH ?g { ?s :p ?o } FILTER(?o > 1 && ?g != :x) }",
			"(project (?g ?s ?o) (filter (!= ?g <http://ex/x>) (graph ?g (filter (> ?o 1) (bgp (triple ?s <http://ex/p> ?o))))))"},
		// Into a subquery on its projected variables, below its GROUP BY
		// on its keys; a condition on an aggregate stays above.
		{"SELECT * { { SELECT ?o (COUNT(*) AS ?c) { ?x :q ?o } GROUP BY ?o } FILTER(?o = :z && ?c > 2) }",
			"(project (?o ?c) (project (?o ?c) (filter (> ?c 2) (extend ((?c ?.agg1)) (group ((?o ?o)) ((?.agg1 (count))) (extend ((?o <http://ex/z>)) (bgp (triple ?x <http://ex/q> <http://ex/z>))))))))"},
		// Other conditions on keys stay above the group, evaluated per
		// group rather than per solution.
		{"SELECT * { { SELECT ?o (COUNT(*) AS ?c) { ?x :q ?o } GROUP BY ?o } FILTER(?o != :z) }",
			"(project (?o ?c) (project (?o ?c) (extend ((?c ?.agg1)) (filter (!= ?o <http://ex/z>) (group ((?o ?o)) ((?.agg1 (count))) (bgp (triple ?x <http://ex/q> ?o)))))))"},
		// Not below a LIMIT, which would then pick other solutions.
		{"SELECT * { { SELECT ?o { ?x :q ?o } ORDER BY ?o LIMIT 3 } FILTER(?o != :z) }",
			"(project (?o) (filter (!= ?o <http://ex/z>) (slice 0 3 (project (?o) (order (?o) (bgp (triple ?x <http://ex/q> ?o)))))))"},
		// Grouping on aggregates is a barrier.
		{"SELECT ?s (COUNT(*) AS ?c) { ?s :p ?o } GROUP BY ?s HAVING (COUNT(*) > 1)",
			"(project (?s ?c) (extend ((?c ?.agg1)) (filter (> ?.agg1 1) (group ((?s ?s)) ((?.agg1 (count))) (bgp (triple ?s <http://ex/p> ?o))))))"},
	}
	for _, c := range cases {
		if got := optimized(t, c.query); got != c.want {
			t.Errorf("%s\n got  %s\n want %s", c.query, got, c.want)
		}
	}
}

func TestCertainVars(t *testing.T) {
	q, err := syntax.Parse("SELECT * { { ?a <p> ?b } UNION { ?a <q> ?c } OPTIONAL { ?a <r> ?d } VALUES (?e ?f) { (1 2) (3 UNDEF) } }", syntax.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := CertainVars(algebra.Translate(q).Op)
	var names []string
	for _, v := range []string{"a", "b", "c", "d", "e", "f"} {
		if got[v] {
			names = append(names, v)
		}
	}
	if strings.Join(names, " ") != "a e" {
		t.Errorf("certain vars = %v, want a e", names)
	}
}
