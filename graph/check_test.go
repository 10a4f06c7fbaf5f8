package graph

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

func fillSmall(t *testing.T, s *Store) {
	t.Helper()
	b := s.NewBatch()
	for i, o := range universe.o {
		b.Add(rdf.Quad{S: universe.s[i%len(universe.s)], P: universe.p[i%len(universe.p)], O: o, G: universe.g[i%len(universe.g)]})
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// corrupt applies raw key-value writes behind the store's back.
func corrupt(t *testing.T, s *Store, fn func(set func(k, v []byte), del func(k []byte))) {
	t.Helper()
	w := s.kv.NewBatch()
	defer w.Close()
	fn(w.Set, w.Delete)
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
}

func TestCheckFindsCorruption(t *testing.T) {
	someQuad := func(s *Store) IDQuad {
		it, err := s.Scan(context.Background(), Pattern{}, ScanOptions{})
		if err != nil || !it.Next() {
			t.Fatal("empty store", err)
		}
		defer it.Close()
		return it.Quad()
	}
	cases := []struct {
		name string
		do   func(s *Store, set func(k, v []byte), del func(k []byte))
		want string
	}{
		{"index key missing", func(s *Store, _ func(k, v []byte), del func(k []byte)) {
			del(appendIndexKey(nil, GPOS, someQuad(s)))
		}, "is in spog but not in gpos"},
		{"extra index key", func(s *Store, set func(k, v []byte), _ func(k []byte)) {
			q := someQuad(s)
			q.O = q.S
			set(appendIndexKey(nil, OSPG, q), nil)
		}, "is in ospg but not in spog"},
		{"term missing", func(s *Store, _ func(k, v []byte), del func(k []byte)) {
			del(dictKey(someQuad(s).P))
		}, "not in the dictionary"},
		{"stats off", func(s *Store, set func(k, v []byte), _ func(k []byte)) {
			set(statTotalKey, putUint64s(1, 1))
		}, "statistics: stored 1 quads"},
		{"term duplicated", func(s *Store, set func(k, v []byte), _ func(k []byte)) {
			q := someQuad(s)
			v, _ := s.kv.Get(dictKey(q.P))
			set(dictKey(nextSlot(q.P)), v)
		}, "but a lookup finds"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := openTest(t, defaultHash)
			fillSmall(t, s)
			corrupt(t, s, func(set func(k, v []byte), del func(k []byte)) { tc.do(s, set, del) })
			rep, err := s.Check(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK() || !strings.Contains(strings.Join(rep.Problems, "\n"), tc.want) {
				t.Fatalf("want a problem with %q, got %q", tc.want, rep.Problems)
			}
		})
	}
}

func TestReadOnlyRefusesWrites(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fillSmall(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := Open(dir, OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	b := ro.NewBatch()
	b.Add(rdf.Quad{S: universe.s[0], P: universe.p[0], O: universe.o[0]})
	if _, err := b.Commit(context.Background()); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("commit on a read-only store: %v", err)
	}
	st, err := ro.Stats()
	if err != nil || st.Quads != uint64(len(universe.o)) {
		t.Fatalf("read-only stats %+v %v", st, err)
	}
	if _, err := Open(t.TempDir(), OpenOptions{ReadOnly: true}); err == nil {
		t.Fatal("opening a missing store read-only succeeded")
	}
}

func TestScanContextAndSeek(t *testing.T) {
	s := openTest(t, defaultHash)
	b := s.NewBatch()
	p := rdf.IRI("http://e.org/p")
	for i := range 3000 {
		b.Add(rdf.Quad{S: rdf.IRI("http://e.org/s"), P: p, O: rdf.Literal(strings.Repeat("x", i%7)+string(rune('a'+i%26))+string(rune(i)), rdf.XSDString)})
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	it, err := s.Scan(ctx, Pattern{}, ScanOptions{Order: OSPG})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if !it.Next() {
		t.Fatal("no quads")
	}
	cancel()
	n := 1
	for it.Next() {
		n++
	}
	if !errors.Is(it.Err(), context.Canceled) || n >= 3000 {
		t.Fatalf("after cancel: %d quads, err %v", n, it.Err())
	}
	// SeekGE lands on the first quad at or after the target, in order.
	all := scanAllIDs(t, s.View, Pattern{}, OSPG)
	target := all[1234]
	it2, err := s.Scan(context.Background(), Pattern{}, ScanOptions{Order: OSPG})
	if err != nil {
		t.Fatal(err)
	}
	defer it2.Close()
	if !it2.SeekGE(target) || it2.Quad() != target || !it2.Next() || it2.Quad() != all[1235] {
		t.Fatalf("SeekGE(%v) landed on %v", target, it2.Quad())
	}
	est, err := s.Estimate(context.Background(), Pattern{O: Any, S: target.S})
	if err != nil {
		t.Fatal(err)
	}
	// s is bound and p comes next: a coarse but bounded estimate.
	if est.Exact || est.N < estimateLimit || est.N > 3000 {
		t.Fatalf("estimate for 3000 quads: %+v", est)
	}
	est, err = s.Estimate(context.Background(), Pattern{S: target.S, P: target.P})
	if err != nil {
		t.Fatal(err)
	}
	// o comes next: hash IDs spread uniformly, so the sample is unbiased;
	// 1024 samples give a relative standard error near 3%.
	if est.Exact || est.N < 2500 || est.N > 3000 {
		t.Fatalf("estimate for 3000 quads with o free: %+v", est)
	}
}

func scanAllIDs(t *testing.T, v *View, pat Pattern, o Order) []IDQuad {
	t.Helper()
	it, err := v.Scan(context.Background(), pat, ScanOptions{Order: o})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []IDQuad
	for it.Next() {
		out = append(out, it.Quad())
	}
	if it.Err() != nil {
		t.Fatal(it.Err())
	}
	return out
}
