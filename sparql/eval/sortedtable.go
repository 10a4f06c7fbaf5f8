package eval

import (
	"math/bits"
	"slices"

	"github.com/mneme-archive/mneme/graph"
)

// sortedTableRows is the estimated size from which a pattern probed on
// one position is read from a sorted form the store keeps, instead of
// hashed per query: from there on building the table costs more than the
// probes' searches, and a pattern larger than the query's memory bound
// would otherwise be looked up row by row, a seek each.
var sortedTableRows = 1 << 16 // a variable for the tests

// sortedTable is a quadTable read from a sorted form of its pattern that
// the store keeps: the pattern's cached range when the range is sorted
// on the key position already (`?x rdf:type C` on ?x), or, for a pattern
// `?a p ?b` keyed on its subject, the predicate's triples in subject
// order (graph.View.PredicateOrder). A bucket is the run of keys equal
// to the probe's. Runs are found by galloping from the previous probe's
// run (probes in key order, the common case, walk the table once, as a
// merge join would) or, for a predicate order, through a directory of
// the key's leading bits (about four keys a bucket: the store's IDs are
// hashes), so that a probe out of order reads an offset and a few
// adjacent keys. It holds no memory of the query's own but the directory.
type sortedTable struct {
	pos int // the key position
	// One of: a cached range sorted on pos,
	r     graph.CachedRange
	union bool // a union scan's range: a triple's copies in other graphs are skipped
	// or a predicate's order on the subject.
	o   graph.PredicateOrder
	p   ID
	dir *directory
}

// sortedTableOf returns pat's sorted table when the pattern is large and
// probed on one position and the store keeps (or, for a predicate order,
// can make) a sorted form of it; nil otherwise.
func (ex *Exec) sortedTableOf(pat *quadPat, key []int, sel *graphSel) (*sortedTable, error) {
	if len(key) != 1 || pat.graphVar || pat.path != nil || pat.card < float64(sortedTableRows) || sel == nil {
		return nil, nil
	}
	pos := key[0]
	if slot := pat.t[pos].slot; slot >= 0 && predPattern(pat, nil, sel, slot) == 0 {
		o, ok, err := ex.View.PredicateOrder(ex.Ctx, pat.t[1].id, true, true)
		if err != nil || !ok {
			return nil, err
		}
		return &sortedTable{pos: 0, o: o, p: pat.t[1].id, dir: newDirectory(o.Key)}, nil
	}
	q := ex.scan(pat.pattern(nil), sel)
	defer q.close()
	r, ok := q.cachedRange()
	if first, free := r.FirstFree(); !ok || !free || first != pos {
		return nil, nil
	}
	return &sortedTable{pos: pos, r: r, union: sel.union}, nil
}

// run returns the range [lo, hi) of keys whose key position holds k,
// searching from *hint (the previous run's end) and leaving it there.
func (t *sortedTable) run(k ID, hint *int) (lo, hi int32) {
	if t.dir != nil {
		keys := t.o.Key
		i := *hint
		if i >= len(keys) || i > 0 && keys[i-1] >= k || keys[i] < k {
			i = t.dir.search(keys, k)
		}
		end := i
		for end < len(keys) && keys[end] == k {
			end++
		}
		*hint = end
		return int32(i), int32(end)
	}
	r, pos, n := t.r, t.pos, t.r.Len()
	i := *hint
	if i > n || i > 0 && r.At(i-1, pos) >= k {
		i = 0
	}
	// Gallop from i for the first key not below k, then search the step.
	step := 1
	for i+step < n && r.At(i+step, pos) < k {
		i += step
		step *= 2
	}
	j := min(i+step, n)
	for i < j { // binary search of [i, j)
		m := int(uint(i+j) >> 1)
		if r.At(m, pos) < k {
			i = m + 1
		} else {
			j = m
		}
	}
	end := i
	for end < n && r.At(end, pos) == k {
		end++
	}
	*hint = end
	return int32(i), int32(end)
}

// quad is key i as a quad, false for a union range's copy of the triple
// before it in another graph. The graph of a union's quad is Any, as a
// union scan returns it.
func (t *sortedTable) quad(i int32) (graph.IDQuad, bool) {
	if t.o.Key != nil {
		return graph.IDQuad{S: t.o.Key[i], P: t.p, O: t.o.Val[i], G: graph.Any}, true
	}
	r, k := t.r, int(i)
	q := graph.IDQuad{S: r.At(k, 0), P: r.At(k, 1), O: r.At(k, 2), G: r.At(k, 3)}
	if !t.union {
		return q, true
	}
	if k > 0 && r.At(k-1, 0) == q.S && r.At(k-1, 1) == q.P && r.At(k-1, 2) == q.O {
		return q, false
	}
	q.G = graph.Any
	return q, true
}

// directory finds a key in sorted IDs without searching them whole:
// start[b] is the first ID whose offset from lo, shifted, is b or more.
type directory struct {
	lo    ID
	shift uint
	start []int32
}

func newDirectory(keys []ID) *directory {
	if len(keys) < 64 || len(keys) >= 1<<31 {
		return nil
	}
	d := &directory{lo: keys[0]}
	nb := 1 << (bits.Len(uint(len(keys)/4)) - 1)
	d.shift = uint(max(bits.Len64(uint64(keys[len(keys)-1]-d.lo))-bits.TrailingZeros(uint(nb)), 0))
	d.start = make([]int32, nb+1)
	b := 0
	for i, k := range keys {
		for kb := int((k - d.lo) >> d.shift); b <= kb; b++ {
			d.start[b] = int32(i)
		}
	}
	for ; b <= nb; b++ {
		d.start[b] = int32(len(keys))
	}
	return d
}

// search is the index of the first of keys at least k.
func (d *directory) search(keys []ID, k ID) int {
	if k < d.lo {
		return 0
	}
	b := uint64(k-d.lo) >> d.shift
	if b >= uint64(len(d.start)-1) {
		return len(keys)
	}
	i, _ := slices.BinarySearch(keys[d.start[b]:d.start[b+1]], k)
	return int(d.start[b]) + i
}

// probe returns the candidates of a probe with the key positions of vals: a bucket of the hash layout
// or a run of the sorted one (hint is the probing step's place in it).
func (t *quadTable) probe(vals [4]ID, hint *int) (lo, hi int32) {
	if t.sorted != nil {
		return t.sorted.run(vals[t.key[0]], hint)
	}
	return t.bucket(vals)
}

// at is candidate i; false when it is to be skipped (see sortedTable.quad).
func (t *quadTable) at(i int32) (graph.IDQuad, bool) {
	if t.sorted != nil {
		return t.sorted.quad(i)
	}
	return t.quads[i], true
}
