package eval

import "github.com/mneme-archive/mneme/graph"

// A COUNT(*) over a basic graph pattern asks the pattern's last step to
// count its matches (see counter): the step looks its input rows up as
// it would to join them, but makes no row per match.

// matches reports whether q extends row consistently: extend would not
// return nil.
func (qp *quadPat) matches(row []ID, q graph.IDQuad) bool {
	vals := [4]ID{q.S, q.P, q.O, q.G}
	var set [4]int // slots this quad binds, for a variable twice in qp
	var setVal [4]ID
	n := 0
	for k, p := range qp.t {
		if p.slot < 0 {
			continue
		}
		cur := slot(row, p.slot)
		for j := range n {
			if set[j] == p.slot {
				cur = setVal[j]
			}
		}
		if cur == vals[k] {
			continue
		}
		if cur != 0 {
			return false
		}
		set[n], setVal[n] = p.slot, vals[k]
		n++
	}
	return true
}

// count consumes the step and returns its number of matches.
func (s *bindStep) count() (int64, bool, error) {
	var n int64
	defer func() { s.stats.Rows += n }()
	whole := s.countLookups()
	for {
		if s.scan != nil && whole {
			c, ok, err := s.scan.count()
			n += c
			if err != nil {
				s.scan = nil
				return n, true, err
			}
			if ok {
				s.scan = nil
				continue
			}
		}
		if s.scan != nil {
			for s.scan.next() {
				if err := s.ex.tick(); err != nil {
					return n, true, err
				}
				if s.pat.matches(s.row, s.scan.quad) {
					n++
				}
			}
			err := s.scan.err
			s.scan = nil
			if err != nil {
				return n, true, err
			}
		}
		for _, m := range s.found {
			if err := s.ex.tick(); err != nil {
				return n, true, err
			}
			if s.pat.matches(s.batch[m.i].row, m.quad) {
				n++
			}
		}
		s.found = nil
		if s.help != nil && s.bi == s.help.from {
			h := s.help
			<-h.done
			s.help = nil
			if h.err != nil {
				return n, true, h.err
			}
			s.found, s.bi = h.found, h.next
			continue
		}
		if s.bi == len(s.batch) {
			if err := s.fill(); err != nil {
				return n, true, err
			}
			if len(s.batch) == 0 {
				return n, true, nil
			}
		}
		l := &s.batch[s.bi]
		s.bi++
		s.row = l.row
		s.scan = lookupScan(s.ex, &s.scans, s, l.pat, true)
	}
}

// countLookups is count for a pattern whose variables all differ: every
// quad a lookup finds extends its row, so each lookup's scan counts its
// quads (from the statistics or the posting cache) without a match
// check per quad.
func (s *bindStep) countLookups() bool {
	if s.pat.path != nil || s.pat.graphVar {
		return false
	}
	var seen [4]int
	n := 0
	for _, p := range s.pat.t {
		if p.slot < 0 {
			continue
		}
		for _, v := range seen[:n] {
			if v == p.slot {
				return false
			}
		}
		seen[n] = p.slot
		n++
	}
	return true
}

// count consumes a scan that has not started and returns its number of
// quads: a union scan of one predicate from the statistics (its distinct
// triples), a scan of one graph by graph.QuadIter.Count. ok is false
// (nothing consumed) for graph-variable scans and merges of several
// graphs, which filter or deduplicate quads one by one.
func (q *quadIter) count() (n int64, ok bool, err error) {
	if q.sel == nil || !q.sel.union && len(q.sel.ids) > 1 || q.cur != nil || q.i > 0 || q.err != nil {
		return 0, false, nil
	}
	p := q.pat
	if q.sel.union && p.P != graph.Any && p.S == graph.Any && p.O == graph.Any {
		ps, err := q.ex.View.PredicateStats(p.P)
		q.i = 1 // consumed: a union scan has one graph
		return int64(ps.Triples), true, err
	}
	if !q.open() {
		return 0, true, q.err
	}
	n, err = q.cur.Count()
	q.cur = nil
	return n, true, err
}

// cachedRange opens a scan that has not started and returns its range
// when the posting cache holds it whole (graph.QuadIter.Cached); the
// scan stays usable either way. Only a scan of one graph, or of the
// union of all, reads one range.
func (q *quadIter) cachedRange() (graph.CachedRange, bool) {
	if q.sel == nil || !q.sel.union && len(q.sel.ids) > 1 || q.cur != nil || q.i > 0 || q.err != nil {
		return graph.CachedRange{}, false
	}
	if !q.open() {
		return graph.CachedRange{}, false
	}
	return q.cur.Cached()
}

// count counts the rest of the pattern's matches.
func (s *scanRowIter) count() (int64, bool, error) {
	n, ok, err := s.q.count()
	s.n += n
	return n, ok, err
}

// count counts the path's matches for the input rows. Both ends free
// (two different variables), a link or an alternative of links matches
// its predicates' quads, counted as scans; otherwise the pairs of each
// row's walk that fit the row are counted.
func (s *pathBindStep) count() (int64, bool, error) {
	var n int64
	defer func() { s.stats.Rows += n }()
	for {
		row, err := pull(s.ex, s.in)
		if err != nil || row == nil {
			return n, true, err
		}
		a, b := s.pn.ends(row)
		if a == 0 && b == 0 && s.pn.s.slot != s.pn.o.slot {
			if links, ok := altLinks(s.pn.p); ok {
				c, err := s.pe.linkCount(links)
				n += c
				if err != nil {
					return n, true, err
				}
				continue
			}
		}
		prs, ok := s.memo[[2]ID{a, b}]
		if !ok {
			if prs, err = s.pn.match(s.pe, row); err != nil {
				return n, true, err
			}
			if s.held+len(prs) <= pathMemoMax {
				s.memo[[2]ID{a, b}] = prs
				s.held += len(prs)
			}
		}
		for _, pr := range prs {
			if s.pn.fits(row, pr) {
				n++
			}
		}
	}
}

// fits reports whether extend would extend row with pr, without making
// the row.
func (n *pathNode) fits(row []ID, pr [2]ID) bool {
	setSlot, setVal := -1, ID(0)
	for i, p := range [2]pos{n.s, n.o} {
		v := pr[i]
		if p.slot < 0 {
			if p.id != v {
				return false
			}
			continue
		}
		cur := slot(row, p.slot)
		if p.slot == setSlot {
			cur = setVal
		}
		if cur == v {
			continue
		}
		if cur != 0 {
			return false
		}
		setSlot, setVal = p.slot, v
	}
	return true
}

// linkCount is the number of pairs linkPairs returns.
func (pe *pathEval) linkCount(links []*pLink) (int64, error) {
	var n int64
	for _, l := range links {
		if l.absent {
			continue
		}
		q := pe.ex.scan(graph.Pattern{P: l.id}, pe.sel)
		c, ok, err := q.count()
		for !ok && q.next() {
			if err = pe.ex.tick(); err != nil {
				break
			}
			c++
		}
		if !ok && err == nil {
			err = q.err
		}
		q.close()
		n += c
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
