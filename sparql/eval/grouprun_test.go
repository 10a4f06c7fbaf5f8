package eval

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

var union = Dataset{UnionDefault: true, AllNamed: true}

// TestGroupRunsAgree checks groups counted from the runs of a cached
// range against the counts the data implies: in the union of the graphs
// (where a fifth of the :val triples are in both graphs and count once),
// in one graph, with HAVING, with COUNT(*) and COUNT of either variable,
// and grouped on the subject (the range's second free column: hash
// aggregation). The first run of each query caches the range, if an
// earlier one did not; the second counts runs.
func TestGroupRunsAgree(t *testing.T) {
	s := testStore(t)
	// ?x :val i%7 for i < 300; resources with i%2 == 0 are in g0.
	want := func(graph string, min int) []string {
		var out []string
		for v := range 7 {
			n := 0
			for i := range 300 {
				if i%7 == v && (graph == "" || i%2 == 0 || i%5 == 0) {
					n++
				}
			}
			if n > min {
				out = append(out, fmt.Sprintf("\"%d\"^^<http://www.w3.org/2001/XMLSchema#integer> \"%d\"^^<http://www.w3.org/2001/XMLSchema#integer> ", v, n))
			}
		}
		return out
	}
	g0, ok, err := s.View.Lookup(rdf.IRI(ex + "g0"))
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	for _, c := range []struct {
		q    string
		data Dataset
		want []string
	}{
		{`SELECT ?v (COUNT(?x) AS ?n) WHERE { ?x :val ?v } GROUP BY ?v ORDER BY ?v`, union, want("", -1)},
		{`SELECT ?v (COUNT(*) AS ?n) WHERE { ?x :val ?v } GROUP BY ?v ORDER BY ?v`, union, want("", -1)},
		{`SELECT ?v (COUNT(?v) AS ?n) WHERE { ?x :val ?v } GROUP BY ?v HAVING (COUNT(?v) > 42) ORDER BY ?v`, union, want("", 42)},
		{`SELECT ?v (COUNT(?x) AS ?n) WHERE { ?x :val ?v } GROUP BY ?v ORDER BY ?v`, Dataset{Default: []ID{g0}}, want("g0", -1)},
	} {
		for round := range 2 {
			p, aq := compileIn(t, s.View, c.q, 0, c.data)
			if got := rows(t, p, aq.Vars); !slices.Equal(got, c.want) {
				t.Errorf("round %d: %s\ngot  %q\nwant %q", round, c.q, got, c.want)
			}
			if runs := strings.Contains(p.Explain(), runsDetail); round == 1 && !runs {
				t.Errorf("%s: not counted in runs\n%s", c.q, p.Explain())
			}
		}
	}
	// Grouped on the subject, the range (POSG) is not sorted on the key.
	q := `SELECT ?x (COUNT(?v) AS ?n) WHERE { ?x :val ?v } GROUP BY ?x HAVING (COUNT(?v) > 1)`
	for range 2 {
		p, aq := compileQuery(t, s.View, q, 0)
		if got := rows(t, p, aq.Vars); len(got) != 0 {
			t.Errorf("%s: %d groups, want none (a value is held by several graphs, not twice)", q, len(got))
		}
		if strings.Contains(p.Explain(), runsDetail) {
			t.Errorf("%s counted in runs", q)
		}
	}
}
