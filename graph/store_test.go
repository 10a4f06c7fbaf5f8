package graph

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mneme-archive/mneme/graph/kv/pebblekv"
	"github.com/mneme-archive/mneme/rdf"
)

// openTest opens a fresh store in a temporary directory with hash h.
func openTest(t *testing.T, h hashFunc) *Store { return openWith(t, h, OpenOptions{}) }

// openWith opens a fresh store with hash h and the cache budgets of o.
func openWith(t *testing.T, h hashFunc, o OpenOptions) *Store {
	t.Helper()
	s := openDirWith(t, t.TempDir(), h, o)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// openDir opens the store in dir with hash h.
func openDir(t *testing.T, dir string, h hashFunc) *Store {
	return openDirWith(t, dir, h, OpenOptions{})
}

// openDirWith opens the store in dir with hash h and the cache budgets of o.
func openDirWith(t *testing.T, dir string, h hashFunc, o OpenOptions) *Store {
	t.Helper()
	db, err := pebblekv.Open(dir, pebblekv.Options{CacheBytes: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	s, err := newStore(db, dir, h, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// collidingHash sends every term into eight slots, so almost every new
// term collides and has to probe.
func collidingHash(b []byte) uint64 { return defaultHash(b) & 7 }

// model is the in-memory truth the store is compared with.
type model map[rdf.Quad]bool

func (m model) stats() (quads, triples int, preds map[rdf.Term][4]int, graphs map[rdf.Term]int) {
	tr := map[rdf.Triple]bool{}
	sp, po, spo := map[[2]rdf.Term]bool{}, map[[2]rdf.Term]bool{}, map[rdf.Triple]bool{}
	preds, graphs = map[rdf.Term][4]int{}, map[rdf.Term]int{}
	for q := range m {
		quads++
		graphs[q.G]++
		c := preds[q.P]
		c[0]++
		if !spo[q.Triple()] {
			spo[q.Triple()] = true
			c[1]++
		}
		if !sp[[2]rdf.Term{q.S, q.P}] {
			sp[[2]rdf.Term{q.S, q.P}] = true
			c[2]++
		}
		if !po[[2]rdf.Term{q.P, q.O}] {
			po[[2]rdf.Term{q.P, q.O}] = true
			c[3]++
		}
		preds[q.P] = c
		tr[q.Triple()] = true
	}
	return quads, len(tr), preds, graphs
}

// universe is a small set of terms, so random quads repeat often.
var universe = struct{ s, p, o, g []rdf.Term }{
	s: []rdf.Term{rdf.IRI("http://e.org/a"), rdf.IRI("http://e.org/b"), rdf.IRI("http://e.org/c"), rdf.Blank("x"), rdf.Blank("y")},
	p: []rdf.Term{rdf.IRI("http://e.org/p"), rdf.IRI("http://e.org/q"), rdf.IRI(rdf.RDFType)},
	o: []rdf.Term{rdf.IRI("http://e.org/a"), rdf.IRI("http://e.org/C"), rdf.String("a"), rdf.String(""), rdf.LangLiteral("a", "en"),
		rdf.Literal("1", rdf.XSDInteger), rdf.Literal("a", "http://e.org/dt"), rdf.Blank("x")},
	g: []rdf.Term{{}, rdf.IRI("http://e.org/g1"), rdf.IRI("http://e.org/g2"), rdf.Blank("g")},
}

func randomQuad(r *rand.Rand) rdf.Quad {
	pick := func(ts []rdf.Term) rdf.Term { return ts[r.IntN(len(ts))] }
	return rdf.Quad{S: pick(universe.s), P: pick(universe.p), O: pick(universe.o), G: pick(universe.g)}
}

// eachHash runs test on a fresh store with the real hash, then with
// collidingHash, then with every commit that only adds written as
// ingested files (as large commits are).
func eachHash(t *testing.T, test func(t *testing.T, s *Store)) {
	for _, tc := range []struct {
		name      string
		hash      hashFunc
		ingestMin int
	}{{"xxhash", defaultHash, ingestMinQuads}, {"colliding", collidingHash, ingestMinQuads}, {"ingest", collidingHash, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			s := openTest(t, tc.hash)
			s.ingestMin = tc.ingestMin
			test(t, s)
		})
	}
}

func TestRandomBatchesAgreeWithModel(t *testing.T) {
	eachHash(t, func(t *testing.T, s *Store) {
		r := rand.New(rand.NewPCG(1, 2))
		m := model{}
		ctx := context.Background()
		for round := range 40 {
			// Half the batches are filled in two parts joined with
			// AddBatch, as parallel writers do.
			b, part := s.NewBatch(), s.NewBatch()
			if round%2 == 0 {
				part = b
			}
			wantAdded, wantDeleted := 0, 0
			next := maps(m)
			for range 1 + r.IntN(12) {
				q := randomQuad(r)
				if r.IntN(4) == 0 { // a term new to the store, in deletions too
					q.S = rdf.IRI(fmt.Sprintf("http://e.org/new/%d/%d", round, r.IntN(2)))
				}
				if r.IntN(3) == 0 {
					part.Delete(q)
					delete(next, q)
				} else {
					part.Add(q)
					next[q] = true
				}
				if r.IntN(5) == 0 && part != b {
					b.AddBatch(part)
					part = s.NewBatch()
				}
			}
			if part != b {
				b.AddBatch(part)
			}
			for q := range next {
				if !m[q] {
					wantAdded++
				}
			}
			for q := range m {
				if !next[q] {
					wantDeleted++
				}
			}
			res, err := b.Commit(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if res.Added != wantAdded || res.Deleted != wantDeleted {
				t.Fatalf("round %d: commit says +%d -%d, model +%d -%d", round, res.Added, res.Deleted, wantAdded, wantDeleted)
			}
			m = next
			compareWithModel(t, s.View, m)
		}
	})
}

func maps(m model) model {
	c := make(model, len(m))
	for q := range m {
		c[q] = true
	}
	return c
}

// compareWithModel checks scans of every shape and order, union scans,
// statistics, estimates and the integrity check against the model.
func compareWithModel(t *testing.T, v *View, m model) {
	t.Helper()
	ctx := context.Background()
	id := func(term rdf.Term) ID {
		i, ok, err := v.Lookup(term)
		if err != nil || !ok {
			t.Fatalf("lookup %v: %v %v", term, ok, err)
		}
		return i
	}
	// Every bound/unbound combination, with constants from one model quad
	// (or from the universe when the model is empty).
	probeQuad := rdf.Quad{S: universe.s[0], P: universe.p[0], O: universe.o[0], G: universe.g[1]}
	for q := range m {
		probeQuad = q
		break
	}
	for mask := range 16 {
		var pat Pattern
		want := map[rdf.Quad]bool{}
		wantUnion := map[rdf.Triple]bool{}
		known := true
		for pos, term := range [4]rdf.Term{probeQuad.S, probeQuad.P, probeQuad.O, probeQuad.G} {
			if mask&(1<<pos) == 0 {
				continue
			}
			i, ok, err := v.Lookup(term)
			if err != nil {
				t.Fatal(err)
			}
			known = known && ok
			(*IDQuad)(&pat).set(pos, i)
		}
		for q := range m {
			if mask&1 != 0 && q.S != probeQuad.S || mask&2 != 0 && q.P != probeQuad.P ||
				mask&4 != 0 && q.O != probeQuad.O || mask&8 != 0 && q.G != probeQuad.G {
				continue
			}
			want[q] = true
			wantUnion[q.Triple()] = true
		}
		if !known {
			if len(want) != 0 {
				t.Fatalf("pattern %b: unknown term but model has %d matches", mask, len(want))
			}
			continue
		}
		for _, o := range append(Orders(), OrderAuto) {
			got := scanAll(t, v, pat, ScanOptions{Order: o})
			if len(got) != len(want) {
				t.Fatalf("pattern %b order %s: %d quads, model %d", mask, o, len(got), len(want))
			}
			for _, q := range got {
				if !want[q] {
					t.Fatalf("pattern %b order %s: unexpected %v", mask, o, q)
				}
			}
			if pat.G == Any && (o == OrderAuto || o.GraphLast()) {
				u := scanAll(t, v, pat, ScanOptions{Order: o, Union: true})
				if len(u) != len(wantUnion) {
					t.Fatalf("pattern %b order %s union: %d triples, model %d", mask, o, len(u), len(wantUnion))
				}
			}
		}
		est, err := v.Estimate(ctx, pat)
		if err != nil {
			t.Fatal(err)
		}
		if !est.Exact || est.N != uint64(len(want)) {
			t.Fatalf("pattern %b: estimate %+v, model %d", mask, est, len(want))
		}
	}
	quads, triples, preds, graphs := m.stats()
	st, err := v.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Quads != uint64(quads) || st.Triples != uint64(triples) || len(st.Predicates) != len(preds) || len(st.Graphs) != len(graphs) {
		t.Fatalf("stats %d quads %d triples %d preds %d graphs; model %d %d %d %d", st.Quads, st.Triples, len(st.Predicates), len(st.Graphs), quads, triples, len(preds), len(graphs))
	}
	for p, c := range preds {
		got := st.Predicates[id(p)]
		if [4]int{int(got.Quads), int(got.Triples), int(got.Subjects), int(got.Objects)} != c {
			t.Fatalf("predicate %v: stats %+v, model %v", p, got, c)
		}
	}
	for g, n := range graphs {
		if st.Graphs[id(g)] != uint64(n) {
			t.Fatalf("graph %v: stats %d, model %d", g, st.Graphs[id(g)], n)
		}
	}
	rep, err := v.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("check: %v", rep.Problems)
	}
}

// scanAll returns the quads of a scan as terms, checking that they come
// in the order's key order.
func scanAll(t *testing.T, v *View, pat Pattern, opts ScanOptions) []rdf.Quad {
	t.Helper()
	it, err := v.Scan(context.Background(), pat, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var ids []IDQuad
	var prev []byte
	for it.Next() {
		q := it.Quad()
		g := q.G
		if opts.Union {
			q.G = DefaultGraph // any valid ID, to build a key
		}
		key := appendIndexKey(nil, it.Order(), q)
		if prev != nil && string(key) <= string(prev) {
			t.Fatalf("scan %s: %v out of order", it.Order(), q)
		}
		prev = key
		q.G = g
		ids = append(ids, q)
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	var out []rdf.Quad
	for _, q := range ids {
		var terms [4]rdf.Term
		for pos := range 4 {
			if q.at(pos) == Any {
				continue
			}
			term, err := v.Term(q.at(pos))
			if err != nil {
				t.Fatal(err)
			}
			terms[pos] = term
		}
		out = append(out, rdf.Quad{S: terms[0], P: terms[1], O: terms[2], G: terms[3]})
	}
	return out
}

func TestCollidingTermsGetDistinctIDs(t *testing.T) {
	// Every term hashes to the same value: all must still be told apart.
	s := openTest(t, func([]byte) uint64 { return 42 })
	ctx := context.Background()
	b := s.NewBatch()
	var terms []rdf.Term
	for i := range 20 {
		o := rdf.String(fmt.Sprint(i))
		terms = append(terms, o)
		b.Add(rdf.Quad{S: rdf.IRI("http://e.org/s"), P: rdf.IRI("http://e.org/p"), O: o})
	}
	if _, err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	ids, err := s.LookupTerms(terms)
	if err != nil {
		t.Fatal(err)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(ids)))) != len(terms) {
		t.Fatalf("colliding terms share IDs: %v", ids)
	}
	decoded, err := s.Terms(ctx, ids, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(decoded, terms) {
		t.Fatalf("decoded %v, want %v", decoded, terms)
	}
	if _, ok, _ := s.Lookup(rdf.String("absent")); ok {
		t.Fatal("an absent colliding term was found")
	}
	rep, err := s.Check(ctx)
	if err != nil || !rep.OK() {
		t.Fatalf("check: %v %v", err, rep.Problems)
	}
}

func TestTermCodecRoundTrip(t *testing.T) {
	for _, term := range append(append(universe.o, universe.g[1:]...), rdf.Literal("x", rdf.XSDString)) {
		got, err := decodeTerm(appendTerm(nil, term))
		if err != nil || got != term {
			t.Errorf("%v: decoded %v, %v", term, got, err)
		}
	}
	for _, bad := range []string{"", "X", "L\x09en"} {
		if _, err := decodeTerm([]byte(bad)); err == nil {
			t.Errorf("%q decoded without error", bad)
		}
	}
}

// TestResetAgreesWithScan re-targets one iterator per ordering at the
// patterns of many quads, in no particular key order, and compares each
// result with a fresh scan of the same pattern.
func TestResetAgreesWithScan(t *testing.T) {
	s := openTest(t, defaultHash)
	r := rand.New(rand.NewPCG(3, 4))
	b := s.NewBatch()
	var quads []rdf.Quad
	for range 300 {
		q := randomQuad(r)
		b.Add(q)
		quads = append(quads, q)
	}
	ctx := context.Background()
	if _, err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	ids := func(q rdf.Quad) IDQuad {
		var out IDQuad
		for pos, term := range [4]rdf.Term{q.S, q.P, q.O, q.G} {
			id, ok, err := s.Lookup(term)
			if err != nil || !ok {
				t.Fatalf("lookup %v: %v %v", term, ok, err)
			}
			out.set(pos, id)
		}
		return out
	}
	for mask := range 16 {
		for _, union := range []bool{false, true} {
			if union && mask&8 != 0 {
				continue
			}
			opts := ScanOptions{Union: union}
			var probe Pattern
			for pos := range 4 {
				if mask&(1<<pos) != 0 {
					(*IDQuad)(&probe).set(pos, 1)
				}
			}
			opts.Order = AutoOrder(probe, union)
			it, err := s.Scan(ctx, Pattern{}, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range quads[:40] {
				full := ids(q)
				var pat Pattern
				for pos := range 4 {
					if mask&(1<<pos) != 0 {
						(*IDQuad)(&pat).set(pos, full.at(pos))
					}
				}
				want := scanAll(t, s.View, pat, opts)
				if err := it.Reset(pat); err != nil {
					t.Fatal(err)
				}
				n := 0
				for it.Next() {
					got := it.Quad()
					if !matches(got, pat) {
						t.Fatalf("mask %b union %v: reset to %v yields %v", mask, union, pat, got)
					}
					n++
				}
				if err := it.Err(); err != nil {
					t.Fatal(err)
				}
				if n != len(want) {
					t.Fatalf("mask %b union %v: reset to %v yields %d quads, scan %d", mask, union, pat, n, len(want))
				}
			}
			if err := it.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A reset may only narrow the range the scan was opened on.
	p := ids(quads[0])
	it, err := s.Scan(ctx, Pattern{P: p.P}, ScanOptions{Order: POSG})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if err := it.Reset(Pattern{S: p.S}); err == nil {
		t.Fatal("reset outside the opened range accepted")
	}
}

// TestDeletingTermsNewInTheBatch: a batch that inserts quads naming new
// terms and later deletes some of them ends with the others only, however
// the terms' dictionary lookups are ordered.
func TestDeletingTermsNewInTheBatch(t *testing.T) {
	eachHash(t, func(t *testing.T, s *Store) {
		quad := func(i int) rdf.Quad {
			return rdf.Quad{S: rdf.IRI(fmt.Sprintf("http://e.org/s%d", i)), P: rdf.IRI("http://e.org/p"), O: rdf.String(fmt.Sprint(i))}
		}
		b := s.NewBatch()
		m := model{}
		for i := range 200 {
			b.Add(quad(i))
			m[quad(i)] = true
		}
		for i := 0; i < 200; i += 2 {
			b.Delete(quad(i))
			delete(m, quad(i))
		}
		res, err := b.Commit(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if res.Added != 100 || res.Deleted != 0 {
			t.Errorf("commit says +%d -%d, want +100 -0", res.Added, res.Deleted)
		}
		compareWithModel(t, s.View, m)
	})
}
