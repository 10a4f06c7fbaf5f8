package eval

import "testing"

// TestIdleScansBounded opens a pattern in a new graph selection per input
// row (EXISTS { GRAPH <g> { … } } per solution): the scans kept for reuse
// stay within their bound while the query runs and are all closed when it
// ends, and the answer is that of the same join without EXISTS.
func TestIdleScansBounded(t *testing.T) {
	s := testStore(t)
	want := run(t, s.View, `SELECT DISTINCT ?x WHERE { ?x a :A . GRAPH :g0 { ?x :val ?v } }`, 0)
	p, _ := compileQuery(t, s.View, `SELECT ?x WHERE { ?x a :A . FILTER EXISTS { GRAPH :g0 { ?x :val ?v } } }`, 0)
	r, err := p.Open()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		row, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if row == nil {
			break
		}
		n++
		if p.ex.idleN > maxIdleScans {
			t.Fatalf("%d idle scans after %d rows, bound %d", p.ex.idleN, n, maxIdleScans)
		}
	}
	if n != len(want) || n == 0 {
		t.Fatalf("%d rows, want %d", n, len(want))
	}
	r.Close()
	if p.ex.idleN != 0 || len(p.ex.idle) != 0 {
		t.Fatalf("%d idle scans left open after Close", p.ex.idleN)
	}
}
