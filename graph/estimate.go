package graph

import (
	"context"
	"errors"
	"math"

	"github.com/mneme-archive/mneme/graph/kv"
)

// estimateLimit is how many quads Estimate counts before it extrapolates.
// Counting stops there, so an estimate costs at most this many key reads;
// the extrapolation's relative standard error is about 1/sqrt(limit).
const estimateLimit = 1024

// Estimate is a cardinality estimate.
type Estimate struct {
	N     uint64
	Exact bool
}

// Estimate returns the number of quads matching pat (in the union of all
// graphs when pat.G is Any, counting a triple once per graph holding it).
//
// Patterns answered from the statistics are exact: nothing bound, only the
// predicate, only the graph. Otherwise the matching range of the best
// ordering is counted; up to estimateLimit quads the count is exact.
// Beyond, the count is extrapolated from how far into the next key
// column's ID space the limit was reached: hash IDs spread uniformly, so
// this is an unbiased sample when that column is a subject or an object;
// when it is the predicate or the graph (few distinct values) the figure
// is coarser. Extrapolations are capped by the exact statistics.
func (v *View) Estimate(ctx context.Context, pat Pattern) (Estimate, error) {
	st, err := v.patternStats(pat)
	if err != nil {
		return Estimate{}, err
	}
	bound := 0
	for _, id := range [4]ID{pat.S, pat.P, pat.O, pat.G} {
		if id != Any {
			bound++
		}
	}
	switch {
	case bound == 0:
		return Estimate{st.Quads, true}, nil
	case bound == 1 && pat.P != Any:
		return Estimate{st.Predicates[pat.P].Quads, true}, nil
	case bound == 1 && pat.G != Any:
		return Estimate{st.Graphs[pat.G], true}, nil
	}
	limit := st.Quads
	if pat.P != Any {
		limit = min(limit, st.Predicates[pat.P].Quads)
	}
	if pat.G != Any {
		limit = min(limit, st.Graphs[pat.G])
	}
	it, err := v.Scan(ctx, pat, ScanOptions{})
	if err != nil {
		return Estimate{}, err
	}
	defer it.Close()
	// An estimate reads a sample: a missed range is not worth reading
	// whole into the posting cache.
	it.fill = false
	n := uint64(0)
	for it.Next() {
		n++
		if n == estimateLimit {
			break
		}
	}
	if err := it.Err(); err != nil {
		return Estimate{}, err
	}
	if n < estimateLimit {
		return Estimate{n, true}, nil
	}
	// The first column after the bound prefix is where the sample stops.
	free := orders[it.Order()-1].perm[len(it.prefix)/8]
	reached := float64(it.Quad().at(free)) / math.MaxUint64
	est := uint64(math.MaxUint64)
	if reached > 0 {
		est = uint64(float64(n) / reached)
	}
	return Estimate{max(n, min(est, limit)), false}, nil
}

// patternStats reads only the statistics keys a pattern needs: the
// totals and the pattern's predicate and graph.
func (v *View) patternStats(pat Pattern) (*Stats, error) {
	st := &Stats{Predicates: map[ID]PredicateStats{}, Graphs: map[ID]uint64{}}
	get := func(key []byte, n int) ([]uint64, error) {
		b, err := v.r.Get(key)
		if errors.Is(err, kv.ErrNotFound) {
			return make([]uint64, n), nil
		}
		if err != nil {
			return nil, err
		}
		return getUint64s(b, n)
	}
	u, err := get(statTotalKey, 2)
	if err != nil {
		return nil, err
	}
	st.Quads, st.Triples = u[0], u[1]
	if pat.P != Any {
		if u, err = get(statPredKey(pat.P), 4); err != nil {
			return nil, err
		}
		st.Predicates[pat.P] = PredicateStats{u[0], u[1], u[2], u[3]}
	}
	if pat.G != Any {
		if u, err = get(statGraphKey(pat.G), 1); err != nil {
			return nil, err
		}
		st.Graphs[pat.G] = u[0]
	}
	return st, nil
}
