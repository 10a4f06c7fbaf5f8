package graph

// sortCols sorts a by key order (the IDs as one 32-byte big-endian
// string) with a most-significant-byte radix sort, using tmp (at least as
// long as a) as scratch. IDs are hashes, so the leading bytes spread keys
// evenly and two or three passes leave buckets small enough for insertion
// sort; a byte shared by a whole bucket (a constant predicate) costs one
// counting pass and no moves.
func sortCols(a, tmp []cols) { radixSort(a, tmp[:len(a)], 0) }

func radixSort(a, tmp []cols, digit int) {
	for {
		if len(a) <= 48 {
			insertionSortCols(a)
			return
		}
		if digit == 32 {
			return // all keys equal
		}
		col, shift := digit/8, 56-8*uint(digit%8)
		var count [256]int
		for i := range a {
			count[byte(a[i][col]>>shift)]++
		}
		if count[byte(a[0][col]>>shift)] == len(a) {
			digit++
			continue
		}
		var start [256]int
		sum := 0
		for b, c := range count {
			start[b] = sum
			sum += c
		}
		next := start
		for i := range a {
			b := byte(a[i][col] >> shift)
			tmp[next[b]] = a[i]
			next[b]++
		}
		copy(a, tmp)
		for b, c := range count {
			if c > 1 {
				s := start[b]
				radixSort(a[s:s+c], tmp[s:s+c], digit+1)
			}
		}
		return
	}
}

func insertionSortCols(a []cols) {
	for i := 1; i < len(a); i++ {
		v := a[i]
		j := i
		for j > 0 && cmpCols(a[j-1], v) > 0 {
			a[j] = a[j-1]
			j--
		}
		a[j] = v
	}
}
