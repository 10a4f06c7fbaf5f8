package graph

// Counting a scan's results without producing them: a COUNT over one
// pattern, or the last pattern of a join, needs only how many quads
// match, and the posting cache holds most ranges as sorted arrays whose
// keys need not be decoded one by one into quads to be counted.

// PredicateStats returns the statistics of predicate p (zero when no
// quad has it), reading only its key.
func (v *View) PredicateStats(p ID) (PredicateStats, error) {
	st, err := v.patternStats(Pattern{P: p})
	if err != nil {
		return PredicateStats{}, err
	}
	return st.Predicates[p], nil
}

// Count consumes a scan that has not started and returns the number of
// quads it would have returned. When the posting cache holds the scan's
// range whole and every key of it is a result (no column after the bound
// prefix is bound), the keys are counted in place — in a union scan, a
// triple held by several graphs once, its keys being adjacent; otherwise
// the scan is walked (and its range cached as Next would).
func (q *QuadIter) Count() (int64, error) {
	if r, ok := q.Cached(); ok {
		q.started, q.inMem, q.mem, q.pos = true, true, nil, 0
		if !q.union {
			return int64(r.Len()), nil
		}
		return int64(r.distinctTriples()), nil
	}
	var n int64
	for q.Next() {
		n++
	}
	return n, q.Err()
}

// distinctTriples is the number of keys of r that differ from the key
// before them in more than the graph: the triples of a union range
// (whose ordering has the graph last).
func (r CachedRange) distinctTriples() int {
	n := 0
	for i, k := range r.keys {
		if i == 0 || k[0] != r.keys[i-1][0] || k[1] != r.keys[i-1][1] || k[2] != r.keys[i-1][2] {
			n++
		}
	}
	return n
}
