package eval

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/sparql/plan"
)

// TestOrderedKeySetsAgreeWithDefinition runs MINUS and FILTER [NOT]
// EXISTS hashed on one end of a pattern `?a p ?b` (the subject or the
// object, triples in two graphs), so that the key set is the predicate's
// derived order, and expects the solutions of the definitions, the plan
// to say so, and the same answers from a second run (the order cached).
func TestOrderedKeySetsAgreeWithDefinition(t *testing.T) {
	defer func() { forceHash = 0 }()
	forceHash = 2
	for seed := range uint64(4) {
		s, ts := randomGraph(t, seed+30)
		left := []string{"?x p ?y"}
		l := refBGP(ts, left...)
		cases := []struct {
			q    string
			want []string
		}{
			{fmt.Sprintf("SELECT ?x ?y WHERE { %s MINUS { ?y :q ?z } }", sparqlPats(left...)),
				solStrings(refMinus(l, refBGP(ts, "?y q ?z")), "x", "y")},
			{fmt.Sprintf("SELECT ?x ?y WHERE { %s MINUS { ?z :q ?x } }", sparqlPats(left...)),
				solStrings(refMinus(l, refBGP(ts, "?z q ?x")), "x", "y")},
			{fmt.Sprintf("SELECT ?x ?y WHERE { %s FILTER NOT EXISTS { ?y :r ?z } }", sparqlPats(left...)),
				solStrings(refExists(ts, l, true, nil, "?y r ?z"), "x", "y")},
			{fmt.Sprintf("SELECT ?x ?y WHERE { %s FILTER NOT EXISTS { ?z :q ?y } }", sparqlPats(left...)),
				solStrings(refExists(ts, l, true, nil, "?z q ?y"), "x", "y")},
			{fmt.Sprintf("SELECT ?x ?y WHERE { %s FILTER EXISTS { ?z :p ?x } }", sparqlPats(left...)),
				solStrings(refExists(ts, l, false, nil, "?z p ?x"), "x", "y")},
		}
		// Counted: a left side of one pattern, cached and sorted on the
		// key (its object), counted by the runs of its range.
		count := func(n int) []string {
			return []string{fmt.Sprintf("\"%d\"^^<http://www.w3.org/2001/XMLSchema#integer> ", n)}
		}
		cases = append(cases, []struct {
			q    string
			want []string
		}{
			{"SELECT (COUNT(*) AS ?n) WHERE { ?x :p ?y MINUS { ?y :q ?z } }", count(len(refMinus(l, refBGP(ts, "?y q ?z"))))},
			{"SELECT (COUNT(*) AS ?n) WHERE { ?x :p ?y FILTER NOT EXISTS { ?z :r ?y } }", count(len(refExists(ts, l, true, nil, "?z r ?y")))},
			{"SELECT (COUNT(*) AS ?n) WHERE { ?x :p ?y FILTER EXISTS { ?y :p ?z } }", count(len(refExists(ts, l, false, nil, "?y p ?z")))},
		}...)
		for _, c := range cases {
			for range 2 {
				p, aq := compileQuery(t, s.View, c.q, 0)
				got := sorted(rows(t, p, aq.Vars))
				if !slices.Equal(got, c.want) {
					t.Errorf("graph %d, %s:\n got %v\nwant %v", seed, c.q, got, c.want)
				}
				if !strings.Contains(p.Explain(), "keys from the predicate's order") {
					t.Errorf("%s: keys not from the predicate's order:\n%s", c.q, p.Explain())
				}
			}
		}
	}
}

// TestOrderCountAgreesWithDefinition counts joins of two patterns on a
// shared variable at either end of each, hash-joined, and expects the
// count of the definition's solutions, counted by merging the predicates'
// orders (but where the patterns also share their other variable, which
// the merge of runs cannot check: that one is counted as before).
func TestOrderCountAgreesWithDefinition(t *testing.T) {
	for seed := range uint64(4) {
		s, ts := randomGraph(t, seed+50)
		cases := []struct {
			a, b   string
			merged bool
		}{
			{"?x p ?a", "?x q ?b", true},
			{"?a p ?x", "?x q ?b", true},
			{"?a p ?x", "?b r ?x", true},
			{"?x p ?a", "?b p ?x", true},
			{"?x q ?a", "?x q ?b", true},
			{"?x p ?a", "?x q ?a", false},
		}
		for _, c := range cases {
			q := fmt.Sprintf("SELECT (COUNT(*) AS ?n) WHERE { %s }", sparqlPats(c.a, c.b))
			want := []string{fmt.Sprintf("\"%d\"^^<http://www.w3.org/2001/XMLSchema#integer> ", len(refBGP(ts, c.a, c.b)))}
			for range 2 {
				p, aq := compileQuery(t, s.View, q, 0)
				bn := writtenOrder(p)
				bn.steps[1].Join = plan.Hash
				bn.keys = [][]int{nil, {keyPos(c.b)}}
				got := rows(t, p, aq.Vars)
				if !slices.Equal(got, want) {
					t.Errorf("graph %d, %s: got %v, want %v\n%s", seed, q, got, want, p.Explain())
				}
				if merged := strings.Contains(p.Explain(), orderMergeDetail); merged != c.merged {
					t.Errorf("%s: merged %v, want %v\n%s", q, merged, c.merged, p.Explain())
				}
			}
		}
	}
}

// keyPos is the position of ?x in a reference pattern.
func keyPos(pat string) int {
	return slices.Index(strings.Fields(pat), "?x")
}
