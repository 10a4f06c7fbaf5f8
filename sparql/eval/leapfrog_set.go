package eval

import "math/bits"

// idSet is an open-addressing hash set of the keys of one cursor range.
// A triejoin's count looks the keys of one range up in the others; where
// the same range of a cursor is probed again and again (the members of a
// department, under each of its professors in turn), a hash lookup of a
// few nanoseconds replaces a gallop through the sorted range.
type idSet struct {
	slots []ID // 0 (graph.Any, never a term's ID): empty
	shift uint8
	n     int  // keys in slots
	zero  bool // 0 was added (idset.go)
}

// reset fills s with keys (distinct and non-zero), reusing its memory.
func (s *idSet) reset(keys []ID) {
	n := 1 << bits.Len(uint(2*len(keys)))
	if cap(s.slots) >= n {
		s.slots = s.slots[:n]
		clear(s.slots)
	} else {
		s.slots = make([]ID, n)
	}
	s.shift = uint8(64 - bits.Len(uint(n-1)))
	s.n, s.zero = len(keys), false
	mask := n - 1
	for _, k := range keys {
		i := s.slot(k)
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = k
	}
}

// slot is k's first slot: the top bits of a Fibonacci hash, which spreads
// IDs however they were assigned.
func (s *idSet) slot(k ID) int { return int((uint64(k) * 0x9E3779B97F4A7C15) >> s.shift) }

func (s *idSet) has(k ID) bool {
	mask := len(s.slots) - 1
	for i := s.slot(k); ; i = (i + 1) & mask {
		switch s.slots[i] {
		case k:
			return true
		case 0:
			return false
		}
	}
}

// setWorth is how many probes into one cursor range, counted across
// counts, pay for hashing the range: an insert costs about an eighth of
// a galloping seek.
const setWorth = 8

// probeSet returns the hash set of c's current range when it is worth
// one: the range was probed before, by probes keys in all, as often as
// setWorth times its length. probes is this count's number of lookups.
func (c *lfCursor) probeSet(probes int) *idSet {
	if c.lo != c.setLo || c.hi != c.setHi {
		c.setLo, c.setHi, c.probes, c.hashed = c.lo, c.hi, 0, false
	}
	c.probes += probes
	if !c.hashed && c.probes*setWorth >= c.hi-c.lo && c.probes > probes {
		if c.set == nil {
			c.set = &idSet{}
		}
		c.set.reset(c.keys[c.lo:c.hi])
		c.hashed = true
	}
	if c.hashed {
		return c.set
	}
	return nil
}
