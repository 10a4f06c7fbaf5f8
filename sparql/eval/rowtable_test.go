package eval

import (
	"math/rand/v2"
	"testing"
)

// TestRowTableCandidates checks the bucketed table against the
// definition of a hash join's probe: for a probe row binding every key
// slot, the candidates are a sub-bag of the table holding every row whose
// keys equal the probe's (each once), and for a probe leaving a key
// unbound they are every row. Keys are one or two slots, with store-like
// IDs (spread over 64 bits), small IDs (query-local and computed terms)
// and many duplicates.
func TestRowTableCandidates(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 11))
	id := func() ID {
		switch r.IntN(3) {
		case 0:
			return ID(r.Uint64() | 1)
		case 1:
			return ID(1 + r.IntN(40))
		}
		return ID(1 + r.IntN(3))
	}
	for _, keys := range [][]int{{0}, {1}, {0, 2}} {
		for _, n := range []int{0, 1, 5, 100, 3000} {
			rows := make([][]ID, n)
			for i := range rows {
				rows[i] = []ID{id(), id(), id(), ID(i)} // slot 3 tells rows apart
			}
			tab := newRowTable(rows, keys)
			for range 200 {
				probe := []ID{id(), id(), id(), 0}
				if n > 0 && r.IntN(2) == 0 {
					copy(probe, rows[r.IntN(n)][:3])
				}
				seen := map[ID]int{}
				for _, c := range tab.candidates(probe) {
					seen[c[3]]++
				}
				for i, row := range rows {
					equal := true
					for _, k := range keys {
						equal = equal && row[k] == probe[k]
					}
					if got := seen[ID(i)]; equal && got != 1 || got > 1 {
						t.Fatalf("keys %v, n=%d: row %v seen %d times for probe %v", keys, n, row, got, probe)
					}
				}
			}
			unbound := []ID{0, 0, 0, 0}
			if got := len(tab.candidates(unbound)); got != n {
				t.Fatalf("keys %v: a probe with unbound keys got %d of %d rows", keys, got, n)
			}
		}
	}
}
