package eval

import (
	"math/bits"
	"slices"
)

// sortedIDs is a set of IDs built once and then only probed (the key set
// of a hash semi-join or anti-join on one variable), kept as a sorted
// array. A probe gallops forward from the previous probe's position, so
// probes in ascending order — a left side read in index order, as a
// pattern's subjects or objects come — walk the array once, as a merge
// join would, and probes out of order cost a binary search. A hash set
// pays a cache miss per insert and per probe once it outgrows the CPU
// caches (hundreds of thousands of keys); a sort and a sequential walk
// do not.
type sortedIDs struct {
	ids []ID
	pos int // where the previous probe ended: ids[:pos] are below its key
	tmp []ID
}

// add appends k; finish must be called before probing. It reports true:
// whether k is new is only known once sorted (see finish).
func (s *sortedIDs) add(key []ID) bool {
	s.ids = append(s.ids, key[0])
	return true
}

// finish sorts and deduplicates the keys and returns how many duplicates
// it dropped.
func (s *sortedIDs) finish() int {
	if !slices.IsSorted(s.ids) {
		s.tmp = bucketSortIDs(s.ids, s.tmp)
	}
	n := len(s.ids)
	s.ids = slices.Compact(s.ids)
	s.tmp = nil
	return n - len(s.ids)
}

func (s *sortedIDs) contains(key []ID) bool {
	k, ids := key[0], s.ids
	var lo, hi int
	switch p := s.pos; {
	case p > 0 && ids[p-1] >= k:
		hi = p // backwards: search below
	case p == len(ids):
		return false // above every key
	case ids[p] >= k:
		return ids[p] == k
	default:
		// Gallop forward from p for the first key not below k.
		step := 1
		for p+step < len(ids) && ids[p+step] < k {
			p += step
			step *= 2
		}
		lo, hi = p+1, min(p+step+1, len(ids))
	}
	i, found := slices.BinarySearch(ids[lo:hi], k)
	s.pos = lo + i
	return found
}

// bucketSortIDs sorts a: keys are scattered into about len(a)/2 buckets
// by their offset from the smallest key (one counting pass, one scatter),
// and each bucket, of a few keys when the keys spread evenly as the
// store's hashed IDs do, is then sorted alone. Keys bunched in a few
// buckets still sort in O(n log n). tmp is scratch space (returned for
// reuse).
func bucketSortIDs(a, tmp []ID) []ID {
	if len(a) < 64 {
		slices.Sort(a)
		return tmp
	}
	lo, hi := slices.Min(a), slices.Max(a)
	nb := 1 << (bits.Len(uint(len(a))) - 1)
	shift := max(bits.Len64(uint64(hi-lo))-bits.TrailingZeros(uint(nb)), 0)
	if cap(tmp) < len(a) {
		tmp = make([]ID, len(a))
	}
	tmp = tmp[:len(a)]
	off := make([]int32, nb+2)
	for _, v := range a {
		off[uint64(v-lo)>>shift+2]++
	}
	for b := 2; b < len(off); b++ {
		off[b] += off[b-1]
	}
	for _, v := range a {
		b := uint64(v-lo)>>shift + 1
		tmp[off[b]] = v
		off[b]++
	}
	// off[b] is now where bucket b starts.
	for b := range nb {
		switch s := tmp[off[b]:off[b+1]]; {
		case len(s) > 8:
			slices.Sort(s)
		case len(s) > 1:
			for i := 1; i < len(s); i++ {
				for j := i; j > 0 && s[j] < s[j-1]; j-- {
					s[j], s[j-1] = s[j-1], s[j]
				}
			}
		}
	}
	copy(a, tmp)
	return tmp
}
