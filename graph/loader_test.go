package graph

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// loadAll loads quads with two concurrent workers.
func loadAll(t *testing.T, s *Store, quads []rdf.Quad, opts LoadOptions) LoadResult {
	t.Helper()
	l, err := s.NewLoader(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lw := l.NewWorker()
			for i := w * 7; i < len(quads); i += 2 * 7 {
				if err := lw.Add(quads[i:min(i+7, len(quads))]); err != nil {
					errs[w] = err
					return
				}
			}
			errs[w] = lw.Flush()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			l.Close()
			t.Fatal(err)
		}
	}
	res, err := l.Commit()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// bigUniverseQuad draws from more terms than universe, so loads have many
// distinct quads and terms.
func bigUniverseQuad(r *rand.Rand) rdf.Quad {
	q := randomQuad(r)
	if r.IntN(2) == 0 {
		q.S = rdf.IRI("http://e.org/s" + string(rune('a'+r.IntN(26))))
	}
	if r.IntN(2) == 0 {
		q.O = rdf.Literal(string(rune('a'+r.IntN(26))), rdf.XSDString)
	}
	return q
}

func TestLoaderAgreesWithModel(t *testing.T) {
	// Loads find free slots from the store's filter of taken slots
	// instead of store reads; with a batch first, the first load meets a
	// store that already has terms and quads, and builds the filter
	// from its dictionary.
	for _, tc := range []struct {
		name    string
		hash    hashFunc
		prefill bool
	}{{"xxhash", defaultHash, true}, {"colliding", collidingHash, true}, {"colliding-fresh", collidingHash, false}} {
		t.Run(tc.name, func(t *testing.T) {
			s := openTest(t, tc.hash)
			r := rand.New(rand.NewPCG(3, 4))
			m := model{}
			if tc.prefill {
				b := s.NewBatch()
				for range 30 {
					q := bigUniverseQuad(r)
					b.Add(q)
					m[q] = true
				}
				if _, err := b.Commit(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			for round := range 3 {
				var quads []rdf.Quad
				before := len(m)
				for range 700 {
					q := bigUniverseQuad(r)
					quads = append(quads, q)
					m[q] = true
				}
				// Tiny runs and segments: many runs to merge, several
				// segments, duplicates across all of them.
				res := loadAll(t, s, quads, LoadOptions{RunQuads: 50, SegmentQuads: 180})
				if res.Read != uint64(len(quads)) || res.Added != uint64(len(m)-before) {
					t.Fatalf("round %d: read %d added %d; want %d, %d", round, res.Read, res.Added, len(quads), len(m)-before)
				}
				compareWithModel(t, s.View, m)
			}
		})
	}
}

// TestLoaderEndSegment ends segments while the worker goes on adding:
// each ended segment is in the store (quads and statistics) once its
// channel says so, and not what was added after it until it is ended or
// committed; duplicates across segments and with the store count once.
func TestLoaderEndSegment(t *testing.T) {
	for _, tc := range []struct {
		name  string
		hash  hashFunc
		split int // splitMergeKeys; 0 leaves it as it is
	}{{"xxhash", defaultHash, 0}, {"colliding", collidingHash, 0}, {"xxhash-split", defaultHash, 16}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.split > 0 {
				// The statistics orderings merged in halves: counts
				// that span the parting would be wrong in the stats.
				defer func(n int) { splitMergeKeys = n }(splitMergeKeys)
				splitMergeKeys = tc.split
			}
			s := openTest(t, tc.hash)
			r := rand.New(rand.NewPCG(7, 8))
			m := model{}
			b := s.NewBatch()
			for range 30 {
				q := bigUniverseQuad(r)
				b.Add(q)
				m[q] = true
			}
			if _, err := b.Commit(context.Background()); err != nil {
				t.Fatal(err)
			}
			l, err := s.NewLoader(context.Background(), LoadOptions{RunQuads: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			w := l.NewWorker()
			add := func(n int) model {
				added := model{}
				for range n {
					q := bigUniverseQuad(r)
					if err := w.Add([]rdf.Quad{q}); err != nil {
						t.Fatal(err)
					}
					added[q] = true
				}
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				return added
			}
			before := len(m)
			var ended <-chan error
			for range 3 {
				next := add(700) // while the segment before is committed
				if ended != nil {
					if err := <-ended; err != nil {
						t.Fatal(err)
					}
					compareWithModel(t, s.View, m) // without next
				}
				ended = l.EndSegment()
				for q := range next {
					m[q] = true
				}
			}
			if err := <-ended; err != nil {
				t.Fatal(err)
			}
			compareWithModel(t, s.View, m)
			for q := range add(500) {
				m[q] = true
			}
			res, err := l.Commit()
			if err != nil {
				t.Fatal(err)
			}
			if res.Added != uint64(len(m)-before) {
				t.Fatalf("added %d, want %d", res.Added, len(m)-before)
			}
			compareWithModel(t, s.View, m)
		})
	}
}

func TestLoaderCloseLoadsNothing(t *testing.T) {
	s := openTest(t, defaultHash)
	l, err := s.NewLoader(context.Background(), LoadOptions{RunQuads: 10})
	if err != nil {
		t.Fatal(err)
	}
	w := l.NewWorker()
	r := rand.New(rand.NewPCG(5, 6))
	for range 100 {
		if err := w.Add([]rdf.Quad{bigUniverseQuad(r)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if err := w.Add([]rdf.Quad{bigUniverseQuad(r)}); err == nil {
		t.Fatal("Add after Close succeeded")
	}
	compareWithModel(t, s.View, model{})
	// The store's write lock was released.
	if _, err := s.NewBatch().Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestLoaderRejectsInvalidQuad(t *testing.T) {
	s := openTest(t, defaultHash)
	l, err := s.NewLoader(context.Background(), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	err = l.NewWorker().Add([]rdf.Quad{{S: rdf.String("lit"), P: rdf.IRI("http://e.org/p"), O: rdf.String("x")}})
	if err == nil {
		t.Fatal("a literal subject was loaded")
	}
}

// A worker that read the dictionary before another worker's terms were
// written must see them afterwards: with all terms on a few slots, a
// worker blind to them would give its new terms their slots.
func TestLoaderWorkerSeesTermsWrittenSinceItsLastRead(t *testing.T) {
	s := openTest(t, collidingHash)
	m := model{}
	b := s.NewBatch()
	q0 := rdf.Quad{S: rdf.IRI("http://e.org/s0"), P: rdf.IRI("http://e.org/p"), O: rdf.String("o0")}
	b.Add(q0)
	m[q0] = true
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	l, err := s.NewLoader(context.Background(), LoadOptions{RunQuads: 1})
	if err != nil {
		t.Fatal(err)
	}
	a, w := l.NewWorker(), l.NewWorker()
	add := func(lw *LoadWorker, name string) {
		t.Helper()
		q := rdf.Quad{S: rdf.IRI("http://e.org/" + name), P: rdf.IRI("http://e.org/p"), O: rdf.String(name)}
		m[q] = true
		if err := lw.Add([]rdf.Quad{q}); err != nil {
			t.Fatal(err)
		}
		// One quad a run: each hand-over writes the run's new terms.
		if err := lw.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	add(w, "w1") // w reads the dictionary
	add(a, "a1") // a's terms are written
	add(a, "a2")
	add(w, "w2") // w must find a's terms on their slots
	if _, err := l.Commit(); err != nil {
		t.Fatal(err)
	}
	compareWithModel(t, s.View, m)
}

// The store's filter of taken slots, built for the first load, must learn
// the slots that batches take after it: with all terms on a few slots, a
// later load blind to them would give its new terms the batches' slots.
func TestLoaderAfterBatchesKeepsTheirSlots(t *testing.T) {
	s := openTest(t, collidingHash)
	r := rand.New(rand.NewPCG(5, 6))
	m := model{}
	for round := range 3 {
		var quads []rdf.Quad
		for range 200 {
			q := bigUniverseQuad(r)
			quads = append(quads, q)
			m[q] = true
		}
		loadAll(t, s, quads, LoadOptions{})
		b := s.NewBatch()
		for range 60 {
			q := bigUniverseQuad(r)
			b.Add(q)
			m[q] = true
		}
		if _, err := b.Commit(context.Background()); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	compareWithModel(t, s.View, m)
	if rep, err := s.Check(context.Background()); err != nil || !rep.OK() {
		t.Fatalf("check: %v %+v", err, rep)
	}
}
