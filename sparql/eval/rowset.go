package eval

// rowSet is a set of rows of one width, kept as copies in one flat slice
// and found through a hashIndex: DISTINCT holds every distinct row, so a
// map keyed by strings (a header and an allocation per row) would cost
// it more than its input.
type rowSet struct {
	width int
	rows  []ID    // row i is rows[i*width : (i+1)*width]
	next  []int32 // the previous row of the same hash, or -1
	index *hashIndex
	ids   *idSet // instead of the above for rows of one column
}

func newRowSet(width int) *rowSet { return newRowSetFor(width, 0) }

// newRowSetFor returns a set sized for about n rows.
func newRowSetFor(width, n int) *rowSet {
	if width == 1 {
		return &rowSet{width: 1, ids: newIDSet(n)}
	}
	return &rowSet{width: width, index: newHashIndex(n)}
}

// add inserts row and reports whether it was absent. Slots beyond the
// set's width are ignored and missing ones count as unbound, as rows are
// cut to the execution's width.
func (s *rowSet) add(row []ID) bool {
	if s.ids != nil {
		return s.ids.add(slot(row, 0))
	}
	row = row[:min(len(row), s.width)]
	h, found := s.find(row)
	if found {
		return false
	}
	i := int32(len(s.next))
	s.rows = append(s.rows, row...)
	for range s.width - len(row) {
		s.rows = append(s.rows, 0)
	}
	s.next = append(s.next, s.index.put(h, i))
	return true
}

// contains reports whether row is in the set.
func (s *rowSet) contains(row []ID) bool {
	if s.ids != nil {
		return s.ids.contains(slot(row, 0))
	}
	_, found := s.find(row[:min(len(row), s.width)])
	return found
}

// find returns the hash of row and whether the set holds it.
func (s *rowSet) find(row []ID) (uint64, bool) {
	var h uint64
	for k := range s.width {
		h = hashIDs(h, slot(row, k))
	}
	for i := s.index.get(h); i >= 0; i = s.next[i] {
		if s.equal(int(i), row) {
			return h, true
		}
	}
	return h, false
}

// slot is row[k], unbound past its end.
func slot(row []ID, k int) ID {
	if k < len(row) {
		return row[k]
	}
	return 0
}

func (s *rowSet) equal(i int, row []ID) bool {
	stored := s.rows[i*s.width : (i+1)*s.width]
	for k, id := range stored {
		if slot(row, k) != id {
			return false
		}
	}
	return true
}

// len is the number of rows held.
func (s *rowSet) len() int {
	if s.ids != nil {
		return s.ids.len()
	}
	return len(s.next)
}

// reset empties the set, keeping its memory.
func (s *rowSet) reset() {
	if s.ids != nil {
		s.ids = newIDSet(0)
		return
	}
	s.rows, s.next = s.rows[:0], s.next[:0]
	s.index = newHashIndex(0)
}
