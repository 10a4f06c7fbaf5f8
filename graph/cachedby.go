package graph

import (
	"math"
	"math/bits"
)

// CachedBy is Cached with the range's keys sorted on quad position pos
// first after the bound prefix (then on the other free columns in the
// scan's order, so a union scan's copies of a triple stay adjacent): the
// ordering the store does not keep, such as a predicate's quads by
// subject (p-s-o), made from the cached range by one stable bucket sort
// and kept in the posting cache beside it, so that it is made once and
// then shared by every query until a write changes the range. A join
// probing a large pattern on pos then searches this array instead of
// building a hash table of the pattern per query. pos must be free in the
// scan's pattern.
func (q *QuadIter) CachedBy(pos int) (CachedRange, bool) {
	r, ok := q.Cached()
	if !ok {
		return CachedRange{}, false
	}
	first, ok := r.FirstFree()
	if !ok || IDQuad(q.pat).at(pos) != Any {
		return CachedRange{}, false
	}
	if first == pos {
		return r, true
	}
	// The new column order: the bound prefix, pos, then the other free
	// columns as the scan orders them.
	var perm [4]int // perm[j]: the column of r's keys that becomes column j
	j := 0
	for c := range r.bound {
		perm[j], j = c, j+1
	}
	perm[j], j = r.col[pos], j+1
	for c := r.bound; c < len(perm); c++ {
		if c != r.col[pos] {
			perm[j], j = c, j+1
		}
	}
	out := CachedRange{bound: r.bound}
	for qpos, c := range r.col {
		for nj, pc := range perm {
			if pc == c {
				out.col[qpos] = nj
			}
		}
	}
	key := string(q.prefix) + "\xffby" + string(rune('0'+pos))
	if p, ok := q.pc.getDerived(q.prefix, key, q.gen); ok {
		out.keys, out.dir = p.keys, p.dir
		return out, true
	}
	keys := make([]cols, len(r.keys))
	for i, k := range r.keys {
		keys[i] = cols{k[perm[0]], k[perm[1]], k[perm[2]], k[perm[3]]}
	}
	sortColumnStable(keys, r.bound)
	out.keys, out.dir = keys, newDirectory(keys, r.bound)
	q.pc.put(&posting{prefix: key, gen: q.gen, keys: keys, dir: out.dir})
	return out, true
}

// directory finds a value's keys in a range sorted on column c without a
// search over the whole range: start[b] is the first key whose value's
// leading bits (its offset from lo, shifted) are b or more. The store's
// IDs are hashes, so about four keys fall in a bucket and a probe reads
// one offset and a few adjacent keys instead of twenty scattered ones.
type directory struct {
	c     int
	lo    uint64
	shift uint
	start []int32
}

func newDirectory(keys []cols, c int) *directory {
	if len(keys) < 64 || len(keys) > math.MaxInt32 {
		return nil
	}
	d := &directory{c: c, lo: keys[0][c]}
	nb := 1 << (bits.Len(uint(len(keys)/4)) - 1)
	d.shift = uint(max(bits.Len64(keys[len(keys)-1][c]-d.lo)-bits.TrailingZeros(uint(nb)), 0))
	d.start = make([]int32, nb+1)
	b := 0
	for i, k := range keys {
		for kb := int((k[c] - d.lo) >> d.shift); b <= kb; b++ {
			d.start[b] = int32(i)
		}
	}
	for ; b <= nb; b++ {
		d.start[b] = int32(len(keys))
	}
	return d
}

// span is the part of the range that holds value v, if any.
func (d *directory) span(v uint64) (lo, hi int) {
	if v < d.lo {
		return 0, 0
	}
	b := (v - d.lo) >> d.shift
	if b >= uint64(len(d.start)-1) {
		n := int(d.start[len(d.start)-1])
		return n, n
	}
	return int(d.start[b]), int(d.start[b+1])
}

// sortColumnStable sorts keys on column c, keeping the order of keys
// equal there: a counting sort on the column's leading bits into about
// one bucket per key (IDs are hashes, so they spread evenly), then an
// insertion sort inside each bucket, of a few keys.
func sortColumnStable(keys []cols, c int) {
	if len(keys) < 2 {
		return
	}
	lo, hi := keys[0][c], keys[0][c]
	for _, k := range keys {
		lo, hi = min(lo, k[c]), max(hi, k[c])
	}
	nb := 1 << (bits.Len(uint(len(keys))) - 1)
	shift := max(bits.Len64(hi-lo)-bits.TrailingZeros(uint(nb)), 0)
	off := make([]int, nb+1)
	for _, k := range keys {
		off[((k[c]-lo)>>shift)+1]++
	}
	for b := 1; b <= nb; b++ {
		off[b] += off[b-1]
	}
	tmp := make([]cols, len(keys))
	next := append([]int(nil), off[:nb]...)
	for _, k := range keys {
		b := (k[c] - lo) >> shift
		tmp[next[b]] = k
		next[b]++
	}
	for b := range nb {
		s := tmp[off[b]:off[b+1]]
		for i := 1; i < len(s); i++ {
			for j := i; j > 0 && s[j][c] < s[j-1][c]; j-- {
				s[j], s[j-1] = s[j-1], s[j]
			}
		}
	}
	copy(keys, tmp)
}
