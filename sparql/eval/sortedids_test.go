package eval

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortedIDsAgreeWithMap builds sets of random IDs (with duplicates,
// 0, keys sharing high bytes) and probes them in ascending order, in
// random order and in ascending runs that restart, against a map.
func TestSortedIDsAgreeWithMap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for _, n := range []int{0, 1, 2, 7, 300, 5000} {
		want := map[ID]bool{}
		s := &sortedIDs{}
		for range n {
			k := ID(r.Uint64())
			switch r.IntN(4) {
			case 0:
				k &= 0xffff // high bytes shared: skipped radix passes
			case 1:
				k = ID(r.IntN(50)) // duplicates, and 0
			}
			want[k] = true
			s.add([]ID{k})
		}
		if dup := s.finish(); len(s.ids) != len(want) || dup != n-len(want) {
			t.Fatalf("n=%d: %d keys, %d dropped; want %d keys", n, len(s.ids), dup, len(want))
		}
		if !slices.IsSorted(s.ids) {
			t.Fatalf("n=%d: not sorted", n)
		}
		var probes []ID
		for k := range want {
			probes = append(probes, k, k+1, k-1)
		}
		for range 200 {
			probes = append(probes, ID(r.Uint64()), ID(r.IntN(60)))
		}
		asc := slices.Clone(probes)
		slices.Sort(asc)
		runs := slices.Concat(asc[len(asc)/2:], asc[:len(asc)/2], asc)
		for name, ps := range map[string][]ID{"ascending": asc, "random": probes, "restarting": runs} {
			for _, k := range ps {
				if got := s.contains([]ID{k}); got != want[k] {
					t.Fatalf("n=%d %s: contains(%d) = %v", n, name, k, got)
				}
			}
		}
	}
}
