package cayley

import (
	"time"

	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/maypok86/otter/v2"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
)

const (
	// sourceIDs bounds a Source's cache of term IDs, sourceSizes its
	// cache of size estimates.
	sourceIDs   = 1 << 16
	sourceSizes = 1 << 12
	// sizeAge is how long an estimate of a writable store is reused:
	// estimates only steer Cayley's optimiser, and a store that grows
	// changes them slowly.
	sizeAge = 10 * time.Second
)

// Source hands out a QuadStore per query over one store, sharing what
// stays true across its snapshots: the IDs of the terms queries name (an
// ID never changes, dictionary entries are never rewritten or deleted),
// so that a query's constants (predicates, classes, the nodes it starts
// from) are not looked up in the dictionary again by every query; and
// the size estimates of the patterns the optimiser weighs (an estimate
// counts up to a thousand keys), for good on a read-only store, for
// sizeAge on a writable one.
type Source struct {
	s     *graph.Store
	ids   *otter.Cache[rdf.Term, graph.ID]
	sizes *otter.Cache[graph.Pattern, refs.Size]
}

// NewSource returns a Source over s.
func NewSource(s *graph.Store) *Source {
	ids, err := otter.New(&otter.Options[rdf.Term, graph.ID]{MaximumSize: sourceIDs})
	if err != nil {
		panic(err) // the options are constant and valid
	}
	so := &otter.Options[graph.Pattern, refs.Size]{MaximumSize: sourceSizes}
	if !s.ReadOnly() {
		so.ExpiryCalculator = otter.ExpiryWriting[graph.Pattern, refs.Size](sizeAge)
	}
	sizes, err := otter.New(so)
	if err != nil {
		panic(err)
	}
	return &Source{s: s, ids: ids, sizes: sizes}
}

// Snapshot returns a read-only QuadStore over a snapshot, as NewSnapshot.
func (src *Source) Snapshot() *QuadStore {
	qs := NewSnapshot(src.s)
	qs.ids, qs.sizes = src.ids, src.sizes
	return qs
}

// Store is the store of the source.
func (src *Source) Store() *graph.Store { return src.s }
