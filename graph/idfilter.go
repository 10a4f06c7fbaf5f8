package graph

import "sync/atomic"

// idFilter is a fixed-size Bloom filter of the dictionary slots taken in
// a store (Store.slotFilter): a slot it has never seen is free without
// asking the store, which spares most new terms of a load a read. It is
// an accelerator only: a false positive costs a read, and past its design size it just answers "maybe"
// more often, so memory stays fixed whatever the input.
type idFilter struct{ words []atomic.Uint64 }

// idFilterBits is 2^29 bits (64 MiB): under 1% false positives up to about
// 50 million terms.
const idFilterBits = 1 << 29

func newIDFilter() *idFilter { return &idFilter{words: make([]atomic.Uint64, idFilterBits/64)} }

// bits derives four bit positions from an ID, itself a hash, all in one
// 64-byte block (a blocked Bloom filter): a lookup or an insertion costs
// one cache miss, not four, for a slightly higher false-positive rate.
func (f *idFilter) bits(id ID) [4]uint64 {
	block, h := blockOf(id)
	h *= 0x94d049bb133111eb
	var out [4]uint64
	for i := range out {
		out[i] = block + (h>>(64-9*(i+1)))&511
	}
	return out
}

// blockOf returns the first bit of id's block, and the hash it derives
// the block from.
func blockOf(id ID) (block, h uint64) {
	h = uint64(id)
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 32
	return (h % (idFilterBits / 512)) * 512, h
}

func (f *idFilter) add(id ID) {
	for _, b := range f.bits(id) {
		f.words[b/64].Or(1 << (b % 64))
	}
}

func (f *idFilter) mayContain(id ID) bool {
	for _, b := range f.bits(id) {
		if f.words[b/64].Load()&(1<<(b%64)) == 0 {
			return false
		}
	}
	return true
}

// touch reads the block of id's bits, so that a lookup soon after finds
// it in the CPU's cache: a caller that has other reads to wait for makes
// this one beside them.
func (f *idFilter) touch(id ID) {
	block, _ := blockOf(id)
	f.words[block/64].Load()
}
