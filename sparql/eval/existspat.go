package eval

import "github.com/mneme-archive/mneme/sparql/algebra"

// existsPat is an EXISTS of one triple pattern evaluated per row: the
// pattern with the row's bindings substituted is looked up on a scan kept
// for its shape, the first agreeing quad answers, and no operator is
// opened per row (an EXISTS filter over many rows otherwise pays for a
// plan's iterators and rows each time).
type existsPat struct {
	pat   *quadPat
	empty bool   // a constant of the pattern is absent: nothing matches
	stats *Stats // rows that found a match, for EXPLAIN
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
