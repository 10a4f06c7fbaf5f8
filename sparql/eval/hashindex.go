package eval

import "math/bits"

// hashIndex maps 64-bit hashes to the head of a chain that its user
// threads through a slice of its own (next[i] = the entry before i), by
// open addressing with linear probing on two flat slices: no allocation
// per key and no pointers for the garbage collector to trace, which a Go
// map of the same size costs several times over.
type hashIndex struct {
	keys  []uint64
	heads []int32 // head+1 of the chain; 0 marks a free slot
	n     int
	shift uint // 64 - log2(len(keys))
}

// newHashIndex returns an index sized for about n keys.
func newHashIndex(n int) *hashIndex {
	h := &hashIndex{}
	h.alloc(max(16, 1<<bits.Len(uint(n)*2)))
	return h
}

func (h *hashIndex) alloc(size int) {
	h.keys = make([]uint64, size)
	h.heads = make([]int32, size)
	h.shift = uint(64 - bits.TrailingZeros(uint(size)))
}

// slot is the slot holding k, or the free one where k goes. Fibonacci
// hashing spreads keys whose low bits agree.
func (h *hashIndex) slot(k uint64) int {
	mask := len(h.keys) - 1
	i := int((k * 0x9e3779b97f4a7c15) >> h.shift)
	for h.heads[i] != 0 && h.keys[i] != k {
		i = (i + 1) & mask
	}
	return i
}

// get returns the head of k's chain, or -1.
func (h *hashIndex) get(k uint64) int32 {
	return h.heads[h.slot(k)] - 1
}

// put makes head the head of k's chain and returns the previous head, or
// -1 when k is new.
func (h *hashIndex) put(k uint64, head int32) int32 {
	if 2*(h.n+1) > len(h.keys) {
		h.grow()
	}
	i := h.slot(k)
	prev := h.heads[i] - 1
	if prev < 0 {
		h.n++
		h.keys[i] = k
	}
	h.heads[i] = head + 1
	return prev
}

func (h *hashIndex) grow() {
	keys, heads := h.keys, h.heads
	h.alloc(2 * len(keys))
	for i, hd := range heads {
		if hd != 0 {
			j := h.slot(keys[i])
			h.keys[j], h.heads[j] = keys[i], hd
		}
	}
}

// len is the number of distinct keys.
func (h *hashIndex) len() int { return h.n }

// hashIDs combines IDs into one hash (a single ID is its own hash: IDs
// are hashes already).
func hashIDs(h uint64, id ID) uint64 { return (h^uint64(id))*0x9e3779b97f4a7c15 + 1 }
