package eval

import (
	"math/rand/v2"
	"testing"
)

// TestHashIndexAgreesWithMap puts keys that collide in the slot bits
// (multiples of a large power of two) and random ones through growth,
// and compares every chain head with a map's.
func TestHashIndexAgreesWithMap(t *testing.T) {
	h := newHashIndex(0)
	want := map[uint64]int32{}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range int32(5000) {
		k := r.Uint64()
		if i%2 == 0 {
			k = uint64(r.IntN(300)) << 40
		}
		prev, ok := want[k]
		if !ok {
			prev = -1
		}
		if got := h.put(k, i); got != prev {
			t.Fatalf("put(%x) returned %d, want %d", k, got, prev)
		}
		want[k] = i
	}
	if h.len() != len(want) {
		t.Fatalf("%d keys, want %d", h.len(), len(want))
	}
	for k, v := range want {
		if got := h.get(k); got != v {
			t.Fatalf("get(%x) = %d, want %d", k, got, v)
		}
	}
	if got := h.get(12345); got != -1 {
		t.Fatalf("absent key gave %d", got)
	}
}

// TestRowSet checks that rows equal on every slot are one, that a short
// row equals its widening with unbound slots, and that reset empties.
func TestRowSet(t *testing.T) {
	s := newRowSet(3)
	testRowSet(t, s)
}

// TestRowSetOfOneColumn puts IDs that collide in the slot bits and random
// ones (and 0, unbound) through an idSet's growth, comparing with a map.
func TestRowSetOfOneColumn(t *testing.T) {
	s := newRowSet(1)
	want := map[ID]bool{}
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 6000 {
		id := ID(r.Uint64())
		switch i % 3 {
		case 0:
			id = ID(r.IntN(400)) << 40
		case 1:
			id = ID(r.IntN(50))
		}
		if got := s.add([]ID{id, 7}); got != !want[id] {
			t.Fatalf("add(%x) = %v, want %v", id, got, !want[id])
		}
		want[id] = true
	}
	if s.len() != len(want) {
		t.Fatalf("%d ids, want %d", s.len(), len(want))
	}
	for range 6000 {
		id := ID(r.IntN(60)) << 40
		if s.contains([]ID{id}) != want[id] {
			t.Fatalf("contains(%x) = %v, want %v", id, !want[id], want[id])
		}
	}
	if !s.contains(nil) {
		t.Fatal("an unbound key added is not contained")
	}
	s.reset()
	if s.len() != 0 || s.contains([]ID{want0(want)}) {
		t.Fatal("reset did not empty the set")
	}
}

// want0 is some ID of m.
func want0(m map[ID]bool) ID {
	for id := range m {
		return id
	}
	return 0
}

func testRowSet(t *testing.T, s *rowSet) {
	for _, c := range []struct {
		row []ID
		add bool
	}{
		{[]ID{1, 2, 3}, true},
		{[]ID{1, 2, 3}, false},
		{[]ID{1, 2, 0}, true},
		{[]ID{1, 2}, false},
		{[]ID{3, 2, 1}, true},
		{[]ID{}, true},
		{[]ID{0, 0, 0}, false},
	} {
		if got := s.add(c.row); got != c.add {
			t.Fatalf("add(%v) = %v, want %v", c.row, got, c.add)
		}
		if !s.contains(c.row) {
			t.Fatalf("%v not contained after add", c.row)
		}
	}
	if s.len() != 4 {
		t.Fatalf("%d rows, want 4", s.len())
	}
	s.reset()
	if s.len() != 0 || s.contains([]ID{1, 2, 3}) || !s.add([]ID{1, 2, 3}) {
		t.Fatal("reset did not empty the set")
	}
}
