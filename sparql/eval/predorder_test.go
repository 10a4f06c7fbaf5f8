package eval

import (
	"fmt"
	"slices"
	"strings"
	"testing"
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
