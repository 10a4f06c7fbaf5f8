package graph

import (
	"context"
	"fmt"

	"github.com/mneme-archive/mneme/graph/kv"
	"github.com/mneme-archive/mneme/rdf"
)

// Batch collects quad insertions and deletions that Commit applies in one
// atomic write: all indexes, new dictionary entries and statistics change
// together or not at all. Operations apply in the order they were made;
// inserting a quad the store holds, or deleting one it lacks, changes
// nothing. A Batch is not safe for concurrent use.
type Batch struct {
	s   *Store
	ops []batchOp
}

type batchOp struct {
	q   rdf.Quad
	del bool
}

// NewBatch starts a batch.
func (s *Store) NewBatch() *Batch { return &Batch{s: s} }

// Add records the insertion of q (copied).
func (b *Batch) Add(q rdf.Quad) { b.ops = append(b.ops, batchOp{q: q.Clone()}) }

// Delete records the deletion of q (copied).
func (b *Batch) Delete(q rdf.Quad) { b.ops = append(b.ops, batchOp{q: q.Clone(), del: true}) }

// Len is the number of operations recorded.
func (b *Batch) Len() int { return len(b.ops) }

// CommitResult tells what a commit changed.
type CommitResult struct {
	Added, Deleted int // quads that were new / that were present
}

// Commit validates every inserted quad, then applies the batch atomically
// and durably. The batch is empty afterwards.
func (b *Batch) Commit(ctx context.Context) (CommitResult, error) {
	s := b.s
	if s.ReadOnly() {
		return CommitResult{}, ErrReadOnly
	}
	for i, op := range b.ops {
		if op.del {
			continue
		}
		if err := op.q.Validate(); err != nil {
			return CommitResult{}, fmt.Errorf("quad %d of batch: %w", i+1, err)
		}
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	w := s.kv.NewBatch()
	defer w.Close()

	pending := newPendingTerms()
	final := map[IDQuad]bool{}
	var touched []IDQuad
	for _, op := range b.ops {
		if err := ctx.Err(); err != nil {
			return CommitResult{}, err
		}
		var q IDQuad
		known := true
		for pos, t := range [4]rdf.Term{op.q.S, op.q.P, op.q.O, op.q.G} {
			id, ok, err := s.resolve(t, pending, !op.del)
			if err != nil {
				return CommitResult{}, err
			}
			known = known && ok
			q.set(pos, id)
		}
		if !known { // a deletion naming a term the store never held
			continue
		}
		if _, seen := final[q]; !seen {
			touched = append(touched, q)
		}
		final[q] = !op.del
	}
	var added, removed []IDQuad
	for _, q := range touched {
		had, err := exists(s.kv, appendIndexKey(nil, SPOG, q))
		if err != nil {
			return CommitResult{}, err
		}
		switch {
		case final[q] && !had:
			added = append(added, q)
		case !final[q] && had:
			removed = append(removed, q)
		}
	}
	if len(added) == 0 && len(removed) == 0 {
		b.ops = b.ops[:0]
		return CommitResult{}, nil
	}
	delta, err := s.batchDelta(added, removed)
	if err != nil {
		return CommitResult{}, err
	}
	stats, err := delta.apply(s.kv)
	if err != nil {
		return CommitResult{}, err
	}
	for id, enc := range pending.byID {
		w.Set(dictKey(id), []byte(enc))
	}
	var key []byte
	for _, q := range added {
		for _, o := range Orders() {
			key = appendIndexKey(key[:0], o, q)
			w.Set(key, nil)
		}
	}
	for _, q := range removed {
		for _, o := range Orders() {
			key = appendIndexKey(key[:0], o, q)
			w.Delete(key)
		}
	}
	for _, sw := range stats {
		if sw.val == nil {
			w.Delete(sw.key)
		} else {
			w.Set(sw.key, sw.val)
		}
	}
	if err := w.Commit(); err != nil {
		return CommitResult{}, err
	}
	b.ops = b.ops[:0]
	return CommitResult{Added: len(added), Deleted: len(removed)}, nil
}

// resolve maps a term to its ID, giving it a new one (recorded in
// pending) when assign is set; ok is false for an unknown term otherwise.
func (s *Store) resolve(t rdf.Term, pending *pendingTerms, assign bool) (ID, bool, error) {
	if t.IsZero() {
		return DefaultGraph, true, nil
	}
	enc := appendTerm(nil, t)
	if id, ok := pending.byTerm[string(enc)]; ok {
		return id, true, nil
	}
	id, found, err := probe(s.kv, s.hash(enc), enc, nil, pending)
	if err != nil || found {
		return id, found, err
	}
	if !assign {
		return Any, false, nil
	}
	pending.add(string(enc), id)
	return id, true, nil
}

// batchDelta computes how the statistics change when the quads added are
// inserted and the quads removed deleted. The distinct counts change when
// a prefix (s p o), (s p) or (p o) gains its first quad or loses its last:
// presence before comes from the store, presence after from the store
// minus the removed quads plus the added ones.
func (s *Store) batchDelta(added, removed []IDQuad) (*statDelta, error) {
	d := newStatDelta()
	gone := make(map[IDQuad]bool, len(removed))
	for _, q := range removed {
		gone[q] = true
	}
	type prefix struct {
		order Order
		n     int // columns
		q     IDQuad
	}
	addedHas := map[prefix]bool{}
	var prefixes []prefix
	seen := map[prefix]bool{}
	note := func(q IDQuad, sign int64) {
		d.quads += sign
		d.graphs[q.G] += sign
		d.pred(q.P)[0] += sign
		for _, p := range []prefix{
			{SPOG, 3, IDQuad{S: q.S, P: q.P, O: q.O}},
			{SPOG, 2, IDQuad{S: q.S, P: q.P}},
			{POSG, 2, IDQuad{P: q.P, O: q.O}},
		} {
			if sign > 0 {
				addedHas[p] = true
			}
			if !seen[p] {
				seen[p] = true
				prefixes = append(prefixes, p)
			}
		}
	}
	for _, q := range added {
		note(q, 1)
	}
	for _, q := range removed {
		note(q, -1)
	}
	for _, p := range prefixes {
		key := appendIndexKey(nil, p.order, p.q)[:1+8*p.n]
		before, afterInStore, err := prefixPresence(s.kv, key, p.order, gone)
		if err != nil {
			return nil, err
		}
		after := afterInStore || addedHas[p]
		if before == after {
			continue
		}
		sign := int64(1)
		if before {
			sign = -1
		}
		col := 2 // (s p) → distinct subjects
		switch {
		case p.order == POSG:
			col = 3 // (p o) → distinct objects
		case p.n == 3:
			col = 1 // (s p o) → distinct triples
			d.triples += sign
		}
		d.pred(p.q.P)[col] += sign
	}
	return d, nil
}

// prefixPresence reports whether the store has a quad under key prefix,
// and whether it still has one once the quads in gone are deleted.
func prefixPresence(r kv.Reader, prefix []byte, o Order, gone map[IDQuad]bool) (before, after bool, err error) {
	it, err := r.NewIter(prefix, kv.PrefixEnd(prefix))
	if err != nil {
		return false, false, err
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		before = true
		if !gone[decodeIndexKey(o, it.Key())] {
			return true, true, it.Err()
		}
	}
	return before, false, it.Err()
}
