package graph

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/mneme-archive/mneme/graph/kv/pebblekv"
	"github.com/mneme-archive/mneme/rdf"
)

// TestTermsDecodeAgreesWithTerm decodes batches with repeats, reserved
// IDs and a mix of cached and uncached IDs, through a store with the term
// cache, one without, and a snapshot sharing the cache; every path must
// give what Term gives.
func TestTermsDecodeAgreesWithTerm(t *testing.T) {
	ctx := context.Background()
	for _, budget := range []int64{0, -1, 4 << 10} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			dir := t.TempDir()
			db, err := pebblekv.Open(dir, pebblekv.Options{CacheBytes: 8 << 20})
			if err != nil {
				t.Fatal(err)
			}
			s, err := newStore(db, dir, defaultHash, OpenOptions{TermCacheBytes: budget})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			b := s.NewBatch()
			var terms []rdf.Term
			for i := range 300 {
				o := rdf.LangLiteral(fmt.Sprint("v", i), "en")
				if i%3 == 0 {
					o = rdf.Literal(fmt.Sprint(i), rdf.XSDInteger)
				}
				terms = append(terms, o)
				b.Add(rdf.Quad{S: rdf.IRI(fmt.Sprint("http://e.org/s", i%7)), P: rdf.IRI("http://e.org/p"), O: o})
			}
			if _, err := b.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			ids, err := s.LookupTerms(terms)
			if err != nil {
				t.Fatal(err)
			}
			// Warm part of the cache with single lookups.
			for _, id := range ids[:50] {
				if _, err := s.Term(id); err != nil {
					t.Fatal(err)
				}
			}
			batch := append(slices.Clone(ids), ids[10], ids[200], Any, DefaultGraph, ids[200])
			want := append(slices.Clone(terms), terms[10], terms[200], rdf.Term{}, rdf.Term{}, terms[200])
			snap := s.Snapshot()
			defer snap.Close()
			for _, v := range []*View{s.View, snap, s.View} {
				got, err := v.Terms(ctx, batch, make([]rdf.Term, 3))
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("Terms gave %v, want %v", got, want)
				}
				for i, id := range batch {
					if id == Any {
						continue // not a term: Term refuses it
					}
					got, err := v.Term(id)
					if err != nil || got != want[i] {
						t.Fatalf("Term(%v) = %v, %v; want %v", id, got, err, want[i])
					}
				}
			}
			if _, err := s.Terms(ctx, []ID{ids[0], 12345}, nil); err == nil {
				t.Fatal("an ID missing from the dictionary decoded without error")
			}
		})
	}
}
