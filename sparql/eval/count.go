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
	for {
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
