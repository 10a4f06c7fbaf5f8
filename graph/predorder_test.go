package graph

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// TestPredicateOrderAsDefined checks a predicate's derived orders against
// their definition (its triples in the union of all graphs, each once,
// sorted on subject or object and then the other end, read by a plain
// union scan), before and after a commit changes the predicate, and
// Run against a linear count for keys present and absent, searched in
// increasing order and out of order.
func TestPredicateOrderAsDefined(t *testing.T) {
	s := openTest(t, defaultHash)
	ctx := context.Background()
	iri := func(f string, a ...any) rdf.Term { return rdf.IRI(fmt.Sprintf("http://e.org/"+f, a...)) }
	add := func(from, to int) {
		b := s.NewBatch()
		for i := from; i < to; i++ {
			for g := range 1 + i%3 { // the same triple in up to three graphs
				b.Add(rdf.Quad{S: iri("s%d", i%23), P: iri("p"), O: iri("o%d", i%11), G: iri("g%d", g)})
			}
			b.Add(rdf.Quad{S: iri("s%d", i), P: iri("q"), O: iri("o%d", i), G: iri("g0")})
		}
		if _, err := b.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	p := func() ID {
		id, ok, err := s.View.Lookup(iri("p"))
		if err != nil || !ok {
			t.Fatalf("lookup: %v", err)
		}
		return id
	}
	check := func(stage string) {
		var want [2][][2]ID // by subject, by object
		it, err := s.View.Scan(ctx, Pattern{P: p()}, ScanOptions{Union: true})
		if err != nil {
			t.Fatal(err)
		}
		for it.Next() {
			q := it.Quad()
			want[0] = append(want[0], [2]ID{q.S, q.O})
			want[1] = append(want[1], [2]ID{q.O, q.S})
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		for side, bySubject := range []bool{true, false} {
			w := want[side]
			slices.SortFunc(w, func(a, b [2]ID) int { return slices.Compare(a[:], b[:]) })
			if _, ok, err := s.View.PredicateOrder(ctx, p(), bySubject, false); ok || err != nil {
				t.Fatalf("%s: an order not built yet found: %v", stage, err)
			}
			// Twice: built, then from the cache (and found without build).
			for try := range 2 {
				o, ok, err := s.View.PredicateOrder(ctx, p(), bySubject, try == 0)
				if err != nil || !ok {
					t.Fatalf("%s: order: %v %v", stage, ok, err)
				}
				var got [][2]ID
				for i := range o.Len() {
					got = append(got, [2]ID{o.Key[i], o.Val[i]})
				}
				if !slices.Equal(got, w) {
					t.Fatalf("%s, by subject %v: got %v, want %v", stage, bySubject, got, w)
				}
				keys := []ID{0, ^ID(0)}
				for _, kv := range w {
					keys = append(keys, kv[0], kv[0]+1)
				}
				from := 0
				for i, k := range keys {
					if i%5 == 4 {
						from = 0
					}
					wlo := slices.IndexFunc(w, func(kv [2]ID) bool { return kv[0] >= k })
					if wlo < 0 {
						wlo = len(w)
					}
					whi := wlo
					for whi < len(w) && w[whi][0] == k {
						whi++
					}
					lo, hi := o.Run(k, from)
					if lo != wlo || hi != whi {
						t.Fatalf("%s: run of %d from %d: [%d,%d), want [%d,%d)", stage, k, from, lo, hi, wlo, whi)
					}
					from = lo
				}
			}
		}
	}
	add(0, 40)
	check("first commit")
	add(40, 90)
	check("second commit")
}
