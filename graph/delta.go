package graph

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/mneme-archive/mneme/graph/kv"
)

// batchDelta computes how the statistics change when the quads added are
// inserted and the quads removed deleted. The distinct counts change when
// a prefix (s p o), (s p) or (p o) gains its first quad or loses its last:
// presence before comes from the store, presence after from the store
// minus the removed quads plus the added ones. A prefix naming a term new
// to the store (isNew) cannot be in it, and a prefix extending one that
// stays present keeps its shorter prefixes present: neither is read.
func (s *Store) batchDelta(added, removed []IDQuad, isNew func(ID) bool) (*statDelta, error) {
	d := newStatDelta()
	gone := make(map[IDQuad]bool, len(removed))
	for _, q := range removed {
		gone[q] = true
	}
	addedHas := map[prefix]bool{}
	var prefixes []prefix
	seen := map[prefix]bool{}
	note := func(q IDQuad, sign int64) {
		d.quads += sign
		d.graphs[q.G] += sign
		d.pred(q.P)[0] += sign
		for _, p := range q.prefixes() {
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
	// (s p o) first: one that stays present settles its (s p) and (p o).
	slices.SortFunc(prefixes, func(a, b prefix) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return a.compare(b)
	})
	kept := map[prefix]bool{}
	pr := presence{r: s.kv}
	defer pr.close()
	for _, p := range prefixes {
		var before, afterInStore bool
		switch {
		case kept[p] || len(removed) == 0 && s.present.has(p):
			before, afterInStore = true, true
		case isNew(p.q.S) || isNew(p.q.P) || isNew(p.q.O):
		default:
			var err error
			if before, afterInStore, err = pr.of(p, gone); err != nil {
				return nil, err
			}
			if afterInStore {
				s.present.put(p)
			}
		}
		if p.n == 3 && afterInStore {
			kept[prefix{SPOG, 2, IDQuad{S: p.q.S, P: p.q.P}}] = true
			kept[prefix{POSG, 2, IDQuad{P: p.q.P, O: p.q.O}}] = true
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

// prefix is the first n columns of q in an ordering.
type prefix struct {
	order Order
	n     int
	q     IDQuad
}

// prefixes are the prefixes of q the statistics count: (s p o), (s p)
// and (p o).
func (q IDQuad) prefixes() [3]prefix {
	return [3]prefix{
		{SPOG, 3, IDQuad{S: q.S, P: q.P, O: q.O}},
		{SPOG, 2, IDQuad{S: q.S, P: q.P}},
		{POSG, 2, IDQuad{P: q.P, O: q.O}},
	}
}

func (p prefix) key() []byte { return appendIndexKey(nil, p.order, p.q)[:1+8*p.n] }

// compare orders prefixes of the same length as their keys are ordered.
func (p prefix) compare(o prefix) int {
	if c := cmp.Compare(p.order, o.order); c != 0 {
		return c
	}
	for _, pos := range orders[p.order-1].perm[:p.n] {
		if c := cmp.Compare(p.q.at(pos), o.q.at(pos)); c != 0 {
			return c
		}
	}
	return 0
}

// presence reads whether prefixes are in the store, with one iterator per
// ordering that seeks from prefix to prefix: creating an iterator costs
// more than a seek.
type presence struct {
	r   kv.Reader
	its map[Order]kv.Iterator
}

// of reports whether the store has a quad under p, and whether it still
// has one once the quads in gone are deleted.
func (pr *presence) of(p prefix, gone map[IDQuad]bool) (before, after bool, err error) {
	it := pr.its[p.order]
	if it == nil {
		tag := orders[p.order-1].tag
		if it, err = pr.r.NewIter([]byte{tag}, []byte{tag + 1}); err != nil {
			return false, false, err
		}
		if pr.its == nil {
			pr.its = map[Order]kv.Iterator{}
		}
		pr.its[p.order] = it
	}
	key := p.key()
	for ok := it.SeekGE(key); ok && bytes.HasPrefix(it.Key(), key); ok = it.Next() {
		before = true
		if !gone[decodeIndexKey(p.order, it.Key())] {
			return true, true, it.Err()
		}
	}
	return before, false, it.Err()
}

func (pr *presence) close() {
	for _, it := range pr.its {
		_ = it.Close()
	}
}
