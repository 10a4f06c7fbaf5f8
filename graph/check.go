package graph

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cespare/xxhash/v2"

	"github.com/mneme-archive/mneme/graph/kv"
)

// maxProblems bounds how many problems Check lists.
const maxProblems = 50

// CheckReport is what Check found.
type CheckReport struct {
	Quads    uint64 // quads in the spog index
	Terms    uint64 // dictionary entries
	Problems []string
	// Truncated is set when more problems were found than listed.
	Truncated bool
}

// OK reports whether no problem was found.
func (r *CheckReport) OK() bool { return len(r.Problems) == 0 }

func (r *CheckReport) addf(format string, args ...any) {
	if len(r.Problems) >= maxProblems {
		r.Truncated = true
		return
	}
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}

// Check verifies the store: the six indexes hold the same quads, every ID
// they use is in the dictionary, every dictionary entry decodes and is
// where a lookup of its term finds it (no term under two IDs, no two terms
// under one), the value index holds exactly the dictionary's numbers and
// dates, and the statistics equal counts recomputed from the indexes.
// Problems are listed in the report; the error is for failing to read.
//
// The indexes are compared by count and an order-independent fingerprint
// (sum of a 64-bit hash per quad) in one sequential pass each; only an
// index that disagrees is compared key by key to name the quads.
func (v *View) Check(ctx context.Context) (*CheckReport, error) {
	rep := &CheckReport{}
	type sum struct{ n, fp uint64 }
	var sums [len(orders)]sum
	recount := newStatDelta()
	for i, o := range Orders() {
		var last IDQuad
		first := true
		err := scanIndex(ctx, v.r, o, func(q IDQuad) error {
			sums[i].n++
			sums[i].fp += quadHash(q)
			if q.S == Any || q.P == Any || q.O == Any || q.G == Any {
				rep.addf("%s: quad %v has a zero ID", o, q)
			}
			if err := v.checkColumnIDs(o, q, last, first, rep); err != nil {
				return err
			}
			switch o {
			case SPOG:
				recount.quads++
				recount.graphs[q.G]++
				c := recount.pred(q.P)
				c[0]++
				if first || last.S != q.S || last.P != q.P || last.O != q.O {
					recount.triples++
					c[1]++
				}
				if first || last.S != q.S || last.P != q.P {
					c[2]++
				}
			case POSG:
				if first || last.P != q.P || last.O != q.O {
					recount.pred(q.P)[3]++
				}
			}
			last, first = q, false
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	rep.Quads = sums[0].n
	for i, o := range Orders()[1:] {
		if sums[i+1] != sums[0] {
			rep.addf("index %s has %d quads (fingerprint %016x), spog has %d (%016x)", o, sums[i+1].n, sums[i+1].fp, sums[0].n, sums[0].fp)
			if err := v.diffIndex(ctx, o, rep); err != nil {
				return nil, err
			}
		}
	}
	if err := v.checkDictionary(ctx, rep); err != nil {
		return nil, err
	}
	if err := v.checkStats(recount, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

func quadHash(q IDQuad) uint64 {
	var b [32]byte
	binary.BigEndian.PutUint64(b[0:], uint64(q.S))
	binary.BigEndian.PutUint64(b[8:], uint64(q.P))
	binary.BigEndian.PutUint64(b[16:], uint64(q.O))
	binary.BigEndian.PutUint64(b[24:], uint64(q.G))
	return xxhash.Sum64(b[:])
}

// scanIndex calls fn for every quad of ordering o.
func scanIndex(ctx context.Context, r kv.Reader, o Order, fn func(IDQuad) error) error {
	tag := orders[o-1].tag
	it, err := r.NewIter([]byte{tag}, []byte{tag + 1})
	if err != nil {
		return err
	}
	defer it.Close()
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if len(it.Key()) != keyWidth {
			return fmt.Errorf("index %s: malformed key %x", o, it.Key())
		}
		if err := fn(decodeIndexKey(o, it.Key())); err != nil {
			return err
		}
	}
	return it.Err()
}

// checkColumnIDs checks that the IDs of an ordering's first column are in
// the dictionary. That column is sorted, so each distinct ID is checked
// once; spog, posg, ospg and gspo together cover s, p, o and g.
func (v *View) checkColumnIDs(o Order, q, last IDQuad, first bool, rep *CheckReport) error {
	pos := orders[o-1].perm[0]
	if o > GSPO || !first && last.at(pos) == q.at(pos) {
		return nil
	}
	id := q.at(pos)
	if id == Any || id == DefaultGraph && pos == 3 {
		return nil
	}
	ok, err := exists(v.r, dictKey(id))
	if err != nil {
		return err
	}
	if !ok {
		rep.addf("%s: ID %016x (%s of %v) is not in the dictionary", o, uint64(id), "spog"[pos:pos+1], q)
	}
	return nil
}

// diffIndex names the quads on which ordering o and spog disagree.
func (v *View) diffIndex(ctx context.Context, o Order, rep *CheckReport) error {
	missing := func(from, in Order) error {
		return scanIndex(ctx, v.r, from, func(q IDQuad) error {
			ok, err := exists(v.r, appendIndexKey(nil, in, q))
			if err == nil && !ok {
				rep.addf("quad %v is in %s but not in %s", q, from, in)
			}
			return err
		})
	}
	return errors.Join(missing(SPOG, o), missing(o, SPOG))
}

// checkDictionary decodes every entry and checks that a lookup of its term
// leads back to it.
func (v *View) checkDictionary(ctx context.Context, rep *CheckReport) error {
	it, err := v.r.NewIter([]byte{tagDict}, []byte{tagDict + 1})
	if err != nil {
		return err
	}
	defer it.Close()
	var want valueSum
	key := make([]byte, 0, valueKeyWidth)
	for ok := it.First(); ok; ok = it.Next() {
		if rep.Terms++; rep.Terms%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		k := it.Key()
		if len(k) != 9 {
			rep.addf("dictionary: malformed key %x", k)
			continue
		}
		id := ID(beUint64(k[1:]))
		enc := it.Value()
		if _, err := decodeTerm(enc); err != nil {
			rep.addf("dictionary: ID %016x: %v", uint64(id), err)
			continue
		}
		if e, ok := valueEntryOf(id, string(enc)); ok {
			want.add(e.appendKey(key[:0]))
		}
		if id == firstSlot(v.hash(enc)) {
			continue // the common case: no collision on the way
		}
		got, found, err := probe(v.r, v.hash(enc), enc, nil)
		if err != nil {
			return err
		}
		if !found || got != id {
			rep.addf("dictionary: term %q has ID %016x but a lookup finds %016x (found=%v)", enc, uint64(id), uint64(got), found)
		}
	}
	if err := it.Err(); err != nil || v.noValues {
		return err
	}
	return v.checkValueIndex(ctx, want, rep)
}

// valueSum is the count and an order-independent fingerprint of a set of
// value index keys.
type valueSum struct{ n, fp uint64 }

func (s *valueSum) add(key []byte) { s.n++; s.fp += xxhash.Sum64(key) }

// checkValueIndex compares the value index with the keys the dictionary
// entries call for (want).
func (v *View) checkValueIndex(ctx context.Context, want valueSum, rep *CheckReport) error {
	it, err := v.r.NewIter([]byte{tagValue}, []byte{tagValue + 1})
	if err != nil {
		return err
	}
	defer it.Close()
	var got valueSum
	for ok := it.First(); ok; ok = it.Next() {
		if got.n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		got.add(it.Key())
	}
	if got != want {
		rep.addf("value index: %d keys (fingerprint %016x), the dictionary's numbers and dates call for %d (%016x)", got.n, got.fp, want.n, want.fp)
	}
	return it.Err()
}

// checkStats compares the stored statistics with the recount.
func (v *View) checkStats(recount *statDelta, rep *CheckReport) error {
	st, err := v.Stats()
	if err != nil {
		rep.addf("statistics: %v", err)
		return nil
	}
	if uint64(recount.quads) != st.Quads || uint64(recount.triples) != st.Triples {
		rep.addf("statistics: stored %d quads, %d triples; indexes hold %d, %d", st.Quads, st.Triples, recount.quads, recount.triples)
	}
	for g, n := range recount.graphs {
		if st.Graphs[g] != uint64(n) {
			rep.addf("statistics: graph %016x: stored %d quads, index holds %d", uint64(g), st.Graphs[g], n)
		}
	}
	for g, n := range st.Graphs {
		if _, ok := recount.graphs[g]; !ok {
			rep.addf("statistics: graph %016x: stored %d quads, index holds none", uint64(g), n)
		}
	}
	for p, c := range recount.preds {
		s := st.Predicates[p]
		if got := [4]int64{int64(s.Quads), int64(s.Triples), int64(s.Subjects), int64(s.Objects)}; got != *c {
			rep.addf("statistics: predicate %016x: stored (quads, triples, subjects, objects) %v, indexes give %v", uint64(p), got, *c)
		}
	}
	for p := range st.Predicates {
		if _, ok := recount.preds[p]; !ok {
			rep.addf("statistics: predicate %016x has statistics but no quads", uint64(p))
		}
	}
	return nil
}

// Check runs View.Check on a snapshot, so that writes committed meanwhile
// cannot make consistent data look inconsistent.
func (s *Store) Check(ctx context.Context) (*CheckReport, error) {
	snap := s.Snapshot()
	defer snap.Close()
	return snap.Check(ctx)
}
