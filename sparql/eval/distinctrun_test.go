package eval

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// TestDistinctRunsAgree checks the distinct values read from the runs of
// a cached range against the values the data holds (testStore): in the
// union of the graphs (a fifth of the :val triples are in both graphs),
// in one graph, counted by COUNT(*) over the DISTINCT, and on the
// subject (the range's second free column: the hash set). The first run
// of each query caches the range, if an earlier one did not; the second
// reads runs.
func TestDistinctRunsAgree(t *testing.T) {
	s := testStore(t)
	g0, ok, err := s.View.Lookup(rdf.IRI(ex + "g0"))
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	integer := func(n int) string {
		return fmt.Sprintf("\"%d\"^^<http://www.w3.org/2001/XMLSchema#integer> ", n)
	}
	// values of ?x :val i%7 and ?x :knows x(i*7%300), in the union or in
	// g0 (the even i).
	var vals, knownG0, known, xs []string
	for i := range 300 {
		if i < 7 {
			vals = append(vals, integer(i))
		}
		o := fmt.Sprintf("<%sx%d> ", ex, i*7%300)
		known = append(known, o)
		if i%2 == 0 {
			knownG0 = append(knownG0, o)
		}
		xs = append(xs, fmt.Sprintf("<%sx%d> ", ex, i))
	}
	for _, c := range []struct {
		q     string
		data  Dataset
		want  []string
		byRun bool
	}{
		{`SELECT DISTINCT ?v WHERE { ?x :val ?v }`, union, vals, true},
		{`SELECT DISTINCT ?o WHERE { ?x :knows ?o }`, union, known, true},
		{`SELECT DISTINCT ?o WHERE { ?x :knows ?o }`, Dataset{Default: []ID{g0}}, knownG0, true},
		{`SELECT (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?v WHERE { ?x :val ?v } }`, union, []string{integer(7)}, true},
		{`SELECT (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?o WHERE { ?x :knows ?o } }`, Dataset{Default: []ID{g0}}, []string{integer(len(knownG0))}, true},
		{`SELECT DISTINCT ?x WHERE { ?x :val ?v }`, union, xs, false},
	} {
		want := slices.Sorted(slices.Values(c.want))
		for round := range 2 {
			p, aq := compileIn(t, s.View, c.q, 0, c.data)
			got := rows(t, p, aq.Vars)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("round %d: %s\ngot  %q\nwant %q", round, c.q, got, want)
			}
			runs := strings.Contains(p.Explain(), distinctRunsDetail)
			if round == 1 && runs != c.byRun {
				t.Errorf("%s: read by runs %v, want %v\n%s", c.q, runs, c.byRun, p.Explain())
			}
		}
	}
}
