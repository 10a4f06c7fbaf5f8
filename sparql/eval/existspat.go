package eval

import (
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/sparql/algebra"
)

// existsPat is an EXISTS of one triple pattern evaluated per row: the
// pattern with the row's bindings substituted is looked up on a scan kept
// for its shape, the first agreeing quad answers, and no operator is
// opened per row (an EXISTS filter over many rows otherwise pays for a
// plan's iterators and rows each time).
type existsPat struct {
	pat   *quadPat
	empty bool   // a constant of the pattern is absent: nothing matches
	stats *Stats // rows that found a match, for EXPLAIN
	ends  [2]orderEnd
}

// existsPattern returns the per-row lookup of e when its pattern is one
// triple pattern (compiled as bn) without a graph variable or path; nil
// otherwise.
func existsPattern(e *algebra.Exists, bn *bgpNode) *existsPat {
	b, ok := e.Op.(*algebra.BGP)
	if !ok || len(b.Triples) != 1 || bn == nil || len(bn.pats) != 1 {
		return nil
	}
	p := &existsPat{pat: &bn.pats[0], empty: bn.empty}
	if p.pat.graphVar || p.pat.path != nil {
		return nil
	}
	if !p.empty {
		if len(bn.stats) == 0 {
			return nil
		}
		p.stats = bn.stats[0]
	}
	return p
}

// holds reports whether the pattern has a match agreeing with row in the
// graphs sel.
func (p *existsPat) holds(ex *Exec, row []ID, sel *graphSel) (bool, error) {
	if p.empty {
		return false, nil
	}
	if found, ok, err := p.orderHolds(ex, row, sel); ok || err != nil {
		if found {
			p.stats.Rows++
		}
		return found, err
	}
	pat := p.pat.pattern(row)
	key := scanKey{base: p.pat.pattern(nil), shape: patShape(pat), sel: sel}
	q := ex.idleScan(key)
	if q == nil {
		q = ex.scanShaped(key.base, pat, sel)
	}
	defer ex.putScan(key, q)
	q.reset(pat)
	for q.next() {
		if p.pat.matches(row, q.quad) {
			p.stats.Rows++
			return true, nil
		}
	}
	return false, q.err
}

// A pattern `?a p ?b` with one end bound by the row is also answered
// from the predicate's order sorted on that end (predorder.go): at once
// when the store has it derived already, else once the lookups made
// would have paid for deriving it (orderLookupWeight triples of the
// predicate's range per lookup).
const orderLookupWeight = 64

// orderEnd is the state of the order sorted on one end of the pattern.
type orderEnd struct {
	order   graph.PredicateOrder
	have    bool // order is set
	none    bool // the predicate's range is too large: never
	peeked  bool // a derived order was looked for without deriving
	lookups int  // rows looked up in the store so far
	from    int  // where the last key was found
}

// orderHolds answers holds from the predicate's order; ok is false when
// it cannot (the pattern or row does not qualify, or not yet).
func (p *existsPat) orderHolds(ex *Exec, row []ID, sel *graphSel) (found, ok bool, err error) {
	qp := p.pat
	if qp.graphVar || qp.path != nil || sel == nil || !sel.union {
		return false, false, nil
	}
	s, pr, o := qp.t[0], qp.t[1], qp.t[2]
	if pr.slot >= 0 || s.slot < 0 || o.slot < 0 || s.slot == o.slot {
		return false, false, nil
	}
	sv, ov := slot(row, s.slot), slot(row, o.slot)
	if (sv == 0) == (ov == 0) {
		return false, false, nil
	}
	end, k := 0, sv
	if sv == 0 {
		end, k = 1, ov
	}
	e := &p.ends[end]
	if !e.have {
		if e.none {
			return false, false, nil
		}
		e.lookups++
		build := float64(e.lookups)*orderLookupWeight >= qp.card
		if e.peeked && !build {
			return false, false, nil
		}
		e.peeked = true
		o, ok, err := ex.View.PredicateOrder(ex.Ctx, pr.id, end == 0, build)
		if err != nil || !ok {
			e.none = e.none || build
			return false, false, err
		}
		e.order, e.have = o, true
	}
	lo, hi := e.order.Run(k, e.from)
	e.from = lo
	return hi > lo, true, nil
}
