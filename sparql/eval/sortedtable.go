package eval

import (
	"github.com/mneme-archive/mneme/graph"
)

// sortedTableRows is the estimated size from which a pattern probed on
// one position is read from its range sorted on that position, as the
// posting cache holds it (graph.QuadIter.CachedBy: a predicate's quads by
// subject, say), instead of hashed per query: from there on building the
// table costs more than the probes' searches, and a pattern larger than
// the query's memory bound would otherwise be looked up row by row, a
// seek each.
var sortedTableRows = 1 << 16 // a variable for the tests

// sortedTable is a quadTable read from a cached range sorted on its one
// key position: a bucket is the run of keys equal to the probe's,
// found by galloping from the previous probe's run (probes in key order,
// the common case, walk the range once, as a merge join would) or by
// binary search. It holds no memory of the query's own.
type sortedTable struct {
	r     graph.CachedRange
	pos   int  // the key position
	union bool // a union scan's range: a triple's copies in other graphs are skipped
}

// sortedTableOf returns pat's range sorted on its key position when the
// pattern is large and probed on one position and the posting cache
// holds (or, for a pattern too large for the query's memory, can be
// given) its range whole.
func (ex *Exec) sortedTableOf(pat *quadPat, key []int, sel *graphSel) (*sortedTable, error) {
	if len(key) != 1 || pat.graphVar || pat.card < float64(sortedTableRows) || sel == nil {
		return nil, nil
	}
	base := pat.pattern(nil)
	try := func() (*sortedTable, bool) {
		q := ex.scan(base, sel)
		defer q.close()
		r, ok := q.cachedBy(key[0])
		if !ok {
			return nil, false
		}
		return &sortedTable{r: r, pos: key[0], union: sel.union}, true
	}
	if t, ok := try(); ok {
		return t, nil
	}
	if pat.card < float64(ex.maxRows()-ex.memRows) {
		return nil, nil // the hash table is built, reading the range whole
	}
	// Too large to hash: read the range once, holding nothing, so that
	// the posting cache has it (unless it is too large for the cache).
	q := ex.scan(base, sel)
	for q.next() {
		if err := ex.tick(); err != nil {
			q.close()
			return nil, err
		}
	}
	q.close()
	if q.err != nil {
		return nil, q.err
	}
	t, _ := try()
	return t, nil
}

// run returns the range [lo, hi) of keys whose key position holds k,
// searching from *hint (the previous run's end) and leaving it there.
func (t *sortedTable) run(k ID, hint *int) (lo, hi int32) {
	r, pos, n := t.r, t.pos, t.r.Len()
	i := *hint
	if r.Indexed() && (i >= n || i > 0 && r.At(i-1, pos) >= k || r.At(i, pos) < k) {
		// Not at the hint: the range's directory finds the run.
		i = r.SearchFirst(pos, k)
		end := i
		for end < n && r.At(end, pos) == k {
			end++
		}
		*hint = end
		return int32(i), int32(end)
	}
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
// before it in another graph. The graph of a union range's quad is Any,
// as a union scan returns it.
func (t *sortedTable) quad(i int32) (graph.IDQuad, bool) {
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

// cachedBy is cachedRange sorted on quad position pos (see
// graph.QuadIter.CachedBy).
func (q *quadIter) cachedBy(pos int) (graph.CachedRange, bool) {
	if q.sel == nil || !q.sel.union && len(q.sel.ids) > 1 || q.cur != nil || q.i > 0 || q.err != nil {
		return graph.CachedRange{}, false
	}
	if !q.open() {
		return graph.CachedRange{}, false
	}
	return q.cur.CachedBy(pos)
}

// probe returns the candidates of a probe with the key positions of
// vals: a bucket of the hash layout, or a run of the sorted one (hint
// is the probing step's place in it).
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
