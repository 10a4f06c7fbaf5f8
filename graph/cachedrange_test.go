package graph

import (
	"context"
	"fmt"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// TestCachedRange reads a predicate's range through the store, then
// expects the posting cache to hand it out whole with the same quads, and
// to refuse a scan that binds a column after its prefix.
func TestCachedRange(t *testing.T) {
	s := openTest(t, defaultHash)
	ctx := context.Background()
	b := s.NewBatch()
	for i := range 50 {
		b.Add(rdf.Quad{S: rdf.IRI(fmt.Sprint("http://e.org/s", i)), P: rdf.IRI("http://e.org/p"),
			O: rdf.IRI(fmt.Sprint("http://e.org/o", i%7)), G: rdf.IRI("http://e.org/g")})
	}
	if _, err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	p, ok, err := s.View.Lookup(rdf.IRI("http://e.org/p"))
	if err != nil || !ok {
		t.Fatalf("lookup: %v", err)
	}
	pat := Pattern{S: Any, P: p, O: Any, G: Any}
	opts := ScanOptions{Union: true, Order: POSG}
	it, err := s.View.Scan(ctx, pat, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := it.Cached(); ok {
		t.Fatal("range cached before any read")
	}
	var want []IDQuad
	for it.Next() {
		want = append(want, it.Quad())
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	_ = it.Close()
	if len(want) != 50 {
		t.Fatalf("%d quads, want 50", len(want))
	}

	it, err = s.View.Scan(ctx, pat, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	cr, ok := it.Cached()
	if !ok || cr.Len() != len(want) {
		t.Fatalf("cached %v with %d keys, want %d", ok, cr.Len(), len(want))
	}
	for i, q := range want {
		if got := (IDQuad{S: cr.At(i, 0), P: cr.At(i, 1), O: cr.At(i, 2)}); got != q {
			t.Errorf("key %d: %v, want %v", i, got, q)
		}
		if j := cr.SearchFirst(2, q.O); cr.At(j, 2) != q.O || j > 0 && cr.At(j-1, 2) >= q.O {
			t.Errorf("SearchFirst(%d) = %d", q.O, j)
		}
	}
	if !it.Next() || it.Quad() != want[0] {
		t.Errorf("the scan after Cached starts at %v, want %v", it.Quad(), want[0])
	}

	pat.S = want[0].S // bound after the prefix (P) in POSG order
	bound, err := s.View.Scan(ctx, pat, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer bound.Close()
	if _, ok := bound.Cached(); ok {
		t.Error("a scan binding a column after its prefix got the whole range")
	}
}
