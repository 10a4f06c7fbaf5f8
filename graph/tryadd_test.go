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

// A refused quad leaves no trace: the new terms it named before the bad
// one are dropped from the batch (and a later quad naming them adds them
// afresh), and a term's text is checked by the first insertion naming it
// even when a deletion brought it into the batch.
func TestTryAddDropsTermsOfRefusedQuad(t *testing.T) {
	s := openTest(t, defaultHash)
	b := s.NewBatch()
	p := rdf.IRI("http://example.org/p")
	fresh := rdf.IRI("http://example.org/fresh")
	badUTF8 := rdf.String("bad \xff text")
	good := rdf.Quad{S: rdf.IRI("http://example.org/s"), P: p, O: rdf.String("ok")}
	if err := b.TryAdd(good); err != nil {
		t.Fatal(err)
	}
	terms := len(b.terms)
	if err := b.TryAdd(rdf.Quad{S: fresh, P: p, O: badUTF8}); err == nil {
		t.Fatal("invalid UTF-8 in an object was accepted")
	}
	if len(b.terms) != terms || b.Len() != 1 {
		t.Fatalf("refused quad left %d terms (want %d) and %d operations (want 1)", len(b.terms), terms, b.Len())
	}
	again := rdf.Quad{S: fresh, P: p, O: rdf.String("again")}
	if err := b.TryAdd(again); err != nil {
		t.Fatal(err)
	}
	b.Delete(rdf.Quad{S: fresh, P: p, O: badUTF8})
	if err := b.TryAdd(rdf.Quad{S: fresh, P: p, O: badUTF8}); err == nil {
		t.Fatal("a term a deletion brought into the batch skipped validation")
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	compareWithModel(t, s.View, model{good: true, again: true})

	b.Add(good)
	b.Add(rdf.Quad{S: fresh, P: p, O: badUTF8})
	if _, err := b.Commit(context.Background()); err == nil {
		t.Fatal("commit of a batch with an invalid quad succeeded")
	}
}
