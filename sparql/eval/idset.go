package eval

import "math/bits"

// An idSet also grows by adding keys one at a time: a rowSet of one
// column (the key of most anti-joins and semi-joins) is one, since a
// rowSet would keep each ID twice, in its rows and its hash index, and
// chase both on every probe. 0 (unbound) is kept apart from the slots.

// newIDSet returns an empty set sized for about n keys.
func newIDSet(n int) *idSet {
	s := &idSet{}
	s.size(max(16, 1<<bits.Len(uint(2*n))))
	return s
}

func (s *idSet) size(n int) {
	s.slots = make([]ID, n)
	s.shift = uint8(64 - bits.Len(uint(n-1)))
}

// add inserts k and reports whether it was absent.
func (s *idSet) add(k ID) bool {
	if k == 0 {
		added := !s.zero
		s.zero = true
		return added
	}
	if 2*(s.n+1) > len(s.slots) {
		old := s.slots
		s.size(2 * len(old))
		s.n = 0
		for _, v := range old {
			if v != 0 {
				s.add(v)
			}
		}
	}
	mask := len(s.slots) - 1
	for i := s.slot(k); ; i = (i + 1) & mask {
		switch s.slots[i] {
		case k:
			return false
		case 0:
			s.slots[i] = k
			s.n++
			return true
		}
	}
}

func (s *idSet) contains(k ID) bool {
	if k == 0 {
		return s.zero
	}
	return s.has(k)
}

// len is the number of keys held.
func (s *idSet) len() int {
	if s.zero {
		return s.n + 1
	}
	return s.n
}
