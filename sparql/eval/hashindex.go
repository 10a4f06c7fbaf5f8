package eval

import "math/bits"

// hashIndex maps 64-bit hashes to the head of a chain that its user
// threads through a slice of its own (next[i] = the entry before i), by
// open addressing with linear probing on one flat slice: no allocation
// per key and no pointers for the garbage collector to trace, which a Go
// map of the same size costs several times over. A key and its head
// share a cache line, so a probe of a large table costs one miss.
type hashIndex struct {
	slots []hashSlot
	n     int
	shift uint // 64 - log2(len(slots))
}

type hashSlot struct {
	key  uint64
	head int32 // head+1 of the chain; 0 marks a free slot
}

// newHashIndex returns an index sized for about n keys.
func newHashIndex(n int) *hashIndex {
	h := &hashIndex{}
	h.alloc(max(16, 1<<bits.Len(uint(n)*2)))
	return h
}

func (h *hashIndex) alloc(size int) {
	h.slots = make([]hashSlot, size)
	h.shift = uint(64 - bits.TrailingZeros(uint(size)))
}

// slot is the slot holding k, or the free one where k goes. Fibonacci
// hashing spreads keys whose low bits agree.
func (h *hashIndex) slot(k uint64) int {
	mask := len(h.slots) - 1
	i := int((k * 0x9e3779b97f4a7c15) >> h.shift)
	for h.slots[i].head != 0 && h.slots[i].key != k {
		i = (i + 1) & mask
	}
	return i
}

// get returns the head of k's chain, or -1.
func (h *hashIndex) get(k uint64) int32 {
	return h.slots[h.slot(k)].head - 1
}

// put makes head the head of k's chain and returns the previous head, or
// -1 when k is new.
func (h *hashIndex) put(k uint64, head int32) int32 {
	if 2*(h.n+1) > len(h.slots) {
		h.grow()
	}
	i := h.slot(k)
	prev := h.slots[i].head - 1
	if prev < 0 {
		h.n++
		h.slots[i].key = k
	}
	h.slots[i].head = head + 1
	return prev
}

func (h *hashIndex) grow() {
	old := h.slots
	h.alloc(2 * len(old))
	for _, s := range old {
		if s.head != 0 {
			h.slots[h.slot(s.key)] = s
		}
	}
}

// len is the number of distinct keys.
func (h *hashIndex) len() int { return h.n }

// hashIDs combines IDs into one hash (a single ID is its own hash: IDs
// are hashes already).
func hashIDs(h uint64, id ID) uint64 { return (h^uint64(id))*0x9e3779b97f4a7c15 + 1 }
