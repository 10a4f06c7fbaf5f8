package cayley

import (
	"sync"
	"time"

	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/quad"
	"github.com/maypok86/otter/v2"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
)

const (
	// sourceIDs bounds a Source's cache of term IDs, sourceSizes its
	// cache of size estimates.
	sourceIDs    = 1 << 16
	sourceValues = 1 << 16
	sourceSizes  = 1 << 12
	// sizeAge is how long an estimate of a writable store is reused:
	// estimates only steer Cayley's optimiser, and a store that grows
	// changes them slowly.
	sizeAge = 10 * time.Second
)

// Source hands out a QuadStore per query over one store, sharing what
// stays true across its snapshots: the IDs of the terms queries name (an
// ID never changes, dictionary entries are never rewritten or deleted),
// so that a query's constants (predicates, classes, the nodes it starts
// from) are not looked up in the dictionary again by every query; the
// Cayley values of the IDs its results name (NameOf), for the same
// reason; and
// the size estimates of the patterns the optimiser weighs (an estimate
// counts up to a thousand keys), for good on a read-only store, for
// sizeAge on a writable one.
//
// Over a read-only store, whose state never changes, the queries need
// no snapshot of their own: they read the store and share its scans
// (opening a scan costs a query more than its seeks). Close the Source
// before the store.
type Source struct {
	s     *graph.Store
	ids   *otter.Cache[rdf.Term, graph.ID]
	vals  *otter.Cache[graph.ID, quad.Value]
	sizes *otter.Cache[graph.Pattern, refs.Size]
	// Over a read-only store: the QuadStore all queries share, and its
	// reads.
	shared *QuadStore
	v      *view
	pool   *scanPool
}

// NewSource returns a Source over s.
func NewSource(s *graph.Store) *Source {
	ids, err := otter.New(&otter.Options[rdf.Term, graph.ID]{MaximumSize: sourceIDs})
	if err != nil {
		panic(err) // the options are constant and valid
	}
	vals, err := otter.New(&otter.Options[graph.ID, quad.Value]{MaximumSize: sourceValues})
	if err != nil {
		panic(err)
	}
	so := &otter.Options[graph.Pattern, refs.Size]{MaximumSize: sourceSizes}
	if !s.ReadOnly() {
		so.ExpiryCalculator = otter.ExpiryWriting[graph.Pattern, refs.Size](sizeAge)
	}
	sizes, err := otter.New(so)
	if err != nil {
		panic(err)
	}
	src := &Source{s: s, ids: ids, vals: vals, sizes: sizes}
	if s.ReadOnly() {
		src.v, src.pool = &view{v: s.View}, &scanPool{}
		src.shared = &QuadStore{v: src.v, frozen: true, ro: s, pool: src.pool, ids: ids, vals: vals, sizes: sizes}
	}
	return src
}

// Snapshot returns a read-only QuadStore for one query: over a snapshot
// of a writable store, as NewSnapshot; over a read-only store the same
// QuadStore for every query, the store itself, sharing the Source's scans
// (its Close does nothing, so that Gizmo sessions over it can be kept for
// later queries: api.Sessions).
func (src *Source) Snapshot() *QuadStore {
	if src.shared != nil {
		return src.shared
	}
	qs := NewSnapshot(src.s)
	qs.ids, qs.vals, qs.sizes = src.ids, src.vals, src.sizes
	return qs
}

// Renew moves qs, a QuadStore that Snapshot returned over a writable
// store, to a new snapshot of the store, releasing its old one (as
// Close), so that a Gizmo session bound to qs can run a later query over
// the store's latest state (api.Sessions). Only between queries: no scan
// of qs may be open. Over a read-only store it does nothing.
func (src *Source) Renew(qs *QuadStore) {
	if qs == src.shared {
		return
	}
	qs.Close()
	v := src.s.Snapshot()
	qs.v = &view{v: v, release: v.Close}
	qs.pool = &scanPool{}
	qs.statsOnce, qs.st, qs.stErr = sync.Once{}, nil, nil
}

// Close closes the scans the queries of a read-only store share, once
// the last query using them has closed them; the QuadStores it handed
// out cannot read after.
func (src *Source) Close() error {
	if src.pool == nil {
		return nil
	}
	src.pool.close()
	return src.v.close()
}

// Store is the store of the source.
func (src *Source) Store() *graph.Store { return src.s }
