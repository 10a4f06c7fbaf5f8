package eval

import (
	"strings"

	"github.com/mneme-archive/mneme/graph"
)

// A GROUP BY of one triple pattern on one of its variables, whose
// aggregates all count rows (COUNT(*), or COUNT of a variable of the
// pattern, bound in every match), needs no row per match when the
// pattern's range is cached whole and sorted on that variable (its first
// free column: `?s p ?o` grouped by ?o, read in POSG order): each group
// is a run of the range's keys and its count the run's length. Groups
// come out one at a time in key order, so nothing is held.

// runsDetail marks the pattern's step in EXPLAIN once it was counted in
// runs.
const runsDetail = ", grouped by runs of the cached range"

// groupRuns returns the iterator over g's groups counted from the runs
// of sr's range, or nil when they cannot be (sr is then still unread,
// and the hash aggregation reads it, which caches its range).
func groupRuns(ex *Exec, g *groupNode, e env, sr *scanRowIter) iter {
	if len(g.keys) != 1 || g.keyVar[0] < 0 {
		return nil
	}
	pos := -1
	vars := map[int]bool{}
	for k, p := range sr.pat.t {
		if p.slot >= 0 {
			vars[p.slot] = true
			if p.slot == g.keyVar[0] {
				pos = k
			}
		}
	}
	if pos < 0 {
		return nil
	}
	for i, kind := range g.kinds {
		if kind != aggCount || g.argSlots[i] >= 0 && !vars[g.argSlots[i]] {
			return nil
		}
	}
	r, ok := sr.q.cachedRange()
	if !ok {
		return nil
	}
	if free, ok := r.FirstFree(); !ok || free != pos {
		return nil
	}
	if st := sr.stats[1]; !strings.HasSuffix(st.Detail, runsDetail) {
		st.Detail += runsDetail
	}
	return &runGroupIter{ex: ex, g: g, e: e, sr: sr, r: r}
}

// runGroupIter yields the groups of a cached range's runs.
type runGroupIter struct {
	ex *Exec
	g  *groupNode
	e  env
	sr *scanRowIter // the pattern's scan, for its statistics
	r  graph.CachedRange
	i  int
}

func (it *runGroupIter) next() ([]ID, error) {
	for it.i < it.r.Len() {
		if err := it.ex.tick(); err != nil {
			return nil, err
		}
		v, end, n := it.r.Run(it.i)
		it.i = end
		it.sr.n += int64(n)
		gr := it.g.newGroup([]ID{v})
		for k := range gr.accs {
			gr.accs[k].n = int64(n)
		}
		r, keep, err := it.g.row(it.ex, it.e, gr)
		if err != nil {
			return nil, err
		}
		if keep {
			return r, nil
		}
	}
	return nil, nil
}

func (it *runGroupIter) close() { it.sr.close() }
