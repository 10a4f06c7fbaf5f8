package eval

import (
	"slices"
	"strings"
	"testing"
)

// TestObjectSetAgrees runs unions of branches that, their shared triples
// factored out, are one triple differing in the object constant — with a constant twice, one the store lacks, inside GRAPH —
// and expects the solutions of running each branch alone (a repeated
// branch twice).
// With the subject bound the union must run as one scan; without, as
// the branches.
func TestObjectSetAgrees(t *testing.T) {
	s := testStore(t)
	for _, c := range []struct {
		vars, outer string // SELECT variables; outer wraps the group, %s for it
		lead        string // triples every branch has (factored out)
		objects     []string
		merged      bool
	}{
		{"?x ?y", "%s", "?x :knows ?y . ?x :val 3 .", []string{":A", ":B", ":A", ":Missing"}, true},
		{"?x ?y ?g", "GRAPH ?g { %s }", "?x :knows ?y . ?x :val 3 .", []string{":A", ":B", ":Missing"}, true},
		{"?y", "%s", "", []string{":A", ":B", ":Missing"}, false},
	} {
		var want []string
		for _, o := range c.objects {
			src := `SELECT ` + c.vars + ` WHERE { ` + strings.Replace(c.outer, "%s", c.lead+` ?y a `+o, 1) + ` }`
			want = append(want, run(t, s.View, src, 0)...)
		}
		var union []string
		for _, o := range c.objects {
			union = append(union, `{ `+c.lead+` ?y a `+o+` }`)
		}
		group := strings.Join(union, ` UNION `)
		q := `SELECT ` + c.vars + ` WHERE { ` + strings.Replace(c.outer, "%s", group, 1) + ` }`
		p, aq := compileQuery(t, s.View, q, 0)
		got := rows(t, p, aq.Vars)
		if len(want) == 0 || !slices.Equal(sorted(got), sorted(want)) {
			t.Errorf("%s:\n got %d rows %v\nwant %d rows %v", q, len(got), sorted(got), len(want), sorted(want))
		}
		if merged := strings.Contains(p.Explain(), "?.in"); merged != c.merged {
			t.Errorf("%s: merged into one scan = %v, want %v:\n%s", q, merged, c.merged, p.Explain())
		}
	}
}
