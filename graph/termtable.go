package graph

import (
	"encoding/binary"
	"iter"
	"slices"
)

// Term tables of the write path. A bulk load gives IDs to millions of
// terms; held as Go strings in maps, each is an object the collector
// traces and a string hashed again by every map it enters. These tables
// keep the encodings in an arena of large chunks and index them by
// fixed-size slots (an ID, or the term's dictionary hash), so a term
// costs no object of its own and is hashed once.

// arenaChunk is the size of an arena chunk; a longer encoding gets a
// chunk of its own.
const arenaChunk = 1 << 20

// termArena holds encodings, each behind its length, in chunks that never
// move: an encoding it returned stays valid until reset.
type termArena struct {
	chunks [][]byte
	cur    int // the chunk being filled
	bytes  int // bytes held
}

// add copies enc into the arena and returns its reference.
func (a *termArena) add(enc []byte) uint64 {
	need := binary.MaxVarintLen64 + len(enc)
	if len(a.chunks) == 0 || cap(a.chunks[a.cur])-len(a.chunks[a.cur]) < need {
		if len(a.chunks) > 0 {
			a.cur++
		}
		size := max(arenaChunk, need)
		switch {
		case a.cur == len(a.chunks):
			a.chunks = append(a.chunks, make([]byte, 0, size))
		case cap(a.chunks[a.cur]) < size: // a spare chunk too small
			a.chunks[a.cur] = make([]byte, 0, size)
		}
	}
	c := a.chunks[a.cur]
	off := len(c)
	c = binary.AppendUvarint(c, uint64(len(enc)))
	a.chunks[a.cur] = append(c, enc...)
	a.bytes += len(enc)
	return uint64(a.cur)<<32 | uint64(off)
}

// get returns the encoding ref refers to.
func (a *termArena) get(ref uint64) []byte {
	c := a.chunks[ref>>32][ref&(1<<32-1):]
	n, k := binary.Uvarint(c)
	return c[k : k+int(n)]
}

// reset empties the arena, keeping its chunks for reuse: what it returned
// before is overwritten.
func (a *termArena) reset() {
	for i := range a.chunks {
		a.chunks[i] = a.chunks[i][:0]
	}
	a.cur, a.bytes = 0, 0
}

// pendingTerms holds terms given IDs but not yet written to the store, by
// ID, in an open-addressed table (IDs are hashes: their low bits spread
// them). An encoding it returns stays valid while the table lives.
type pendingTerms struct {
	slots []pendingSlot // id Any marks a free slot
	n     int
	arena termArena
}

type pendingSlot struct {
	id  ID
	ref uint64 // the encoding in the arena
}

func newPendingTerms() *pendingTerms { return newPendingTermsSize(0) }

// newPendingTermsSize returns an empty table with room for n terms.
func newPendingTermsSize(n int) *pendingTerms {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return &pendingTerms{slots: make([]pendingSlot, size)}
}

// add records the term encoded as enc under id, which must be new to the
// table.
func (p *pendingTerms) add(enc []byte, id ID) {
	if 2*(p.n+1) > len(p.slots) {
		old := p.slots
		p.slots = make([]pendingSlot, 2*len(old))
		for _, s := range old {
			if s.id != Any {
				*p.slot(s.id) = s
			}
		}
	}
	*p.slot(id) = pendingSlot{id, p.arena.add(enc)}
	p.n++
}

// slot returns id's slot, or the free slot where it goes.
func (p *pendingTerms) slot(id ID) *pendingSlot {
	mask := uint64(len(p.slots) - 1)
	for i := uint64(id) & mask; ; i = (i + 1) & mask {
		if s := &p.slots[i]; s.id == id || s.id == Any {
			return s
		}
	}
}

// first returns the first slot of id's probe sequence.
func (p *pendingTerms) first(id ID) pendingSlot {
	return p.slots[uint64(id)&uint64(len(p.slots)-1)]
}

// get returns the encoding of the term under id.
func (p *pendingTerms) get(id ID) ([]byte, bool) {
	return p.getFrom(id, p.first(id))
}

// getFrom is get, given s, the first slot of id's probe sequence, read
// before.
func (p *pendingTerms) getFrom(id ID, s pendingSlot) ([]byte, bool) {
	mask := uint64(len(p.slots) - 1)
	for i := uint64(id) & mask; s.id != Any; s = p.slots[i] {
		if s.id == id {
			return p.arena.get(s.ref), true
		}
		i = (i + 1) & mask
	}
	return nil, false
}

