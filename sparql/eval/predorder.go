package eval

import "github.com/mneme-archive/mneme/graph"

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
