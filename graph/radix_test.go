package graph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSortColsMatchesComparisonSort(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 47, 49, 1000, 20000} {
		a := make([]cols, n)
		for i := range a {
			// Few distinct values in some columns (like predicates and
			// graphs), hash-like values in others, and equal keys.
			a[i] = cols{r.Uint64() % 5 << 60, r.Uint64(), uint64(r.IntN(3)), r.Uint64() % 2}
			if i > 0 && r.IntN(10) == 0 {
				a[i] = a[r.IntN(i)]
			}
		}
		want := slices.Clone(a)
		slices.SortFunc(want, cmpCols)
		sortCols(a, make([]cols, n))
		if !slices.Equal(a, want) {
			t.Fatalf("n=%d: radix sort differs from comparison sort", n)
		}
	}
}
