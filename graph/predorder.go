package graph

import (
	"cmp"
	"context"
	"slices"

	"github.com/maypok86/otter/v2"
)

// The store keeps no P-S-O ordering: a predicate's triples come sorted on
// the object (POSG), and a join, anti-join or OPTIONAL of two patterns
// `?x p ?a`, `?x q ?b` on their subject has no pair of subject-ordered
// ranges to merge. PredicateOrder derives one: the predicate's cached
// POSG range re-sorted on the subject (or, on the object, just its two
// columns), kept beside the posting cache in a bounded cache of its own,
// so that warm queries find it built. A derived order is valid exactly as
// long as the posting list it was made from: it is used only when the
// reader's own posting list is that one.

// PredicateOrder is the triples of one predicate in the union of all
// graphs, each once, sorted on one end (Key: the subject or the object)
// and then on the other (Val).
type PredicateOrder struct {
	Key, Val []ID
}

// Len is the number of triples.
func (o PredicateOrder) Len() int { return len(o.Key) }

// Run returns the triples whose key is k, [lo, hi), searching from
// index from on (its result for a smaller key is a good start when keys
// are looked for in increasing order: the search gallops forward).
func (o PredicateOrder) Run(k ID, from int) (lo, hi int) {
	n := len(o.Key)
	if from < 0 || from > n || (from > 0 && o.Key[from-1] >= k) {
		from = 0 // every key before from must be below k
	}
	// Gallop: find a bound past k, then search the last step.
	end, step := from, 1
	for end < n && o.Key[end] < k {
		from = end + 1
		end += step
		step <<= 1
	}
	end = min(end, n)
	i, _ := slices.BinarySearch(o.Key[from:end], k)
	lo = from + i
	hi = lo
	for hi < n && o.Key[hi] == k {
		hi++
	}
	return lo, hi
}

// derivedOrder is a cached PredicateOrder and the posting list's keys it
// was derived from.
type derivedOrder struct {
	p         ID
	bySubject bool
	src       *cols
	order     PredicateOrder
}

// derived is the cache of orders derived from pc's posting lists:
// weighed by their IDs, with a quarter of the posting cache's budget.
func (pc *postingCache) derived() *otter.Cache[uint64, *derivedOrder] {
	pc.ordersOnce.Do(func() {
		c, err := otter.New(&otter.Options[uint64, *derivedOrder]{
			MaximumWeight: uint64(pc.maxKeys) * uint64(len(cols{})*8),
			Weigher: func(_ uint64, d *derivedOrder) uint32 {
				return uint32(postingOverhead + 16*len(d.order.Key))
			},
		})
		if err != nil {
			panic(err) // only invalid options fail, and these are fixed
		}
		pc.orders = c
	})
	return pc.orders
}

// PredicateOrder returns predicate p's triples in the union of all graphs
// sorted on the subject (bySubject) or on the object. ok is false when
// the predicate's range is too large for the posting cache (or the view
// has none): the caller then reads the store as usual. Without build,
// only an order already derived and still valid is returned (ok false
// otherwise), which costs no read of the range.
func (v *View) PredicateOrder(ctx context.Context, p ID, bySubject, build bool) (order PredicateOrder, ok bool, err error) {
	r, ok, err := v.cachedPredicate(ctx, p, build)
	if err != nil || !ok {
		return PredicateOrder{}, false, err
	}
	if r.Len() == 0 {
		return PredicateOrder{}, true, nil
	}
	pc := v.postings
	c := pc.derived()
	key := uint64(p) * 2
	if bySubject {
		key++
	}
	src := &r.keys[0]
	if d, hit := c.GetIfPresent(key); hit && d.src == src && d.p == p && d.bySubject == bySubject {
		return d.order, true, nil
	}
	if !build {
		return PredicateOrder{}, false, nil
	}
	order = derive(r, bySubject)
	c.Set(key, &derivedOrder{p: p, bySubject: bySubject, src: src, order: order})
	return order, true, nil
}

// cachedPredicate returns the cached POSG range of p in the union of all
// graphs, reading it whole first when it is not cached and read is set.
func (v *View) cachedPredicate(ctx context.Context, p ID, read bool) (CachedRange, bool, error) {
	if v.postings == nil {
		return CachedRange{}, false, nil
	}
	for try := 0; try < 2; try++ {
		q, err := v.Scan(ctx, Pattern{P: p}, ScanOptions{Union: true, Order: POSG})
		if err != nil {
			return CachedRange{}, false, err
		}
		if r, ok := q.Cached(); ok {
			_ = q.Close()
			return r, true, nil
		}
		if try == 1 || !read {
			return CachedRange{}, false, q.Close()
		}
		// A scan read to its end caches its range when it fits.
		for q.Next() {
		}
		err = q.Err()
		if cerr := q.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return CachedRange{}, false, err
		}
	}
	return CachedRange{}, false, nil
}

// derive makes the order of r, a predicate's POSG range in the union of
// all graphs (keys sorted on object, subject, graph): its triples once
// each, by object as they come or re-sorted by subject.
func derive(r CachedRange, bySubject bool) PredicateOrder {
	cs, co := r.col[0], r.col[2]
	type pair struct{ k, v ID }
	pairs := make([]pair, 0, len(r.keys))
	var last pair
	for i, k := range r.keys {
		pr := pair{ID(k[co]), ID(k[cs])}
		if i > 0 && pr == last {
			continue // the same triple in another graph
		}
		last = pr
		if bySubject {
			pr.k, pr.v = pr.v, pr.k
		}
		pairs = append(pairs, pr)
	}
	if bySubject {
		slices.SortFunc(pairs, func(a, b pair) int {
			if c := cmp.Compare(a.k, b.k); c != 0 {
				return c
			}
			return cmp.Compare(a.v, b.v)
		})
	}
	o := PredicateOrder{Key: make([]ID, len(pairs)), Val: make([]ID, len(pairs))}
	for i, pr := range pairs {
		o.Key[i], o.Val[i] = pr.k, pr.v
	}
	return o
}
