package graph

import (
	"context"
	"testing"
	"unsafe"

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

// A batch recognises terms it has seen by the address of their value, but
// only as a hint: IRIs made over one reused buffer (as a parser may make
// them) share an address with different values, and each must stay the
// term it is, as must an IRI and a blank node of the same value.
func TestBatchTermsOverReusedBuffer(t *testing.T) {
	s := openTest(t, defaultHash)
	b := s.NewBatch()
	buf := []byte("http://example.org/a")
	p := rdf.IRI("http://example.org/p")
	var want []rdf.Quad
	for _, c := range "abcab" {
		buf[len(buf)-1] = byte(c)
		subj := rdf.IRI(unsafe.String(&buf[0], len(buf)))
		b.Add(rdf.Quad{S: subj, P: p, O: rdf.Blank(subj.Value)})
		want = append(want, rdf.Quad{S: rdf.IRI(string(buf)), P: p, O: rdf.Blank(string(buf))})
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	m := model{}
	for _, q := range want {
		m[q] = true
	}
	if len(m) != 3 {
		t.Fatalf("model of %d quads", len(m))
	}
	compareWithModel(t, s.View, m)
}
