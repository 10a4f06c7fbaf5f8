package graph

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// openCached opens a fresh store whose posting cache has the given budget.
func openCached(t *testing.T, budget int64) *Store {
	return openWith(t, defaultHash, OpenOptions{ScanCacheBytes: budget})
}

// uncached is a view of the same state as v that reads the store only.
func uncached(v *View) *View { return &View{r: v.r, hash: v.hash} }

// step is one call on a scan: Next, or SeekGE to target.
type step struct {
	seek   bool
	target IDQuad
}

// run applies steps to a fresh scan of pat (a Reset of a wider scan when
// reset) and returns what each step yielded.
func run(t *testing.T, v *View, pat Pattern, opts ScanOptions, reset bool, steps []step) []IDQuad {
	t.Helper()
	ctx := context.Background()
	open := pat
	if reset {
		// Open on the leading bound column only, then narrow.
		o := opts.Order
		open = Pattern{}
		first := orders[o-1].perm[0]
		(*IDQuad)(&open).set(first, IDQuad(pat).at(first))
	}
	it, err := v.Scan(ctx, open, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if reset {
		if err := it.Reset(pat); err != nil {
			t.Fatal(err)
		}
	}
	var out []IDQuad
	for _, st := range steps {
		ok := false
		if st.seek {
			ok = it.SeekGE(st.target)
		} else {
			ok = it.Next()
		}
		if !ok {
			out = append(out, IDQuad{})
			continue
		}
		out = append(out, it.Quad())
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// compareCached checks random scans of v, run twice (the first fills the
// posting cache, the second reads it), against the same scans of the
// store without the cache.
func compareCached(t *testing.T, v *View, r *rand.Rand, rounds int) {
	t.Helper()
	ids := scanAllIDs(t, uncached(v), Pattern{}, SPOG)
	if len(ids) == 0 {
		return
	}
	pick := func() IDQuad { return ids[r.IntN(len(ids))] }
	for range rounds {
		full := pick()
		var pat Pattern
		mask := r.IntN(16)
		for pos := range 4 {
			if mask&(1<<pos) != 0 {
				(*IDQuad)(&pat).set(pos, full.at(pos))
			}
		}
		union := pat.G == Any && r.IntN(2) == 0
		order := AutoOrder(pat, union)
		if r.IntN(3) == 0 { // an explicit order that filters
			order = Orders()[r.IntN(6)]
			if union && !order.GraphLast() {
				order = SPOG
			}
		}
		opts := ScanOptions{Order: order, Union: union}
		steps := make([]step, 1+r.IntN(40))
		for i := range steps {
			if i > 0 && r.IntN(4) == 0 {
				steps[i] = step{seek: true, target: pick()}
			}
		}
		if r.IntN(4) == 0 {
			steps[0] = step{seek: true, target: pick()}
		}
		reset := r.IntN(2) == 0 && IDQuad(pat).at(orders[order-1].perm[0]) != Any
		want := run(t, uncached(v), pat, opts, reset, steps)
		for pass := range 2 {
			got := run(t, v, pat, opts, reset, steps)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("pattern %v %+v reset %v pass %d: step %d (%+v) gave %v, the store %v",
						pat, opts, reset, pass, i, steps[i], got[i], want[i])
				}
			}
		}
	}
}

func TestPostingCacheAgreesWithStore(t *testing.T) {
	// 4 KiB caches posting lists of up to 16 keys: larger ranges take the
	// path of a range too big to cache.
	for _, budget := range []int64{0, 4 << 10} {
		s := openCached(t, budget)
		r := rand.New(rand.NewPCG(7, uint64(budget)))
		ctx := context.Background()
		var snaps []*View
		for round := range 12 {
			b := s.NewBatch()
			for range 60 {
				q := bigUniverseQuad(r)
				if round > 0 && r.IntN(3) == 0 {
					b.Delete(q)
				} else {
					b.Add(q)
				}
			}
			if _, err := b.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			compareCached(t, s.View, r, 60)
			snaps = append(snaps, s.Snapshot())
			// Older snapshots keep agreeing with their own state while
			// later commits change the store.
			for _, snap := range snaps {
				compareCached(t, snap, r, 10)
			}
		}
		for _, snap := range snaps {
			if err := snap.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestPostingCacheAfterLoad: loads (ingested files) invalidate what was
// cached; their ranges (several thousand keys for the whole of an
// ordering) are read in several chunks while filling.
func TestPostingCacheAfterLoad(t *testing.T) {
	s := openCached(t, 0)
	r := rand.New(rand.NewPCG(9, 10))
	for range 3 {
		var quads []rdf.Quad
		for range 1500 {
			quads = append(quads, bigUniverseQuad(r))
		}
		loadAll(t, s, quads, LoadOptions{})
		compareCached(t, s.View, r, 80)
	}
}

// TestWarmScanWalksMemory: a scan caches its prefix's posting list, the
// next scan walks it, and a commit that changes the prefix withdraws it
// from the live view and from snapshots older than the change.
func TestWarmScanWalksMemory(t *testing.T) {
	s := openCached(t, 0)
	ctx := context.Background()
	a, p, o := rdf.IRI("http://e.org/a"), rdf.IRI("http://e.org/p"), rdf.IRI("http://e.org/o")
	b := s.NewBatch()
	b.Add(rdf.Quad{S: a, P: p, O: o})
	if _, err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	sid, _, err := s.Lookup(a)
	if err != nil {
		t.Fatal(err)
	}
	prefix := appendID([]byte{tagSPOG}, sid)
	// cachedFor reports whether the live view's next scan of the prefix
	// (or snap's, when given) would be served from the cache.
	cachedFor := func(snap *View) bool {
		gen := s.postings.gen.Load()
		if snap != nil {
			gen = snap.gen
		}
		_, ok := s.postings.get(prefix, gen)
		return ok
	}
	scan := func(v *View) (n int, inMem bool) {
		it, err := v.Scan(ctx, Pattern{S: sid}, ScanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		for it.Next() {
			n++
			inMem = it.inMem
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
		return n, inMem
	}
	if cachedFor(nil) {
		t.Fatal("prefix cached before any scan")
	}
	scan(s.View)
	if !cachedFor(nil) {
		t.Fatal("prefix not cached after a scan")
	}
	if n, inMem := scan(s.View); n != 1 || !inMem {
		t.Fatalf("warm scan: %d quads, from memory %v; want 1, true", n, inMem)
	}
	snap := s.Snapshot()
	defer snap.Close()
	if !cachedFor(snap) {
		t.Fatal("a snapshot of the same state does not use the cached prefix")
	}
	b = s.NewBatch()
	b.Add(rdf.Quad{S: a, P: p, O: rdf.String("x")})
	if _, err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if cachedFor(nil) || cachedFor(snap) {
		t.Fatal("prefix still cached after a commit changed it")
	}
	if n, _ := scan(s.View); n != 2 {
		t.Fatalf("scan after a commit: %d quads, want 2", n)
	}
	if !cachedFor(nil) {
		t.Fatal("prefix not cached again")
	}
	if cachedFor(snap) {
		t.Fatal("the new posting list serves a snapshot older than the commit")
	}
	if n, _ := scan(snap); n != 1 {
		t.Fatalf("snapshot scan: %d quads, want 1", n)
	}
	// A commit elsewhere leaves the prefix cached, unless one of its keys'
	// prefixes shares the prefix's mark bucket (the seed is random).
	other := rdf.Quad{S: rdf.IRI("http://e.org/b"), P: p, O: o}
	b = s.NewBatch()
	b.Add(other)
	if _, err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	collides := false
	ids, err := s.LookupTerms([]rdf.Term{other.S, other.P, other.O, other.G})
	if err != nil {
		t.Fatal(err)
	}
	q := IDQuad{S: ids[0], P: ids[1], O: ids[2], G: ids[3]}
	for _, o := range Orders() {
		key := appendIndexKey(nil, o, q)
		for _, n := range prefixLens {
			collides = collides || s.postings.bucketIndex(key[:n]) == s.postings.bucketIndex(prefix)
		}
	}
	if !collides && !cachedFor(nil) {
		t.Fatal("a commit of another subject withdrew the prefix")
	}
}

// TestPermuteAsOrders wants permute, unpermute and putIndexKey, spelled
// out per ordering, to say what the orderings' tables say.
func TestPermuteAsOrders(t *testing.T) {
	q := IDQuad{S: 2, P: 3, O: 4, G: 5}
	for _, o := range Orders() {
		c := permute(o, q)
		if got := unpermute(o, c); got != q {
			t.Fatalf("%s: unpermute(permute(%v)) = %v", o, q, got)
		}
		var k [keyWidth]byte
		putIndexKey(&k, o, c)
		if want := appendIndexKey(nil, o, q); string(k[:]) != string(want) {
			t.Fatalf("%s: key %x, the ordering's table gives %x", o, k, want)
		}
	}
}

// TestPostingCacheUnderConcurrentCommits: snapshots taken while another
// goroutine commits (inserts and deletes) agree, through the cache, with
// their own state read from the store, and the live view agrees once the
// commits are done.
func TestPostingCacheUnderConcurrentCommits(t *testing.T) {
	s := openCached(t, 0)
	ctx := context.Background()
	done := make(chan error)
	go func() {
		r := rand.New(rand.NewPCG(11, 12))
		for range 40 {
			b := s.NewBatch()
			for range 30 {
				if q := bigUniverseQuad(r); r.IntN(3) == 0 {
					b.Delete(q)
				} else {
					b.Add(q)
				}
			}
			if _, err := b.Commit(ctx); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	r := rand.New(rand.NewPCG(13, 14))
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			running = false
		default:
		}
		snap := s.Snapshot()
		compareCached(t, snap, r, 5)
		if err := snap.Close(); err != nil {
			t.Fatal(err)
		}
	}
	compareCached(t, s.View, r, 40)
}
