package graph

import "sync"

// knownPrefixes is a loader's cache of the two-column key prefixes of
// one ordering (SPOG's subject and predicate, POSG's predicate and
// object) that its statistics found in the store (storeProbe). The
// prefixes a load asks about recur from group to group (an account's
// posts, a count's value, a hashtag), and each costs a seek through every
// level of the store that holds that ordering; a prefix found once stays
// in the store while the loader holds its write lock, as a load only
// adds. Its size is fixed, whatever the load: stripes (each with its own
// lock, for the merges that read at once) of two generations each, an
// entry found in the old one moving to the current one, so that the
// prefixes in use survive the turnover.
type knownPrefixes struct {
	stripes [knownPrefixStripes]prefixStripe
}

const (
	knownPrefixStripes = 16
	// knownPrefixesMax is the entries of each generation of a stripe (16
	// bytes each, in a table twice as large).
	knownPrefixesMax = 1 << 14
)

type prefixStripe struct {
	mu       sync.Mutex
	cur, old *prefixSet
}

func newKnownPrefixes() *knownPrefixes {
	k := &knownPrefixes{}
	for i := range k.stripes {
		k.stripes[i].cur = newPrefixSet(knownPrefixesMax)
	}
	return k
}

// stripe returns the stripe of the prefix a, b; IDs are hashes, whose top
// bits spread them.
func (k *knownPrefixes) stripe(a, b ID) *prefixStripe {
	return &k.stripes[(uint64(a)^uint64(b))>>60%knownPrefixStripes]
}

// has reports whether the prefix of columns a, b is known to be in the
// store.
func (k *knownPrefixes) has(a, b ID) bool {
	s := k.stripe(a, b)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur.has(a, b) {
		return true
	}
	if s.old == nil || !s.old.has(a, b) {
		return false
	}
	s.add(a, b)
	return true
}

// add records that the store holds the prefix of columns a, b.
func (k *knownPrefixes) add(a, b ID) {
	s := k.stripe(a, b)
	s.mu.Lock()
	s.add(a, b)
	s.mu.Unlock()
}

// add puts the prefix in the current generation; called with mu held.
func (s *prefixStripe) add(a, b ID) {
	if s.cur.n >= knownPrefixesMax {
		spare := s.old
		if spare == nil {
			spare = newPrefixSet(knownPrefixesMax)
		}
		spare.reset()
		s.old, s.cur = s.cur, spare
	}
	s.cur.add(a, b)
}

// prefixSet is an open-addressed set of pairs of IDs; the pair (Any,
// Any), never a prefix of named terms, marks a free slot.
type prefixSet struct {
	slots [][2]ID
	mask  uint64
	n     int
}

func newPrefixSet(n int) *prefixSet {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return &prefixSet{slots: make([][2]ID, size), mask: uint64(size - 1)}
}

// slot returns the slot of the pair (a, b), or the free slot where it
// goes. IDs are hashes: a multiply and a xor spread the pair.
func (s *prefixSet) slot(a, b ID) *[2]ID {
	for i := (uint64(a)*0x9e3779b97f4a7c15 ^ uint64(b)) & s.mask; ; i = (i + 1) & s.mask {
		if p := &s.slots[i]; *p == [2]ID{a, b} || *p == [2]ID{} {
			return p
		}
	}
}

func (s *prefixSet) has(a, b ID) bool { return *s.slot(a, b) == [2]ID{a, b} }

// add puts the pair in the set, which must have room for it.
func (s *prefixSet) add(a, b ID) {
	if p := s.slot(a, b); *p != [2]ID{a, b} {
		*p = [2]ID{a, b}
		s.n++
	}
}

func (s *prefixSet) reset() {
	clear(s.slots)
	s.n = 0
}
