package graph

import "slices"

// CachedRange is the whole range of a scan as the posting cache holds
// it: its keys in the scan's order, readable column by column without an
// iterator call per key. A join that reads a range whole (a triejoin's
// trie) walks it in a tight loop.
type CachedRange struct {
	keys  []cols
	col   [4]int // col[pos]: the key column holding quad position pos
	bound int    // the columns of the bound prefix
}

// Cached returns the scan's range when the posting cache holds it whole
// and every key of it is a result of the scan: no column after the
// bound prefix is bound. A union scan's range then still holds a quad
// once per graph, its keys equal but for the graph (adjacent, the graph
// being last). The scan must not have started; it stays usable either
// way.
func (q *QuadIter) Cached() (CachedRange, bool) {
	if q.started || q.pc == nil {
		return CachedRange{}, false
	}
	bound := 0
	for _, id := range [4]ID{q.pat.S, q.pat.P, q.pat.O, q.pat.G} {
		if id != Any {
			bound++
		}
	}
	if len(q.prefix) != 1+8*bound {
		return CachedRange{}, false
	}
	p, ok := q.pc.get(q.prefix, q.gen)
	if !ok || p.big {
		return CachedRange{}, false
	}
	r := CachedRange{keys: p.keys, bound: bound}
	for i, pos := range orders[q.order-1].perm {
		r.col[pos] = i
	}
	return r, true
}

// Len is the number of keys.
func (r CachedRange) Len() int { return len(r.keys) }

// At is the ID at quad position pos (0 s, 1 p, 2 o, 3 g) of key i.
func (r CachedRange) At(i, pos int) ID { return ID(r.keys[i][r.col[pos]]) }

// SearchFirst is the index of the first key whose value at quad position
// pos is at least v; pos must be the first column after the range's bound
// prefix, so that the keys are sorted on it.
func (r CachedRange) SearchFirst(pos int, v ID) int {
	c := r.col[pos]
	i, _ := slices.BinarySearchFunc(r.keys, uint64(v), func(k cols, v uint64) int {
		switch {
		case k[c] < v:
			return -1
		case k[c] > v:
			return 1
		}
		return 0
	})
	return i
}

// FirstFree is the quad position (0 s, 1 p, 2 o, 3 g) of the range's
// first column after its bound prefix, on which its keys are sorted;
// false when every column is bound.
func (r CachedRange) FirstFree() (int, bool) {
	if r.bound >= len(cols{}) {
		return 0, false
	}
	for pos, c := range r.col {
		if c == r.bound {
			return pos, true
		}
	}
	return 0, false
}

// Run reads the run of keys from i that share the value of the first
// free column: that value, the index after the run, and the number of
// distinct triples in it (keys that differ only in the graph, adjacent in
// a union scan's range, counted once, as the scan returns them).
func (r CachedRange) Run(i int) (v ID, end, triples int) {
	c := r.bound
	val := r.keys[i][c]
	triples = 1
	for end = i + 1; end < len(r.keys) && r.keys[end][c] == val; end++ {
		if !sameTriple(r.keys[end], r.keys[end-1], r.col[3]) {
			triples++
		}
	}
	return ID(val), end, triples
}

// sameTriple reports whether keys a and b differ at most in column g
// (the graph's).
func sameTriple(a, b cols, g int) bool {
	for i := range a {
		if i != g && a[i] != b[i] {
			return false
		}
	}
	return true
}