func (p *pendingTerms) len() int { return p.n }

// all yields the terms, in no order.
func (p *pendingTerms) all() iter.Seq2[ID, []byte] {
	return func(yield func(ID, []byte) bool) {
		for _, s := range p.slots {
			if s.id != Any && !yield(s.id, p.arena.get(s.ref)) {
				return
			}
		}
	}
}

// ids returns the IDs of the terms, ascending.
func (p *pendingTerms) ids() []ID {
	ids := make([]ID, 0, p.n)
	for _, s := range p.slots {
		if s.id != Any {
			ids = append(ids, s.id)
		}
	}
	slices.Sort(ids)
	return ids
}

// termIDs caches the IDs of terms by their encoding and dictionary hash,
// in two generations: when the current one is full it becomes the old
// one (the one before is emptied for reuse), and an entry found in the
// old one moves to the current one, so that entries in use survive the
// turnover. An entry never goes stale: a term's ID never changes. It is
// not safe for concurrent use.
type termIDs struct {
	cur, old *hashedTerms
	max      int // entries per generation
}

func newTermIDs(max int) termIDs {
	return termIDs{cur: newHashedTerms(min(max, 1024)), max: max}
}

// lookup returns the ID of the term encoded as enc, whose dictionary hash
// is h.
func (c *termIDs) lookup(h uint64, enc []byte) (ID, bool) {
	if id, ok := c.cur.get(h, enc); ok {
		return id, true
	}
	if c.old == nil {
		return 0, false
	}
	id, ok := c.old.get(h, enc)
	if ok {
		c.put(h, enc, id)
	}
	return id, ok
}

// put caches the ID of the term encoded as enc, whose hash is h.
func (c *termIDs) put(h uint64, enc []byte, id ID) {
	if c.cur.n >= c.max {
		spare := c.old
		if spare == nil {
			spare = newHashedTerms(c.max)
		}
		spare.reset()
		c.old, c.cur = c.cur, spare
	}
	c.cur.put(h, enc, id)
}

// hashedTerms is one generation of termIDs: an open-addressed table by
// the terms' hashes, the IDs and encodings in an arena (to tell terms of
// the same hash apart). A slot is 16 bytes, four to a cache line: a
// lookup that hits reads the arena anyway, where the ID sits beside the
// encoding, and one that misses reads only its slot.
type hashedTerms struct {
	slots []hashedSlot // ref 0 marks a free slot (the arena's first byte is never an entry's)
	n     int
	arena termArena
	buf   []byte // an entry being made: the ID, then the encoding
}

type hashedSlot struct {
	h   uint64
	ref uint64 // the ID and encoding in the arena, plus one
}

func newHashedTerms(n int) *hashedTerms {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return &hashedTerms{slots: make([]hashedSlot, size)}
}

// entry returns the ID and encoding of slot s, and where the ID is held.
func (t *hashedTerms) entry(s hashedSlot) (id []byte, enc []byte) {
	e := t.arena.get(s.ref - 1)
	return e[:8], e[8:]
}

func (t *hashedTerms) get(h uint64, enc []byte) (ID, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s.ref == 0 {
			return 0, false
		}
		if s.h == h {
			if id, e := t.entry(s); string(e) == string(enc) {
				return ID(binary.LittleEndian.Uint64(id)), true
			}
		}
	}
}

func (t *hashedTerms) put(h uint64, enc []byte, id ID) {
	if 2*(t.n+1) > len(t.slots) {
		old := t.slots
		t.slots = make([]hashedSlot, 2*len(old))
		mask := uint64(len(t.slots) - 1)
		for _, s := range old {
			if s.ref != 0 {
				i := s.h & mask
				for t.slots[i].ref != 0 {
					i = (i + 1) & mask
				}
				t.slots[i] = s
			}
		}
	}
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for ; t.slots[i].ref != 0; i = (i + 1) & mask {
		if s := t.slots[i]; s.h == h {
			if held, e := t.entry(s); string(e) == string(enc) {
				binary.LittleEndian.PutUint64(held, uint64(id))
				return
			}
		}
	}
	t.buf = binary.LittleEndian.AppendUint64(t.buf[:0], uint64(id))
	t.buf = append(t.buf, enc...)
	t.slots[i] = hashedSlot{h, t.arena.add(t.buf) + 1}
	t.n++
}

// reset empties the table, keeping its memory.
func (t *hashedTerms) reset() {
	clear(t.slots)
	t.n = 0
	t.arena.reset()
}
