package graph

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// TestCountAgreesWithModel: Count on a fresh scan (cold, then warm from
// the posting cache, then re-aimed with Reset) equals the number of
// quads — triples, for a union scan — of the model matching the pattern,
// for every shape of pattern; PredicateStats agrees with the model too.
func TestCountAgreesWithModel(t *testing.T) {
	s := openTest(t, defaultHash)
	r := rand.New(rand.NewPCG(7, 8))
	m := model{}
	b := s.NewBatch()
	for range 400 {
		q := randomQuad(r)
		b.Add(q)
		m[q] = true
	}
	ctx := context.Background()
	if _, err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	id := func(term rdf.Term) ID {
		v, ok, err := s.Lookup(term)
		if err != nil || !ok {
			t.Fatalf("lookup %v: %v %v", term, ok, err)
		}
		return v
	}
	var quads []rdf.Quad
	for q := range m {
		quads = append(quads, q)
	}
	want := func(pat rdf.Quad, mask int, union bool) int64 {
		seen := map[rdf.Triple]bool{}
		var n int64
		for q := range m {
			terms, pt := [4]rdf.Term{q.S, q.P, q.O, q.G}, [4]rdf.Term{pat.S, pat.P, pat.O, pat.G}
			ok := true
			for pos := range 4 {
				if mask&(1<<pos) != 0 && terms[pos] != pt[pos] {
					ok = false
				}
			}
			if !ok || union && seen[q.Triple()] {
				continue
			}
			seen[q.Triple()] = true
			n++
		}
		return n
	}
	for mask := range 16 {
		for _, union := range []bool{false, true} {
			if union && mask&8 != 0 {
				continue
			}
			for _, q := range quads[:25] {
				var pat Pattern
				for pos, term := range [4]rdf.Term{q.S, q.P, q.O, q.G} {
					if mask&(1<<pos) != 0 {
						(*IDQuad)(&pat).set(pos, id(term))
					}
				}
				w := want(q, mask, union)
				for pass := range 2 { // cold, then warm
					it, err := s.Scan(ctx, pat, ScanOptions{Union: union})
					if err != nil {
						t.Fatal(err)
					}
					n, err := it.Count()
					if err != nil {
						t.Fatal(err)
					}
					if n != w {
						t.Fatalf("mask %b union %v pass %d: Count of %v = %d, want %d", mask, union, pass, pat, n, w)
					}
					if it.Next() {
						t.Fatalf("mask %b union %v: scan goes on after Count", mask, union)
					}
					// Re-aimed at the same pattern, it counts again.
					if err := it.Reset(pat); err != nil {
						t.Fatal(err)
					}
					if n, err = it.Count(); err != nil || n != w {
						t.Fatalf("mask %b union %v: Count after Reset = %d (%v), want %d", mask, union, n, err, w)
					}
					_ = it.Close()
				}
			}
		}
	}
	_, _, preds, _ := m.stats()
	for p, c := range preds {
		ps, err := s.PredicateStats(id(p))
		if err != nil {
			t.Fatal(err)
		}
		if ps.Quads != uint64(c[0]) || ps.Triples != uint64(c[1]) {
			t.Fatalf("PredicateStats(%v) = %+v, model quads %d triples %d", p, ps, c[0], c[1])
		}
	}
}
