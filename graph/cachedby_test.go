package graph

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// TestCachedByIsTheRangeBySubject reads a predicate's range (p-o-s order)
// whole, then expects CachedBy(subject) to hold exactly its quads sorted
// by subject, then object, then graph — the p-s-o order, checked against
// a sort of the quads the scan returned — and, after a write to the
// predicate, the new state and not the cached one.
func TestCachedByIsTheRangeBySubject(t *testing.T) {
	s := openTest(t, defaultHash)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	add := func(n int) {
		b := s.NewBatch()
		for range n {
			b.Add(rdf.Quad{S: rdf.IRI(fmt.Sprint("http://e.org/s", rng.IntN(300))), P: rdf.IRI("http://e.org/p"),
				O: rdf.IRI(fmt.Sprint("http://e.org/o", rng.IntN(9))), G: rdf.IRI(fmt.Sprint("http://e.org/g", rng.IntN(3)))})
		}
		if _, err := b.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	add(2000)
	p, ok, err := s.View.Lookup(rdf.IRI("http://e.org/p"))
	if err != nil || !ok {
		t.Fatalf("lookup: %v", err)
	}
	pat := Pattern{S: Any, P: p, O: Any, G: Any}
	check := func(round int) {
		t.Helper()
		it, err := s.View.Scan(ctx, pat, ScanOptions{Order: POSG})
		if err != nil {
			t.Fatal(err)
		}
		var want []IDQuad
		for it.Next() {
			want = append(want, it.Quad())
		}
		_ = it.Close()
		slices.SortFunc(want, func(a, b IDQuad) int {
			return cmp.Or(cmp.Compare(a.S, b.S), cmp.Compare(a.O, b.O), cmp.Compare(a.G, b.G))
		})
		for range 2 { // made, then found in the cache
			it, err := s.View.Scan(ctx, pat, ScanOptions{Order: POSG})
			if err != nil {
				t.Fatal(err)
			}
			cr, ok := it.CachedBy(0)
			_ = it.Close()
			if !ok || cr.Len() != len(want) {
				t.Fatalf("round %d: CachedBy %v with %d keys, want %d", round, ok, cr.Len(), len(want))
			}
			if first, _ := cr.FirstFree(); first != 0 {
				t.Fatalf("first free position %d, want the subject", first)
			}
			for i, q := range want {
				if got := (IDQuad{S: cr.At(i, 0), P: cr.At(i, 1), O: cr.At(i, 2), G: cr.At(i, 3)}); got != q {
					t.Fatalf("round %d: key %d: %v, want %v", round, i, got, q)
				}
			}
			if !cr.Indexed() {
				t.Error("the sorted range has no directory")
			}
			for i, q := range want {
				for _, v := range []ID{q.S, q.S + 1, q.S - 1} {
					first, _ := slices.BinarySearchFunc(want, v, func(q IDQuad, v ID) int { return cmp.Compare(q.S, v) })
					if j := cr.SearchFirst(0, v); j != first {
						t.Fatalf("key %d: SearchFirst(%d) = %d, want %d", i, v, j, first)
					}
				}
			}
		}
	}
	check(0)
	add(50)
	check(1)

	it, err := s.View.Scan(ctx, Pattern{S: Any, P: p, O: Any, G: Any}, ScanOptions{Order: POSG})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if _, ok := it.CachedBy(1); ok {
		t.Error("CachedBy of a bound position")
	}
}

// TestSortColumnStable sorts on one column and keeps the order of equal
// keys, on keys bunched in few buckets and spread over many.
func TestSortColumnStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, spread := range []uint64{3, 1 << 62} {
		keys := make([]cols, 5000)
		for i := range keys {
			keys[i] = cols{7, rng.Uint64N(spread), uint64(i), 0}
		}
		want := slices.Clone(keys)
		slices.SortStableFunc(want, func(a, b cols) int { return cmp.Compare(a[1], b[1]) })
		sortColumnStable(keys, 1)
		if !slices.Equal(keys, want) {
			t.Errorf("spread %d: not the stable sort", spread)
		}
	}
}
