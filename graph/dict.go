package graph

import (
	"bytes"
	"errors"

	"github.com/cespare/xxhash/v2"

	"github.com/mneme-archive/mneme/graph/kv"
)

// The dictionary maps each term to a 64-bit ID derived from a hash of its
// encoding, so that parallel encoders need no shared counter and a term's
// ID is found without an index of its own. Collisions are resolved by open
// addressing: a term takes the first free slot of its probe sequence. As
// dictionary entries are never deleted, a lookup that reaches a free slot
// knows the term is absent, and two terms never share an ID.

// shardBits is the number of high ID bits that probing never changes: the
// probe sequence of a hash stays in one of 1<<shardBits shards, which lets
// the loader resolve new terms under per-shard locks.
const shardBits = 6

const lowMask = uint64(1)<<(64-shardBits) - 1

// hashFunc hashes a term encoding. It is a variable only so that tests can
// force collisions; a store must always be used with the same function.
type hashFunc func([]byte) uint64

func defaultHash(b []byte) uint64 { return xxhash.Sum64(b) }

// firstSlot is the start of a hash's probe sequence.
func firstSlot(h uint64) ID { return skipReserved(ID(h)) }

// nextSlot is the slot probed after id.
func nextSlot(id ID) ID {
	u := uint64(id)
	return skipReserved(ID(u&^lowMask | (u+1)&lowMask))
}

// skipReserved moves off the IDs that are not terms (Any, DefaultGraph).
func skipReserved(id ID) ID {
	if id < firstTermID {
		return firstTermID
	}
	return id
}

func shardOf(id ID) int { return int(uint64(id) >> (64 - shardBits)) }

// errCorruptDictionary is wrapped by lookups that find the dictionary in a
// state it can never be written in.
var errCorruptDictionary = errors.New("corrupt dictionary")

// getter reads one key: a kv.Reader, or a loader's kv.Prober.
type getter interface {
	Get(key []byte) ([]byte, error)
}

// probe finds the ID of the term encoded as enc: the slot holding it, or
// (found=false) the first free slot of its probe sequence, which is where
// it goes if added. Slots are looked up in the pending tables first, then
// in the store — unless storeFree (when not nil) says the store cannot
// hold that slot.
func probe(r getter, h uint64, enc []byte, storeFree func(ID) bool, pending ...*pendingTerms) (id ID, found bool, err error) {
	return probeCached(r, h, enc, storeFree, nil, pending...)
}

// probeCached is probe, which before it reads the store asks cache, the
// terms found there before (if not nil), and adds to it a term it finds
// there.
func probeCached(r getter, h uint64, enc []byte, storeFree func(ID) bool, cache *foundTerms, pending ...*pendingTerms) (id ID, found bool, err error) {
	id = firstSlot(h)
	// The first slots of the pending tables are read before any is
	// compared, so that their cache misses overlap.
	var first [2]pendingSlot
	for i, p := range pending[:min(len(pending), len(first))] {
		if p != nil {
			first[i] = p.first(id)
		}
	}
	asked := false
	for n := range 1 << 16 {
		occupied := false
		for i, p := range pending {
			if p == nil {
				continue
			}
			var t []byte
			var ok bool
			if n == 0 && i < len(first) {
				t, ok = p.getFrom(id, first[i])
			} else {
				t, ok = p.get(id)
			}
			if ok {
				if string(t) == string(enc) {
					return id, true, nil
				}
				occupied = true
				break
			}
		}
		if !occupied && storeFree != nil && storeFree(id) {
			return id, false, nil
		}
		if !occupied {
			if cache != nil && !asked {
				if known, ok := cache.lookup(h, enc); ok {
					return known, true, nil
				}
				asked = true // it does not hold the term
			}
			v, err := r.Get(dictKey(id))
			switch {
			case errors.Is(err, kv.ErrNotFound):
				return id, false, nil
			case err != nil:
				return 0, false, err
			case bytes.Equal(v, enc):
				if cache != nil {
					cache.put(h, enc, id)
				}
				return id, true, nil
			}
		}
		id = nextSlot(id)
	}
	return 0, false, errCorruptDictionary
}

// idSet is a set of IDs in one open-addressed table: IDs are hashes, so
// their low bits spread them, and a lookup is a probe or two where a map
// would hash again. It answers "is this term new to the store?" for every
// position of every quad a commit writes.
type idSet struct {
	slots []ID // 0 (Any, never a term's ID) marks a free slot
	mask  uint64
}

// newIDSet holds the IDs of the pending terms.
func newIDSet(p *pendingTerms) *idSet {
	s := makeIDSet(p.len())
	for id := range p.all() {
		s.add(id)
	}
	return s
}

// makeIDSet returns an empty set with room for n IDs.
func makeIDSet(n int) *idSet {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return &idSet{slots: make([]ID, size), mask: uint64(size - 1)}
}

// add puts id in the set; the set must have room for it.
func (s *idSet) add(id ID) {
	i := uint64(id) & s.mask
	for s.slots[i] != Any && s.slots[i] != id {
		i = (i + 1) & s.mask
	}
	s.slots[i] = id
}

func (s *idSet) has(id ID) bool {
	if id == Any { // an unbound column of a prefix
		return false
	}
	for i := uint64(id) & s.mask; ; i = (i + 1) & s.mask {
		switch s.slots[i] {
		case id:
			return true
		case Any:
			return false
		}
	}
}
