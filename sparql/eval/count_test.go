package eval

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/sparql/plan"
)

// countOf runs a query whose one row binds ?n to a count and returns it.
func countOf(t *testing.T, got []string, q string) int {
	t.Helper()
	if len(got) != 1 {
		t.Fatalf("%s: %d rows, want 1", q, len(got))
	}
	s := strings.TrimSpace(got[0])
	s = strings.TrimPrefix(s, `"`)
	s, _, _ = strings.Cut(s, `"`)
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s: count %q", q, got[0])
	}
	return n
}

// TestCountsAgreeWithDefinition: a COUNT(*) (or COUNT of a variable
// bound in every solution) over a pattern is answered without making
// its rows — from the predicate statistics, by counting cached index
// ranges, by counting the matches of a join's last step per input row,
// of a path's predicates, or the rows an anti-join keeps. Each count
// must equal the number of solutions: by the reference evaluator for
// basic graph patterns, MINUS and NOT EXISTS, and otherwise the rows of
// the same pattern enumerated. Patterns run in the union default graph
// (triples in both named graphs count once), in one graph (GRAPH, and
// FROM) and in a merge of two (FROM twice).
func TestCountsAgreeWithDefinition(t *testing.T) {
	defer func() { forceHash = 0 }()
	type tc struct {
		body string
		want func(ts []rtriple) int // nil: the enumerated rows
	}
	bgp := func(pats ...string) tc {
		return tc{sparqlPats(pats...), func(ts []rtriple) int { return len(refBGP(ts, pats...)) }}
	}
	cases := []tc{
		bgp("?a p ?b"),
		bgp("?a p n3"),
		bgp("n1 q ?b"),
		bgp("?a ?x ?b"),
		bgp("?a ?x n2"),
		bgp("?a p ?a"),
		bgp("?a zz ?b"),
		bgp("?a p ?b", "?b q ?c"),
		bgp("?a p ?b", "?b ?x ?c"),
		bgp("?a r ?b", "?b p ?a"),
		bgp("?a p ?b", "?b q ?b"),
		{"?a :p ?b MINUS { ?b :q ?c }", func(ts []rtriple) int {
			return len(refMinus(refBGP(ts, "?a p ?b"), refBGP(ts, "?b q ?c")))
		}},
		{":x :p ?b", nil},
		{"?a :p ?b FILTER NOT EXISTS { ?b :q ?c }", func(ts []rtriple) int {
			return len(refExists(ts, refBGP(ts, "?a p ?b"), true, nil, "?b q ?c"))
		}},
		{"?a :p ?b FILTER EXISTS { ?a :r ?c }", func(ts []rtriple) int {
			return len(refExists(ts, refBGP(ts, "?a p ?b"), false, nil, "?a r ?c"))
		}},
		{"?a :p ?b . ?b :q ?c FILTER NOT EXISTS { ?c :r ?d }", func(ts []rtriple) int {
			return len(refExists(ts, refBGP(ts, "?a p ?b", "?b q ?c"), true, nil, "?c r ?d"))
		}},
		{"?a (:p|^:q) ?b", nil},
		{"?a (:p|:q|:r) ?b", nil},
		{"?a (:p|:q) ?a", nil},
		{":n1 (:p|:q) ?b", nil},
		{"?a (:p|:zz) :n2", nil},
		{"?a :p+ ?b", nil},
		{"?a (:p|:r)/:q ?b", nil},
		{"?a :r ?b . ?b (:p|^:q) ?c", nil},
	}
	for seed := range uint64(3) {
		s, ts := randomGraph(t, seed+30)
		for i, c := range cases {
			for _, scope := range []struct{ pre, open, close string }{
				{"", "", ""}, {"", "GRAPH :g0 {", "}"}, {"FROM :g1", "", ""}, {"FROM :g0 FROM :g1", "", ""},
			} {
				forces := []int{0}
				if strings.Contains(c.body, "MINUS") || strings.Contains(c.body, "EXISTS") {
					forces = []int{1, 2}
				}
				for _, force := range forces {
					forceHash = force
					body := scope.open + c.body + scope.close
					all := run(t, s.View, fmt.Sprintf("SELECT * %s WHERE { %s }", scope.pre, body), 0)
					want := len(all)
					if c.want != nil && scope.open == "" && scope.pre == "" {
						if ref := c.want(ts); ref != want {
							t.Fatalf("graph %d case %d: %d rows enumerated, the definition gives %d", seed, i, want, ref)
						}
					}
					for _, agg := range []string{"COUNT(*)", "COUNT(?b)"} {
						if agg == "COUNT(?b)" && !strings.Contains(c.body, "?b") {
							continue
						}
						q := fmt.Sprintf("SELECT (%s AS ?n) %s WHERE { %s }", agg, scope.pre, body)
						if got := countOf(t, run(t, s.View, q, 0), q); got != want {
							t.Errorf("graph %d case %d (%d): %s = %d, want %d", seed, i, force, q, got, want)
						}
					}
				}
			}
		}
	}
}

// TestHashJoinCounts: a COUNT over a basic graph pattern whose steps are
// hash joins counts each input row's matching candidates without making
// rows; the count must equal the rows the same hash joins enumerate, and
// the rows of bind joins: joins on a subject, on an object, through a
// type, and a variable twice in one pattern.
func TestHashJoinCounts(t *testing.T) {
	s := testStore(t)
	hashAll := func(p *Plan) {
		for _, bn := range p.bgps {
			for i := 1; i < len(bn.steps); i++ {
				bn.steps[i].Join = plan.Hash
				bn.stats[i].Detail = plan.Hash.String()
			}
		}
	}
	for _, body := range []string{
		"?x :knows ?y . ?y :val ?v",
		"?x :val ?v . ?y :val ?v",
		"?x a :A . ?x :knows ?y . ?y a :B",
		"?x :knows ?y . ?y :knows ?x",
		"?x :val ?v . ?x :knows ?x",
	} {
		p, aq := compileQuery(t, s.View, "SELECT * WHERE { "+body+" }", 0)
		bindOnly(p)
		want := len(rows(t, p, aq.Vars))
		p, aq = compileQuery(t, s.View, "SELECT * WHERE { "+body+" }", 0)
		hashAll(p)
		if got := len(rows(t, p, aq.Vars)); got != want {
			t.Fatalf("%s: hash joins give %d rows, bind joins %d", body, got, want)
		}
		q := "SELECT (COUNT(*) AS ?n) WHERE { " + body + " }"
		p, aq = compileQuery(t, s.View, q, 0)
		hashAll(p)
		if got := countOf(t, rows(t, p, aq.Vars), q); got != want {
			t.Errorf("%s = %d, want %d\n%s", q, got, want, p.Explain())
		}
	}
}
