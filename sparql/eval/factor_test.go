package eval

import (
	"slices"
	"testing"
)

// TestUnionFactoringAgrees runs unions of patterns that share triples —
// with a branch that is only the shared part and one with a constant the
// store lacks — and expects the solutions of running each branch alone.
// The first query's shared part is selective, so it must be factored.
func TestUnionFactoringAgrees(t *testing.T) {
	s := testStore(t)
	for _, c := range []struct {
		branches []string
		factored bool
	}{
		{[]string{
			`?x :knows ?y . ?y :val 3 . ?x a :A`,
			`?x :knows ?y . ?y :val 3 . ?x a :B`,
			`?x :knows ?y . ?y :val 3 . ?y a :A . ?x :val ?v`,
			`?x :knows ?y . ?y :val 3`,
			`?x :knows ?y . ?y :val 3 . ?x a :Missing`,
		}, true},
		{[]string{
			`?x a :A . ?x :val ?v`,
			`?x a :B . ?x :val ?v`,
			`?x :knows ?y . ?y a :B`,
		}, false},
	} {
		var want []string
		for _, b := range c.branches {
			want = append(want, run(t, s.View, `SELECT ?x ?y ?v WHERE { `+b+` }`, 0)...)
		}
		q := `SELECT ?x ?y ?v WHERE { {` + c.branches[0] + `}`
		for _, b := range c.branches[1:] {
			q += ` UNION {` + b + `}`
		}
		q += ` }`
		p, aq := compileQuery(t, s.View, q, 0)
		got := rows(t, p, aq.Vars)
		if !slices.Equal(sorted(got), sorted(want)) {
			t.Errorf("%s:\n got %d rows %v\nwant %d rows %v", q, len(got), sorted(got), len(want), sorted(want))
		}
		if c.factored && len(p.bgps) == len(c.branches) {
			t.Errorf("%s: not factored", q)
		}
	}
}
