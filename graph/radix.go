package graph

// sortCols sorts a by key order (the IDs as one 32-byte big-endian
// string) with a most-significant-byte radix sort, using tmp (at least as
// long as a) as scratch. IDs are hashes, so the leading bytes spread keys
// evenly and two or three passes leave buckets small enough for insertion
// sort; a byte shared by a whole bucket (a constant predicate) costs one
// counting pass and no moves. Each pass scatters from one buffer into the
// other and the next pass scatters back, so no pass copies data back.
func sortCols(a, tmp []cols) { radixSort(a, tmp[:len(a)], 0) }

// radixSort sorts a in place from byte digit on, using tmp as scratch.
func radixSort(a, tmp []cols, digit int) {
	for ; digit < 32; digit++ {
		if len(a) <= 48 {
			insertionSortCols(a)
			return
		}
		if count, spread := histogram(a, digit); spread {
			scatter(a, tmp, digit, &count, func(s, e int) { sortInto(tmp[s:e], a[s:e], digit+1) })
			return
		}
	}
}

// sortInto sorts src from byte digit on and leaves the result in dst.
func sortInto(src, dst []cols, digit int) {
	for ; digit < 32; digit++ {
		if len(src) <= 48 {
			break
		}
		if count, spread := histogram(src, digit); spread {
			scatter(src, dst, digit, &count, func(s, e int) { radixSort(dst[s:e], src[s:e], digit+1) })
			return
		}
	}
	copy(dst, src)
	insertionSortCols(dst)
}

// histogram counts the keys of a by byte digit; spread is false when they
// all share that byte.
func histogram(a []cols, digit int) (count [256]int, spread bool) {
	col, shift := digit/8, 56-8*uint(digit%8)
	for i := range a {
		count[byte(a[i][col]>>shift)]++
	}
	return count, count[byte(a[0][col]>>shift)] != len(a)
}

// scatter moves the keys of src into dst grouped by byte digit, then calls
// sub on the range of every non-empty bucket.
func scatter(src, dst []cols, digit int, count *[256]int, sub func(s, e int)) {
	col, shift := digit/8, 56-8*uint(digit%8)
	var start [256]int
	sum := 0
	for b, c := range count {
		start[b] = sum
		sum += c
	}
	next := start
	for i := range src {
		b := byte(src[i][col] >> shift)
		dst[next[b]] = src[i]
		next[b]++
	}
	// Every bucket, even of one key, goes to sub: the sorted keys must
	// end up in the caller's result buffer, which may be src.
	for b, c := range count {
		if c > 0 {
			sub(start[b], start[b]+c)
		}
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
