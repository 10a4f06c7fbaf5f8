package graph

import "encoding/binary"

// slotsScanMax is the most dictionary entries read to build a store's
// filter of taken slots (some seconds of reading); a larger dictionary
// gets none, and its loads read the dictionary for each new term.
const slotsScanMax = 16 << 20

// slotFilter returns the store's filter of the dictionary slots taken,
// building it on first use by reading the dictionary's keys. Every
// writer adds the slots it takes before writing them, so a slot the
// filter has never seen is free: a load (Loader.assign) gives a new term
// its first such slot without reading the store. The filter costs
// idFilterBits/8 bytes for the store's life, whatever its size. Called
// with wmu held; nil when the dictionary is too large to read at once
// (the attempt is not repeated).
func (s *Store) slotFilter() (*idFilter, error) {
	if s.slots != nil || s.slotsTried {
		return s.slots, nil
	}
	it, err := s.kv.NewIter([]byte{tagDict}, []byte{tagDict + 1})
	if err != nil {
		return nil, err
	}
	f := newIDFilter()
	n := 0
	for ok := it.First(); ok && n <= slotsScanMax; ok = it.Next() {
		if k := it.Key(); len(k) == 9 {
			f.add(ID(binary.BigEndian.Uint64(k[1:])))
			n++
		}
	}
	if err := it.Err(); err != nil {
		_ = it.Close()
		return nil, err
	}
	if err := it.Close(); err != nil {
		return nil, err
	}
	s.slotsTried = true
	if n <= slotsScanMax {
		s.slots = f
	}
	return s.slots, nil
}

// noteSlots adds the slots of terms about to be written to the store's
// filter, if it has one. Called with wmu held.
func (s *Store) noteSlots(p *pendingTerms) {
	if s.slots == nil {
		return
	}
	for id := range p.all() {
		s.slots.add(id)
	}
}
