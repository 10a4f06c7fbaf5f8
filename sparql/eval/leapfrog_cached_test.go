package eval

import (
	"context"
	"slices"
	"testing"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
)

// TestTrieFromRange builds the tries of the :knows and :val ranges (the
// :val triples of both graphs once each, as a union scan has them twice)
// from the posting cache and from a scan through the store's iterator,
// whole and in two halves of the first value, and expects the same
// tries; a range not sorted on the first column is refused.
func TestTrieFromRange(t *testing.T) {
	s := testStore(t)
	ctx := context.Background()
	for _, p := range []string{"knows", "val"} {
		pid, ok, err := s.View.Lookup(rdf.IRI(ex + p))
		if err != nil || !ok {
			t.Fatalf("%s: %v", p, err)
		}
		pat := graph.Pattern{S: graph.Any, P: pid, O: graph.Any, G: graph.Any}
		opts := graph.ScanOptions{Union: true, Order: graph.POSG}
		cols := [2]int{2, 0} // o, s: the order of POSG
		scan := func() *graph.QuadIter {
			it, err := s.View.Scan(ctx, pat, opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = it.Close() })
			return it
		}
		for _, r := range [][2]ID{{0, 0}, {0, 1 << 63}, {1 << 63, 0}} {
			// The first read walks the store and fills the cache.
			it := scan()
			want, err := readTrie(ctx, rangeScan(it, graph.IDQuad(pat), cols[0], r[0], r[1]), cols, 0, 1<<30)
			if err != nil || want == nil {
				t.Fatalf("%s %v: %v", p, r, err)
			}
			cr, ok := scan().Cached()
			if !ok {
				t.Fatalf("%s %v: range not cached after a whole scan", p, r)
			}
			got, ok := trieFromRange(cr, cols, r[0], r[1])
			if !ok {
				t.Fatalf("%s %v: sorted range refused", p, r)
			}
			if len(want.second) == 0 && r == [2]ID{} {
				t.Fatalf("%s: empty trie", p)
			}
			if !slices.Equal(got.first, want.first) || !slices.Equal(got.start, want.start) || !slices.Equal(got.second, want.second) {
				t.Errorf("%s %v: cached trie %d/%d values, scanned %d/%d", p, r, len(got.first), len(got.second), len(want.first), len(want.second))
			}
		}
		if _, ok := trieFromRange(mustCached(t, scan()), [2]int{0, 2}, 0, 0); ok {
			t.Errorf("%s: a range unsorted on the subject was read as sorted", p)
		}
	}
}

func mustCached(t *testing.T, it *graph.QuadIter) graph.CachedRange {
	t.Helper()
	cr, ok := it.Cached()
	if !ok {
		t.Fatal("range not cached")
	}
	return cr
}
