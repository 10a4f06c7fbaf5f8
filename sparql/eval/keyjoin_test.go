package eval

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestKeySeedJoinAgrees: a grouped subquery joined on its group keys and
// evaluated per row for the row's keys (keySeedJoinNode) gives the
// solutions of the hash join of the whole subquery — with HAVING, with
// an inner variable named as an outer one it does not project, with
// left rows that leave the key unbound (OPTIONAL), with two keys — and
// the subquery's groups are counted as the reference evaluator counts.
func TestKeySeedJoinAgrees(t *testing.T) {
	defer func() { noKeySeed = false }()
	sub := func(keys, body string) string {
		return fmt.Sprintf("{ SELECT %s (COUNT(*) AS ?n) WHERE { %s } GROUP BY %s }", keys, body, keys)
	}
	queries := []string{
		"SELECT ?y ?n WHERE { :n1 :p ?y " + sub("?y", "?y :q ?z") + " }",
		"SELECT ?x ?y ?n WHERE { ?x :p ?y . ?x :r :n2 " + sub("?y", "?y :q ?x") + " }",
		"SELECT ?y ?n WHERE { :n2 :r ?y { SELECT ?y (COUNT(?z) AS ?n) WHERE { ?y :q ?z } GROUP BY ?y HAVING(COUNT(?z) > 1) } }",
		"SELECT ?x ?y ?n WHERE { ?x :p :n3 OPTIONAL { ?x :r ?y } " + sub("?y", "?y :q ?z") + " }",
		"SELECT ?y ?z ?n WHERE { :n1 :p ?y . ?y :r ?z " + sub("?y ?z", "?y :q ?w . ?w :p ?z") + " }",
		"SELECT ?z ?n WHERE { :n0 :p ?z " + sub("?z", "?y :q ?w OPTIONAL { ?w :r ?z }") + " }",
	}
	seeded := 0
	for seed := range uint64(3) {
		s, ts := randomGraph(t, seed+50)
		for i, q := range queries {
			noKeySeed = true
			want := sorted(run(t, s.View, q, 0))
			noKeySeed = false
			p, aq := compileQuery(t, s.View, q, 0)
			got := sorted(rows(t, p, aq.Vars))
			if strings.Contains(p.Explain(), "bind on group keys") {
				seeded++
			}
			if !slices.Equal(got, want) {
				t.Errorf("graph %d query %d %s:\n seeded %q\n hashed %q", seed, i, q, got, want)
			}
		}
		// The first query by definition: ?y's count of :q triples, for
		// each ?y with :n1 :p ?y.
		var want []string
		for _, y := range refBGP(ts, "n1 p ?y") {
			if n := len(refBGP(ts, y["y"]+" q ?z")); n > 0 {
				want = append(want, fmt.Sprintf("<%s%s> %d", ex, y["y"], n))
			}
		}
		var got []string
		for _, r := range run(t, s.View, queries[0], 0) {
			f := strings.Fields(r)
			n, _, _ := strings.Cut(strings.TrimPrefix(f[1], `"`), `"`)
			got = append(got, f[0]+" "+n)
		}
		if !slices.Equal(sorted(got), sorted(want)) {
			t.Errorf("graph %d: %q, definition %q", seed, sorted(got), sorted(want))
		}
	}
	if seeded == 0 {
		t.Fatal("no query ran the key-seeded join")
	}
}
