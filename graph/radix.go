package graph

import "math/bits"

// sortCols sorts a by key order (the IDs as one 32-byte big-endian
// string) with a most-significant-byte radix sort, using tmp (at least as
// long as a) as scratch. IDs are hashes, so the leading bytes spread keys
// evenly and two or three passes leave buckets small enough for insertion
// sort. Bytes shared by a whole bucket (a constant predicate or graph)
// are skipped at once: the counting pass that finds a byte shared also
// finds the next byte that is not. Each pass scatters from one buffer
// into the other and the next pass scatters back, so no pass copies data
// back.
func sortCols(a, tmp []cols) { radixSort(a, tmp[:len(a)], 0) }

// radixSort sorts a in place from byte digit on, using tmp as scratch;
// the keys of a share their bytes before digit.
func radixSort(a, tmp []cols, digit int) {
	for digit < 32 {
		if len(a) <= insertionMax {
			insertionSortCols(a, digit/8)
			return
		}
		count, next := histogram(a, digit)
		if next == digit {
			scatter(a, tmp, digit, &count, func(s, e int) { sortInto(tmp[s:e], a[s:e], digit+1) })
			return
		}
		digit = next
	}
}

// sortInto sorts src from byte digit on and leaves the result in dst;
// the keys of src share their bytes before digit.
func sortInto(src, dst []cols, digit int) {
	for digit < 32 && len(src) > insertionMax {
		count, next := histogram(src, digit)
		if next == digit {
			scatter(src, dst, digit, &count, func(s, e int) { radixSort(dst[s:e], src[s:e], digit+1) })
			return
		}
		digit = next
	}
	copy(dst, src)
	insertionSortCols(dst, min(digit, 31)/8)
}

// wideBits is the width of the digit sortWide sorts by, and wideMin the
// fewest keys it sorts so: a byte leaves a bucket of some thousands of
// keys in pieces of dozens, which insertion sort then moves key by key,
// while 4,096 counts leave pieces of one or two.
const (
	wideBits = 12
	wideMin  = 4096
)

// sortWide sorts src, whose keys share their first byte, and leaves the
// result in dst, as sortInto(src, dst, 1) does, but by the next 12 bits
// of the first column at once when src is large and they differ.
func sortWide(src, dst []cols) {
	if len(src) < wideMin {
		sortInto(src, dst, 1)
		return
	}
	const shift, mask = 64 - 8 - wideBits, 1<<wideBits - 1
	var end [1 << wideBits]int
	for i := range src {
		end[src[i][0]>>shift&mask]++
	}
	if end[src[0][0]>>shift&mask] == len(src) {
		sortInto(src, dst, 1) // the bytes that differ come later
		return
	}
	sum := 0
	for d, c := range end {
		end[d] = sum
		sum += c
	}
	for i := range src {
		d := src[i][0] >> shift & mask
		dst[end[d]] = src[i]
		end[d]++
	}
	// Each bucket's keys share their first 20 bits: bytes 0 and 1.
	s := 0
	for _, e := range end {
		if e-s > 1 {
			radixSort(dst[s:e], src[s:e], 2)
		}
		s = e
	}
}

// histogram counts the keys of a (which share their bytes before digit)
// by byte digit. next is digit when the keys differ in it; otherwise the
// first byte after it in which they differ (32 if none), with count then
// undefined.
func histogram(a []cols, digit int) (count [256]int, next int) {
	col, shift := digit/8, 56-8*uint(digit%8)
	v0 := a[0][col]
	var diff uint64
	for i := range a {
		v := a[i][col]
		count[byte(v>>shift)]++
		diff |= v ^ v0
	}
	if count[byte(v0>>shift)] != len(a) {
		return count, digit
	}
	// The bytes before digit are shared, so diff's leading zeros reach
	// at least to it.
	if diff == 0 {
		return count, 8 * (col + 1)
	}
	return count, 8*col + bits.LeadingZeros64(diff)/8
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

// insertionSortCols sorts a, whose keys share their first from columns.
func insertionSortCols(a []cols, from int) {
	for i := 1; i < len(a); i++ {
		v := a[i]
		j := i
		for j > 0 && lessFrom(v, a[j-1], from) {
			a[j] = a[j-1]
			j--
		}
		a[j] = v
	}
}

// lessFrom reports whether a sorts before b, which share their first
// from columns.
func lessFrom(a, b cols, from int) bool {
	for i := from; i < len(a); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// insertionMax is the size of a bucket sorted by insertion, not by
// further radix passes (sizes from 24 to 64 measure alike).
const insertionMax = 48

// sortEntries returns entries sorted by ID, using tmp (as long) as
// scratch; the result is one of the two. IDs are hashes: three
// least-significant-digit passes on their top 33 bits leave only the rare
// entries that share those bits out of order, which one insertion pass
// puts right.
func sortEntries(entries, tmp []dictEntry) []dictEntry {
	const bits, passes = 11, 3
	var count [passes][1 << bits]int
	for _, e := range entries {
		for p := range passes {
			count[p][digitOf(e.id, p)]++
		}
	}
	src, dst := entries, tmp[:len(entries)]
	for p := range passes {
		sum := 0
		for b, c := range count[p] {
			count[p][b] = sum
			sum += c
		}
		next := &count[p]
		for _, e := range src {
			d := digitOf(e.id, p)
			dst[next[d]] = e
			next[d]++
		}
		src, dst = dst, src
	}
	for i := 1; i < len(src); i++ {
		e := src[i]
		j := i
		for j > 0 && src[j-1].id > e.id {
			src[j] = src[j-1]
			j--
		}
		src[j] = e
	}
	return src
}

// digitOf is the 11-bit digit of sortEntries' pass p: the top 33 bits of
// id, least significant first.
func digitOf(id ID, p int) uint64 { return uint64(id) >> (31 + 11*p) & (1<<11 - 1) }
