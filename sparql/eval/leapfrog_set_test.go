package eval

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLevelCountHashed counts the keys of many small sorted ranges found
// in one large range, as a triejoin's count does under each value of the
// level above: the large range is galloped through, then hashed once
// probed enough; every count must be the naive intersection's.
func TestLevelCountHashed(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	big := make([]ID, 500)
	for i := range big {
		big[i] = ID(r.Uint64()|1) >> 1 // non-zero
	}
	slices.Sort(big)
	big = slices.Compact(big)
	large := &lfCursor{keys: big, lo: 10, hi: len(big) - 10}
	inLarge := map[ID]bool{}
	for _, k := range big[large.lo:large.hi] {
		inLarge[k] = true
	}
	hashedOnce := false
	for round := range 200 {
		var small []ID
		for range 1 + round%7 {
			if r.IntN(2) == 0 {
				small = append(small, big[r.IntN(len(big))]) // may lie outside large's range
			} else {
				small = append(small, ID(r.Uint64()>>1)|1)
			}
		}
		slices.Sort(small)
		small = slices.Compact(small)
		want := int64(0)
		for _, k := range small {
			if inLarge[k] {
				want++
			}
		}
		l := lfLevel{curs: []*lfCursor{{keys: small, hi: len(small)}, large}}
		if got := l.count(); got != want {
			t.Fatalf("round %d (hashed %v): %d common keys, want %d", round, large.hashed, got, want)
		}
		hashedOnce = hashedOnce || large.hashed
	}
	if !hashedOnce {
		t.Error("the large range was never hashed")
	}
	var s idSet
	s.reset(big[:3])
	if !s.has(big[0]) || !s.has(big[2]) || s.has(big[3]) {
		t.Error("idSet membership wrong")
	}
}
