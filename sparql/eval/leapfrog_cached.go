package eval

import "github.com/mneme-archive/mneme/graph"

// trieFromRange builds the trie of the positions cols of a range held
// whole by the store's posting cache, restricted to the quads whose value
// at cols[0] lies in [lo, hi) (hi 0: no bound): a loop over the cached
// keys instead of an iterator call per quad. lo and hi need the range
// sorted on cols[0]; false when its pairs are not sorted (the caller then reads and sorts them as from the store).
// Equal pairs (a union scan's quad in several graphs) are kept once.
func trieFromRange(cr graph.CachedRange, cols [2]int, lo, hi ID) (*trie, bool) {
	from, to := 0, cr.Len()
	if lo > 0 {
		from = cr.SearchFirst(cols[0], lo)
	}
	if hi != 0 {
		to = cr.SearchFirst(cols[0], hi)
	}
	t := &trie{second: make([]ID, 0, to-from)}
	var a, b ID
	for i := from; i < to; i++ {
		x, y := cr.At(i, cols[0]), cr.At(i, cols[1])
		switch {
		case i > from && x < a:
			return nil, false
		case i == from || x != a:
			t.first = append(t.first, x)
			t.start = append(t.start, int32(len(t.second)))
		case y == b:
			continue
		case y < b:
			return nil, false
		}
		t.second = append(t.second, y)
		a, b = x, y
	}
	t.start = append(t.start, int32(len(t.second)))
	return t, true
}

// cached reports whether the posting cache holds r's range in sel whole.
func (ex *Exec) cached(r *lfRel, sel *graphSel) bool {
	it, _, err := ex.rawScan(r.pat.pattern(nil), sel)
	if err != nil {
		return false // the read that follows reports it
	}
	defer it.Close()
	_, ok := it.Cached()
	return ok
}
