package graph

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// TestIngestedCommitsSurviveReopen commits batches large enough to be
// ingested as sorted files, with quads already present and duplicates in
// them, reopens the store, and checks it against the model: the ingested
// tables, dictionary entries and statistics are durable and agree.
func TestIngestedCommitsSurviveReopen(t *testing.T) {
	dir := t.TempDir()
	s := openDir(t, dir, defaultHash)
	ctx := context.Background()
	m := model{}
	g := rdf.IRI("http://e.org/crawl")
	n := ingestMinQuads
	for round := range 3 {
		b := s.NewBatch()
		for i := range n {
			// Subjects new in each round, objects shared by all rounds.
			q := rdf.Quad{S: rdf.IRI(fmt.Sprintf("http://e.org/s/%d/%d", round, i%(n/4))),
				P: universe.p[i%len(universe.p)], O: rdf.IRI(fmt.Sprintf("http://e.org/o/%d", i%1000)), G: g}
			b.Add(q)
			b.Add(q)
			m[q] = true
		}
		if round == 2 { // quads of an earlier round again
			for q := range m {
				b.Add(q)
			}
		}
		if _, err := b.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			t.Errorf("temporary %s left in the store", e.Name())
		}
	}
	s = openDir(t, dir, defaultHash)
	defer s.Close()
	// The integrity check recounts the statistics from the indexes and
	// compares the six indexes and the dictionary.
	rep, err := s.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.Quads != uint64(len(m)) {
		t.Fatalf("check: %d quads (model %d), problems %v", rep.Quads, len(m), rep.Problems)
	}
	quads, triples, preds, _ := m.stats()
	st, err := s.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Quads != uint64(quads) || st.Triples != uint64(triples) || len(st.Predicates) != len(preds) {
		t.Errorf("stats %d quads %d triples %d predicates, model %d %d %d", st.Quads, st.Triples, len(st.Predicates), quads, triples, len(preds))
	}
	for p, want := range preds {
		id, ok, err := s.Lookup(p)
		if err != nil || !ok {
			t.Fatalf("lookup %v: %v %v", p, ok, err)
		}
		c := st.Predicates[id]
		if got := [4]int{int(c.Quads), int(c.Triples), int(c.Subjects), int(c.Objects)}; got != want {
			t.Errorf("predicate %v: stats %v, model %v", p, got, want)
		}
	}
}
