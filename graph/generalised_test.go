package graph

import (
	"context"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// TestGeneralisedBatch: a literal subject or graph and a blank predicate
// are refused by a batch and taken by a generalised one, which still
// refuses a missing object and invalid text; the store reads such quads
// back and Check finds it consistent.
func TestGeneralisedBatch(t *testing.T) {
	s := openTest(t, defaultHash)
	ctx := context.Background()
	q := rdf.Quad{S: rdf.String("A"), P: rdf.Blank("p"), O: rdf.IRI("http://e.org/o"), G: rdf.String("g")}
	if _, err := func() (CommitResult, error) { b := s.NewBatch(); b.Add(q); return b.Commit(ctx) }(); err == nil {
		t.Fatal("a batch took a literal subject")
	}
	b := s.NewGeneralisedBatch()
	if err := b.TryAdd(rdf.Quad{S: q.S, P: q.P}); err == nil {
		t.Error("a generalised batch took a quad without object")
	}
	if err := b.TryAdd(rdf.Quad{S: q.S, P: q.P, O: rdf.LangLiteral("x", "")}); err == nil {
		t.Error("a generalised batch took an invalid literal")
	}
	if err := b.TryAdd(q); err != nil {
		t.Fatal(err)
	}
	if res, err := b.Commit(ctx); err != nil || res.Added != 1 {
		t.Fatalf("commit: %+v, %v", res, err)
	}
	ids, err := s.LookupTerms([]rdf.Term{q.S, q.P, q.O, q.G})
	if err != nil {
		t.Fatal(err)
	}
	it, err := s.Scan(ctx, Pattern{S: ids[0]}, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if !it.Next() || it.Quad() != (IDQuad{ids[0], ids[1], ids[2], ids[3]}) {
		t.Fatalf("quad not read back: %v", it.Err())
	}
	rep, err := s.Check(ctx)
	if err != nil || !rep.OK() {
		t.Fatalf("check: %+v, %v", rep, err)
	}
}
