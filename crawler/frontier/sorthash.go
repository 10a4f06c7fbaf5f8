package frontier

import (
	"cmp"
	"math/bits"
	"slices"
)

// sortByHash sorts order by hash, then by index, using out (grown as
// needed) and count as working space, and returns the sorted entries and
// both buffers for reuse. The hashes are uniform, so a stable counting pass
// on the top bits of hi leaves buckets of about one distinct hash each for
// a comparison sort to finish: linear time instead of n log n comparisons
// of 24-byte entries.
func sortByHash(order, out []sortEntry, count []int) (sorted, spare []sortEntry, counts []int) {
	n := len(order)
	if n < 2 {
		return order, out, count
	}
	b := bits.Len(uint(n))
	shift := 64 - b
	count = slices.Grow(count[:0], 1<<b+1)[:1<<b+1]
	clear(count)
	for _, e := range order {
		count[e.hi>>shift+1]++
	}
	for i := 1; i < len(count); i++ {
		count[i] += count[i-1]
	}
	out = slices.Grow(out[:0], n)[:n]
	next := count[:1<<b]
	for _, e := range order {
		k := e.hi >> shift
		out[next[k]] = e
		next[k]++
	}
	// next[k] is now the end of bucket k, and the start of bucket k+1.
	start := 0
	for _, end := range next {
		if end-start > 1 {
			slices.SortFunc(out[start:end], compareSortEntries)
		}
		start = end
	}
	return out, order, count
}

func compareSortEntries(x, y sortEntry) int {
	return cmp.Or(cmp.Compare(x.hi, y.hi), cmp.Compare(x.lo, y.lo), cmp.Compare(x.idx, y.idx))
}
