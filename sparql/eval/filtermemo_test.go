package eval

import (
	"fmt"
	"slices"
	"testing"
)

// TestFilterMemoAgreesWithDefinition filters on one variable whose
// values repeat (remembered per ID), on two variables and with RAND
// (evaluated per row), and compares with the rows the definition keeps:
// x_i has :val i mod 7 (testStore).
func TestFilterMemoAgreesWithDefinition(t *testing.T) {
	s := testStore(t)
	want := func(keep func(i, v int) bool) []string {
		var out []string
		for i := range 300 {
			if keep(i, i%7) {
				out = append(out, fmt.Sprintf("<%sx%d> ", ex, i))
			}
		}
		return sorted(out)
	}
	for q, keep := range map[string]func(i, v int) bool{
		`SELECT ?x WHERE { ?x :val ?v FILTER(?v > 3) }`:                               func(_, v int) bool { return v > 3 },
		`SELECT ?x WHERE { ?x :val ?v FILTER(xsd:string(?v) IN ("1", "5")) }`:         func(_, v int) bool { return v == 1 || v == 5 },
		`SELECT ?x WHERE { ?x :val ?v FILTER(?v > 3) FILTER(STRENDS(STR(?x), "1")) }`: func(i, v int) bool { return v > 3 && i%10 == 1 },
		`SELECT ?x WHERE { ?x :val ?v FILTER(?v > 3 && RAND() < 2) }`:                 func(_, v int) bool { return v > 3 },
		`SELECT ?x WHERE { ?x :val ?v ; :knows ?y FILTER(?v < 2 || ?y = :x7) }`:       func(i, v int) bool { return v < 2 || i*7%300 == 7 },
	} {
		q = "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n" + q
		p, aq := compileQuery(t, s.View, q, 0)
		got := sorted(rows(t, p, aq.Vars))
		if w := want(keep); !slices.Equal(got, w) {
			t.Errorf("%s:\n got %d %v\nwant %d %v", q, len(got), got, len(w), w)
		}
	}
	// A random filter is not remembered: about half of the rows pass
	// RAND() < 0.5, not all or none of those of one value.
	got := run(t, s.View, `SELECT ?x WHERE { ?x :val ?v FILTER(?v = 3 && RAND() < 0.5) }`, 0)
	if n := len(got); n == 0 || n == 43 {
		t.Errorf("RAND remembered per value: %d of 43 rows kept", n)
	}
}
