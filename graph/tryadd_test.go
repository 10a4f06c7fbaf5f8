package graph

import (
	"context"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// TryAdd refuses an invalid quad without spoiling the batch: the valid
// ones around it commit.
func TestTryAddSkipsInvalid(t *testing.T) {
	s := openTest(t, defaultHash)
	b := s.NewBatch()
	ok := rdf.Quad{S: rdf.IRI("http://example.org/s"), P: rdf.IRI("http://example.org/p"), O: rdf.IRI("http://example.org/o")}
	bad := rdf.Quad{S: rdf.IRI("http://example.org/s"), P: rdf.String("p"), O: rdf.IRI("http://example.org/o")}
	if err := b.TryAdd(ok); err != nil {
		t.Fatalf("valid quad refused: %v", err)
	}
	if err := b.TryAdd(bad); err == nil {
		t.Fatal("a literal predicate was accepted")
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatalf("commit after a refused quad: %v", err)
	}
	st, err := s.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Quads != 1 {
		t.Errorf("%d quads stored, want 1", st.Quads)
	}
}
