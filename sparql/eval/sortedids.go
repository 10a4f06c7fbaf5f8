package eval

import "slices"

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
		s.tmp = radixSortIDs(s.ids, s.tmp)
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

// radixSortIDs sorts a in place, least significant byte first, skipping
// bytes all keys share; tmp is scratch space (returned for reuse).
func radixSortIDs(a, tmp []ID) []ID {
	if cap(tmp) < len(a) {
		tmp = make([]ID, len(a))
	}
	tmp = tmp[:len(a)]
	src, dst := a, tmp
	for shift := uint(0); shift < 64; shift += 8 {
		var count [256]int
		for _, v := range src {
			count[byte(v>>shift)]++
		}
		if count[byte(src[0]>>shift)] == len(src) {
			continue
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, v := range src {
			b := byte(v >> shift)
			dst[count[b]] = v
			count[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
	return tmp
}
