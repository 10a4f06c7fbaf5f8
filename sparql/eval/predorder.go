package eval

import (
	"strings"

	"github.com/mneme-archive/mneme/graph"
)

// A triple pattern `?a p ?b` (a constant predicate, two distinct
// variables) read in the union of all graphs is a predicate's whole
// range, and the store derives it sorted on either end and keeps it
// (graph.View.PredicateOrder). The anti-joins and semi-joins keyed on one
// end of such a pattern use it as their sorted key set instead of
// scanning and sorting the pattern on every run, and per-row EXISTS
// lookups of it binary-search it instead of seeking the store.

// predPattern returns the position (0 subject, 2 object) of slot in qp
// when qp, with seed substituted, is `?a p ?b` over the union of all
// graphs with neither variable bound; -1 otherwise.
func predPattern(qp *quadPat, seed []ID, sel *graphSel, slot int) int {
	if qp.graphVar || qp.path != nil || sel == nil || !sel.union {
		return -1
	}
	s, p, o := qp.t[0], qp.t[1], qp.t[2]
	if p.slot >= 0 || p.id == 0 || s.slot < 0 || o.slot < 0 || s.slot == o.slot {
		return -1
	}
	if qp.pattern(seed) != qp.pattern(nil) {
		return -1
	}
	switch slot {
	case s.slot:
		return 0
	case o.slot:
		return 2
	}
	return -1
}

// onePattern is the pattern of n when n is a basic graph pattern of one
// triple pattern, with its step's statistics.
func onePattern(n node) (*quadPat, *Stats) {
	if c, ok := n.(*counted); ok {
		n = c.n
	}
	bn, ok := n.(*bgpNode)
	if !ok || bn.empty || bn.lf != nil || len(bn.steps) != 1 || len(bn.stats) != 1 {
		return nil, nil
	}
	return &bn.pats[bn.steps[0].Pattern], bn.stats[0]
}

// orderKeys is the key set of one end of a predicate's triples: its
// order on that end, searched forward from the last key found, so that
// keys looked up in increasing order (a left side sorted on the key, the
// common case) walk it once.
type orderKeys struct {
	o    graph.PredicateOrder
	from int
}

func (k *orderKeys) add([]ID) bool { panic("orderKeys: add") }

func (k *orderKeys) contains(key []ID) bool {
	lo, hi := k.o.Run(key[0], k.from)
	k.from = lo
	return hi > lo
}

// orderedKeySet returns the key set of h from its right side's predicate
// order, when h is keyed on one end of a pattern `?a p ?b`; nil when it
// is not or the predicate's range is too large to cache.
func (h *existsHashNode) orderedKeySet(ex *Exec, e env) (keySet, error) {
	if len(h.keys) != 1 {
		return nil, nil
	}
	qp, st := onePattern(h.right)
	if qp == nil {
		return nil, nil
	}
	pos := predPattern(qp, e.seed, e.graph, h.keys[0])
	if pos < 0 {
		return nil, nil
	}
	o, ok, err := ex.View.PredicateOrder(ex.Ctx, qp.t[1].id, pos == 0, true)
	if err != nil || !ok {
		return nil, err
	}
	st.Rows += int64(o.Len())
	if !h.ordered {
		h.ordered = true
		if h.stats != nil {
			h.stats.Detail = h.detail()
		}
	}
	return &orderKeys{o: o}, nil
}

func (h *existsHashNode) setStats(st *Stats) { h.stats = st }

// orderCount counts a join of two patterns `?x p ?a`, `?x q ?b` (the
// first the step before s, scanned from the seed alone, the second s's,
// keyed on the one shared variable at either end of each) by merging the
// two predicates' orders sorted on the shared variable: the matches of
// a key are the product of its runs, and no row is made. ok is false
// when the step does not have that shape or an order cannot be had.
func (s *hashStep) orderCount() (n int64, ok bool, err error) {
	b, isBind := s.in.(*bindStep)
	if !isBind || len(s.key) != 1 || b.row != nil || b.batch != nil || b.eof {
		return 0, false, nil
	}
	seed, isSlice := b.in.(*sliceIter)
	if !isSlice || seed.i != 0 || len(seed.rows) != 1 {
		return 0, false, nil
	}
	row := seed.rows[0]
	v := s.pat.t[s.key[0]].slot
	pa, pb := predPattern(b.pat, row, s.sel, v), predPattern(s.pat, row, s.sel, v)
	if pa < 0 || pb < 0 || b.pat.t[2-pa].slot == s.pat.t[2-pb].slot {
		return 0, false, nil
	}
	ex := s.ex
	oa, ok, err := ex.View.PredicateOrder(ex.Ctx, b.pat.t[1].id, pa == 0, true)
	if err != nil || !ok {
		return 0, false, err
	}
	ob, ok, err := ex.View.PredicateOrder(ex.Ctx, s.pat.t[1].id, pb == 0, true)
	if err != nil || !ok {
		return 0, false, err
	}
	seed.i++ // the seed is consumed
	b.stats.Rows += int64(oa.Len())
	if s.stats.Detail != "" && !strings.HasSuffix(s.stats.Detail, orderMergeDetail) {
		s.stats.Detail += orderMergeDetail
	}
	i, j := 0, 0
	for i < oa.Len() && j < ob.Len() {
		if err := ex.tick(); err != nil {
			return n, true, err
		}
		ka, kb := oa.Key[i], ob.Key[j]
		switch {
		case ka < kb:
			i, _ = oa.Run(kb, i)
		case kb < ka:
			j, _ = ob.Run(ka, j)
		default:
			_, ie := oa.Run(ka, i)
			_, je := ob.Run(kb, j)
			n += int64(ie-i) * int64(je-j)
			i, j = ie, je
		}
	}
	s.stats.Rows += n
	return n, true, nil
}

// orderMergeDetail marks a step counted by orderCount in EXPLAIN.
const orderMergeDetail = ", counted by merging the predicates' orders"

// countRuns counts the rows an anti-join or semi-join on one key keeps
// when its left side is one pattern whose range is cached and sorted on
// the key: a run of the range is one key, tested once, its triples
// counted without a row made each. ok is false when it is not so.
func (it *existsHashIter) countRuns(sr *scanRowIter) (n int64, ok bool, err error) {
	if len(it.h.keys) != 1 {
		return 0, false, nil
	}
	pos := -1
	for k, p := range sr.pat.t {
		if p.slot >= 0 && p.slot == it.h.keys[0] {
			pos = k
		}
	}
	if pos < 0 {
		return 0, false, nil
	}
	r, ok := sr.q.cachedRange()
	if !ok {
		return 0, false, nil
	}
	if free, ok := r.FirstFree(); !ok || free != pos {
		return 0, false, nil
	}
	key := it.key[:1]
	for i := 0; i < r.Len(); {
		if err := it.ex.tick(); err != nil {
			return n, true, err
		}
		v, end, triples := r.Run(i)
		i = end
		sr.n += int64(triples)
		key[0] = v
		if it.set.contains(key) != it.h.not {
			n += int64(triples)
		}
	}
	return n, true, nil
}
