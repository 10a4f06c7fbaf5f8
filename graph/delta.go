package graph

import (
	"bytes"

	"github.com/mneme-archive/mneme/graph/kv"
)

// batchDelta computes how the statistics change when the quads added are
// inserted and the quads removed deleted. The distinct counts change when
// a prefix (s p o), (s p) or (p o) gains its first quad or loses its last:
// presence before comes from the store, presence after from the store
// minus the removed quads plus the added ones. A prefix naming a term new
// to the store (isNew) cannot be in it, a prefix extending one that
// stays present keeps its shorter prefixes present, and an (s p o) prefix
// whose (s p) the store lacks is absent too: none of these is read.
func (s *Store) batchDelta(runs *sortedRuns, removed []IDQuad, isNew func(ID) bool) (*statDelta, error) {
	added := runs.added
	d := newStatDelta()
	gone := make(map[IDQuad]bool, len(removed))
	for _, q := range removed {
		gone[q] = true
	}
	for _, q := range added {
		d.quads++
		d.graphs[q.G]++
		d.pred(q.P)[0]++
	}
	for _, q := range removed {
		d.quads--
		d.graphs[q.G]--
		d.pred(q.P)[0]--
	}
	// known[p] is true for a prefix that stays present (one it extends
	// does), false for one the store lacks (its (s p) prefix is absent).
	known := map[prefix]bool{}
	pr := presence{r: s.kv}
	defer pr.close()
	err := changedPrefixes(runs, removed, func(cp changedPrefix) error {
		p := cp.prefix
		var before, afterInStore bool
		if !isNew(p.q.S) && !isNew(p.q.P) && !isNew(p.q.O) {
			// (Checked first: most prefixes of a crawl's commit name a
			// new term, which costs no map lookup.)
			var err error
			if before, afterInStore, err = s.prefixPresence(p, len(removed) == 0, &pr, gone, known); err != nil {
				return err
			}
		}
		if p.n == 3 && afterInStore {
			known[prefix{SPOG, 2, IDQuad{S: p.q.S, P: p.q.P}}] = true
			known[prefix{POSG, 2, IDQuad{P: p.q.P, O: p.q.O}}] = true
		}
		after := afterInStore || cp.added
		if before == after {
			return nil
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
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// prefixPresence tells whether the store has a quad under p before and
// after the commit's deletions (gone), from what the commit learnt
// (known), the writers' cache of present prefixes (when nothing is
// deleted) or a read.
func (s *Store) prefixPresence(p prefix, addsOnly bool, pr *presence, gone map[IDQuad]bool, known map[prefix]bool) (before, after bool, err error) {
	if v, ok := known[p]; ok {
		return v, v, nil
	}
	if addsOnly && s.present.has(p) {
		return true, true, nil
	}
	if before, after, err = pr.of(p, gone, known); after && err == nil {
		s.present.add(p)
	}
	return before, after, err
}

// changedPrefix is a prefix of the quads a commit adds or removes, and
// whether one it adds has it.
type changedPrefix struct {
	prefix
	added bool
}

// changedPrefixes calls fn with each of the prefixes (s p o), then (s p),
// then (p o) of the quads added and removed, once, each kind in key order
// (so that presence reads seek forward): the quads added and those
// removed are sorted apart (radix sorts of their keys) and merged, which
// groups the quads sharing a prefix.
func changedPrefixes(runs *sortedRuns, removed []IDQuad, fn func(changedPrefix) error) error {
	var rems []cols
	group := func(o Order, ns ...int) error {
		adds := runs.of(o)
		rems, runs.tmp = sortRun(o, removed, rems, runs.tmp)
		for _, n := range ns {
			var first cols // of the current group
			var cur changedPrefix
			for i, j := 0, 0; i < len(adds) || j < len(rems); {
				var c cols
				add := j == len(rems) || i < len(adds) && cmpCols(adds[i], rems[j]) <= 0
				if add {
					c, i = adds[i], i+1
				} else {
					c, j = rems[j], j+1
				}
				if i+j == 1 || !samePrefix(c, first, n) {
					if i+j > 1 {
						if err := fn(cur); err != nil {
							return err
						}
					}
					first = c
					var p cols
					copy(p[:n], c[:n])
					cur = changedPrefix{prefix{o, uint8(n), unpermute(o, p)}, false}
				}
				cur.added = cur.added || add
			}
			if len(adds)+len(rems) > 0 {
				if err := fn(cur); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := group(SPOG, 3, 2); err != nil {
		return err
	}
	return group(POSG, 2)
}

func samePrefix(a, b cols, n int) bool {
	for i := range n {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// prefix is the first n columns of q in an ordering.
type prefix struct {
	order Order
	n     uint8
	q     IDQuad
}

func (p prefix) key() []byte { return appendIndexKey(nil, p.order, p.q)[:1+8*int(p.n)] }

// presence reads whether prefixes are in the store, with one iterator per
// ordering that seeks from prefix to prefix: creating an iterator costs
// more than a seek.
type presence struct {
	r   kv.Reader
	its map[Order]kv.Iterator
}

// of reports whether the store has a quad under p, and whether it still
// has one once the quads in gone are deleted. For an (s p o) prefix it
// seeks (s p) first: when the store lacks that, it lacks (s p o) too, and
// known records what it found of (s p), so that the (s p) prefix is not
// read again (a page's URL, named as a subject for the first time, costs
// one read, not two).
func (pr *presence) of(p prefix, gone map[IDQuad]bool, known map[prefix]bool) (before, after bool, err error) {
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
	if p.n == 3 && p.order == SPOG {
		sp := prefix{SPOG, 2, IDQuad{S: p.q.S, P: p.q.P}}
		if ok := it.SeekGE(key[:1+16]); !ok || !bytes.HasPrefix(it.Key(), key[:1+16]) {
			known[sp] = false
			return false, false, it.Err()
		}
		if len(gone) == 0 { // nothing deleted: (s p) stays present
			known[sp] = true
		}
	}
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
