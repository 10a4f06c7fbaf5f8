package eval

// A group over one triple pattern reads the pattern's quads straight
// into one reused row: no row is made per match, nor joined, since the
// group keeps only its keys and accumulators (see groupNode.pass).

// scanRows returns an iterator over the matches of sub when sub is a
// single triple pattern whose variables differ, each match written into
// the same row (the seed's copy); nil otherwise.
func scanRows(ex *Exec, sub node, e env) iter {
	cn, ok := sub.(*counted)
	if !ok {
		return nil
	}
	bn, ok := cn.n.(*bgpNode)
	if !ok || bn.empty || bn.lf != nil || len(bn.steps) != 1 {
		return nil
	}
	qp := &bn.pats[bn.steps[0].Pattern]
	if qp.graphVar {
		return nil
	}
	seen := map[int]bool{}
	for _, p := range qp.t {
		if p.slot >= 0 {
			if seen[p.slot] {
				return nil // ?x :p ?x: matches must be checked
			}
			seen[p.slot] = true
		}
	}
	row := ex.newRow(e.seed)
	return &scanRowIter{q: ex.scan(qp.pattern(row), e.graph), pat: qp, row: row,
		stats: [2]*Stats{cn.stats, bn.stats[0]}}
}

// scanRowIter yields a pattern's matches in one row, overwritten by
// each call of next.
type scanRowIter struct {
	q     *quadIter
	pat   *quadPat
	row   []ID
	n     int64
	stats [2]*Stats // the pattern's and its step's, for EXPLAIN
}

func (s *scanRowIter) next() ([]ID, error) {
	if !s.q.next() {
		return nil, s.q.err
	}
	q := s.q.quad
	vals := [4]ID{q.S, q.P, q.O, q.G}
	for k, p := range s.pat.t {
		if p.slot >= 0 {
			s.row[p.slot] = vals[k]
		}
	}
	s.n++
	return s.row, nil
}

func (s *scanRowIter) close() {
	s.q.close()
	for _, st := range s.stats {
		st.Rows += s.n
	}
	s.n = 0
}
