package graph

import (
	"cmp"
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

// TestSortRunMatchesComparisonSort: sortRun, whose first radix pass reads
// the quads, puts them in each ordering's key order, with inputs whose
// leading column is spread, constant, or small.
func TestSortRunMatchesComparisonSort(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{0, 1, 48, 49, 5000} {
		quads := make([]IDQuad, n)
		for i := range quads {
			quads[i] = IDQuad{S: ID(r.Uint64()), P: ID(r.Uint64N(3) << 62), O: ID(r.Uint64N(50)), G: 7}
			if i > 0 && r.IntN(10) == 0 {
				quads[i] = quads[r.IntN(i)]
			}
		}
		for _, o := range Orders() {
			want := make([]cols, n)
			for i, q := range quads {
				want[i] = permute(o, q)
				if unpermute(o, want[i]) != q {
					t.Fatalf("%s: unpermute(permute(%v)) differs", o, q)
				}
			}
			slices.SortFunc(want, cmpCols)
			got, _ := sortRun(o, quads, nil, nil)
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d, %s: sortRun differs from comparison sort", n, o)
			}
		}
	}
}

// TestSortWideMatchesComparisonSort: sortWide puts keys sharing their
// first byte in key order, below and above wideMin, with the 12 bits it
// sorts by spread, constant, or nearly constant, and repeated keys.
func TestSortWideMatchesComparisonSort(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{wideMin - 1, wideMin, 20000} {
		for shape := range 3 {
			src := make([]cols, n)
			for i := range src {
				v := r.Uint64()
				switch shape {
				case 1: // bits 8 to 19 constant
					v &= 1<<44 - 1
				case 2: // only the low bits differ
					v = r.Uint64N(4)
				}
				src[i] = cols{v&(1<<56-1) | 7<<56, r.Uint64N(3), r.Uint64(), 5}
				if i > 0 && r.IntN(5) == 0 {
					src[i] = src[r.IntN(i)]
				}
			}
			want := slices.Clone(src)
			slices.SortFunc(want, cmpCols)
			got := make([]cols, n)
			sortWide(src, got)
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d, shape %d: sortWide differs from comparison sort", n, shape)
			}
		}
	}
}

// TestOldMemo: the memo's answers for sorted keys are oldCols' for each
// key alone, with new terms in any column and keys sharing prefixes.
func TestOldMemo(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	keys := make([]cols, 20000)
	for i := range keys {
		keys[i] = cols{r.Uint64N(40), r.Uint64N(300), r.Uint64N(30), r.Uint64N(3)}
	}
	slices.SortFunc(keys, cmpCols)
	isNew := func(id ID) bool { return id%7 == 3 }
	var m oldMemo
	for _, c := range keys {
		if got, want := m.of(c, isNew), oldCols(c, isNew, 0); got != want {
			t.Fatalf("%v: memo says %d old columns, want %d", c, got, want)
		}
	}
}

// TestSortEntries: dictionary entries come out sorted by ID, hash-like
// IDs and IDs sharing their top bits alike.
func TestSortEntries(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{0, 1, 2, 1000, 50000} {
		es := make([]dictEntry, n)
		for i := range es {
			es[i] = dictEntry{id: ID(r.Uint64())}
			if r.IntN(3) == 0 { // the same top 33 bits as another
				es[i].id = ID(uint64(es[r.IntN(i+1)].id)&^(1<<31-1) | r.Uint64N(1<<31))
			}
		}
		want := slices.Clone(es)
		slices.SortFunc(want, func(a, b dictEntry) int { return cmp.Compare(a.id, b.id) })
		got := sortEntries(es, make([]dictEntry, n))
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: sortEntries differs from comparison sort", n)
		}
	}
}
