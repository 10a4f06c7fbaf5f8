package eval

import (
	"strings"

	"github.com/mneme-archive/mneme/graph"
)

// SELECT DISTINCT of one variable of one triple pattern needs no hash
// set when the pattern's range is cached whole and sorted on that
// variable (its first free column: `?s p ?o` projected on ?o, read in
// POSG order): the distinct values are the runs of the range's keys, in
// the order in which the scan would first meet them. Nothing is held
// but the position in the range, and a count above it (COUNT(*) over
// the DISTINCT) counts runs without making rows.

// distinctRunsDetail marks the pattern's step in EXPLAIN once its
// distinct values were read as runs.
const distinctRunsDetail = ", distinct by runs of the cached range"

// distinctRuns returns the iterator over the distinct values of sub, a
// projection on one variable of one triple pattern, read from the runs
// of its cached range; nil when they cannot be (the caller then reads
// sub as usual, which caches the range for the next time).
func distinctRuns(ex *Exec, sub node, e env) iter {
	cn, ok := sub.(*counted)
	if !ok {
		return nil
	}
	p, ok := cn.n.(*projectNode)
	if !ok || len(p.keep) != 1 {
		return nil
	}
	in := scanRows(ex, p.sub, e)
	if in == nil {
		return nil
	}
	sr := in.(*scanRowIter)
	pos := -1
	for k, t := range sr.pat.t {
		if t.slot >= 0 && t.slot == p.keep[0] {
			pos = k
		}
	}
	if pos < 0 {
		sr.close()
		return nil
	}
	r, ok := sr.q.cachedRange()
	if !ok {
		sr.close()
		return nil
	}
	if free, ok := r.FirstFree(); !ok || free != pos {
		sr.close()
		return nil
	}
	if st := sr.stats[1]; !strings.HasSuffix(st.Detail, distinctRunsDetail) {
		st.Detail += distinctRunsDetail
	}
	return &runDistinctIter{ex: ex, sr: sr, r: r, slot: p.keep[0], out: make([]ID, ex.width()), stats: cn.stats}
}

// runDistinctIter yields one row per run of a cached range: the run's
// value in slot.
type runDistinctIter struct {
	ex    *Exec
	sr    *scanRowIter // the pattern's scan, for its statistics
	r     graph.CachedRange
	i     int
	slot  int
	out   []ID
	reuse bool  // out is overwritten by each next (reuseRows)
	n     int64 // rows out, for the projection's statistics
	stats *Stats
}

func (it *runDistinctIter) reuseRows() { it.reuse = true }

func (it *runDistinctIter) next() ([]ID, error) {
	if it.i >= it.r.Len() {
		return nil, nil
	}
	if err := it.ex.tick(); err != nil {
		return nil, err
	}
	v, end, triples := it.r.Run(it.i)
	it.i = end
	it.sr.n += int64(triples)
	it.n++
	out := it.out
	if !it.reuse {
		out = it.ex.newRow(nil)
	}
	out[it.slot] = v
	return out, nil
}

// count counts the remaining runs (the rows next would yield).
func (it *runDistinctIter) count() (int64, bool, error) {
	var n int64
	for it.i < it.r.Len() {
		if err := it.ex.tick(); err != nil {
			return 0, false, err
		}
		_, end, triples := it.r.Run(it.i)
		it.i = end
		it.sr.n += int64(triples)
		n++
	}
	it.n += n
	return n, true, nil
}

func (it *runDistinctIter) close() {
	it.sr.close()
	it.stats.Rows += it.n
	it.n = 0
}
