package extract

import "hash/maphash"

// table is an open-addressed hash table (linear probing) of the
// collector's entries, keyed by a hash and an equality the caller gives:
// unlike a map it needs no key string per reference, and a pooled
// collector reuses it from page to page.
type table struct {
	slots []entry
	n     int
}

// entry is a reference as written (a span of collector.written) or a URL
// (the outlink val), with its hop, and for a reference the outlink it
// gave (val, -1 for none).
type entry struct {
	hash   uint64 // 0 marks a free slot
	off, n int32
	val    int32
	hop    Hop
}

// Sizes of a table: a page has about a hundred references; one much
// larger gives its table back instead of pooling it.
const (
	minSlots  = 256
	maxPooled = 4096
)

var seed = maphash.MakeSeed()

func hashBytes(b []byte, hop Hop) uint64 {
	return (maphash.Bytes(seed, b) ^ uint64(hop)*0x9e3779b97f4a7c15) | 1
}

func hashString(s string, hop Hop) uint64 {
	return (maphash.String(seed, s) ^ uint64(hop)*0x9e3779b97f4a7c15) | 1
}

// find returns the slot of the entry with hash h that eq accepts, or the
// free slot where it would go.
func (t *table) find(h uint64, eq func(*entry) bool) (slot int, found bool) {
	if t.slots == nil {
		t.slots = make([]entry, minSlots)
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := &t.slots[i]
		if e.hash == 0 {
			return int(i), false
		}
		if e.hash == h && eq(e) {
			return int(i), true
		}
	}
}

// insert puts e in the free slot find returned, growing the table past
// half full.
func (t *table) insert(slot int, e entry) {
	t.slots[slot] = e
	t.n++
	if 2*t.n <= len(t.slots) {
		return
	}
	old := t.slots
	t.slots = make([]entry, 2*len(old))
	mask := uint64(len(t.slots) - 1)
	for _, e := range old {
		if e.hash == 0 {
			continue
		}
		i := e.hash & mask
		for t.slots[i].hash != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = e
	}
}

// reset empties the table for the next document.
func (t *table) reset() {
	switch {
	case len(t.slots) > maxPooled:
		t.slots = nil
	case t.n > 0:
		clear(t.slots)
	}
	t.n = 0
}
