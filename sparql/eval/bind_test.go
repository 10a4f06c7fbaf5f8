package eval

import (
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/sparql/plan"
)

// bindOnly makes every step of every basic graph pattern of p after the
// first an index nested-loop join.
func bindOnly(p *Plan) {
	for _, bn := range p.bgps {
		for i := 1; i < len(bn.steps); i++ {
			bn.steps[i].Join = plan.Bind
			bn.stats[i].Detail = plan.Bind.String()
		}
	}
}

// TestBindBatches runs bind joins whose input rows are looked up in
// sorted batches, with the second half of each batch on a helper
// goroutine (also one that stops at its cap and leaves the rest to the
// step), and expects the solutions of hash joins; a LIMIT closes the
// steps while a helper may still run.
func TestBindBatches(t *testing.T) {
	s := testStore(t)
	const q = `SELECT ?x ?y ?v ?w WHERE { ?x :knows ?y . ?y :val ?v . ?x :val ?w . ?y a :A }`
	p, aq := compileQuery(t, s.View, q, 0)
	for _, bn := range p.bgps {
		for i := 1; i < len(bn.steps); i++ {
			bn.steps[i].Join = plan.Hash
			bn.stats[i].Detail = plan.Hash.String()
		}
	}
	want := sorted(rows(t, p, aq.Vars))
	if len(want) != 150 {
		t.Fatalf("hash joins: %d rows, want 150", len(want))
	}
	defer func(m, c int) { helpMin, helpCap = m, c }(helpMin, helpCap)
	for _, tc := range []struct{ min, cap int }{{1 << 30, 1 << 30}, {2, 1 << 30}, {2, 3}} {
		helpMin, helpCap = tc.min, tc.cap
		p, aq := compileQuery(t, s.View, q, 0)
		bindOnly(p)
		if got := sorted(rows(t, p, aq.Vars)); !slices.Equal(got, want) {
			t.Errorf("helper from %d rows, cap %d: %d rows, want %d", tc.min, tc.cap, len(got), len(want))
		}
		if ex := p.Explain(); strings.Contains(ex, "hash") {
			t.Errorf("not all bind joins:\n%s", ex)
		}
		p, aq = compileQuery(t, s.View, q+" LIMIT 7", 0)
		bindOnly(p)
		if got := rows(t, p, aq.Vars); len(got) != 7 {
			t.Errorf("LIMIT 7: %d rows", len(got))
		}
	}
}

// BenchmarkBindJoin runs a pipeline of bind joins over 300 input rows,
// looked up in sorted batches by this goroutine alone and with a helper
// (the plan compiled once, its scans reused across runs).
func BenchmarkBindJoin(b *testing.B) {
	s := testStore(b)
	const q = `SELECT ?x ?y ?v ?w WHERE { ?x :knows ?y . ?y :val ?v . ?x :val ?w . ?y a :A }`
	defer func(m int) { helpMin = m }(helpMin)
	for _, bc := range []struct {
		name string
		min  int
	}{{"alone", 1 << 30}, {"helper", 2}} {
		b.Run(bc.name, func(b *testing.B) {
			helpMin = bc.min
			p, aq := compileQuery(b, s.View, q, 0)
			bindOnly(p)
			for b.Loop() {
				if n := len(rows(b, p, aq.Vars)); n != 150 {
					b.Fatalf("%d rows", n)
				}
			}
		})
	}
}
