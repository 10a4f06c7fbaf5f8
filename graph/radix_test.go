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

// TestByGraph: keys of a graph-last ordering put in graph-first order by
// their graph alone are what sorting them in that ordering gives; with
// more graphs than byGraph takes it declines.
func TestByGraph(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, graphs := range []int{1, 3, maxByGraph, maxByGraph + 1} {
		var quads []IDQuad
		for range 5000 {
			quads = append(quads, IDQuad{S: ID(r.Uint64N(300)), P: ID(r.Uint64N(5)), O: ID(r.Uint64()), G: ID(r.Uint64N(uint64(graphs)) * 0x9e3779b97f4a7c15)})
		}
		for _, o := range []Order{SPOG, POSG, OSPG} {
			keys, _ := sortRun(o, quads, nil, nil)
			want, _ := sortRun(map[Order]Order{SPOG: GSPO, POSG: GPOS, OSPG: GOSP}[o], quads, nil, nil)
			got := make([]cols, len(keys))
			if ok := byGraph(keys, got); ok != (graphs <= maxByGraph) {
				t.Fatalf("%d graphs: byGraph says %v", graphs, ok)
			} else if ok && !slices.Equal(got, want) {
				t.Fatalf("%d graphs, %s: byGraph differs from sorting", graphs, o)
			}
		}
	}
}
