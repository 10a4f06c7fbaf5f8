package cayley

import (
	"github.com/maypok86/otter/v2"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
)

// sourceIDs bounds a Source's cache of term IDs.
const sourceIDs = 1 << 16

// Source hands out a QuadStore per query over one store, sharing what
// stays true across its snapshots: the IDs of the terms queries name (an
// ID never changes, dictionary entries are never rewritten or deleted),
// so that a query's constants (predicates, classes, the nodes it starts
// from) are not looked up in the dictionary again by every query.
type Source struct {
	s   *graph.Store
	ids *otter.Cache[rdf.Term, graph.ID]
}

// NewSource returns a Source over s.
func NewSource(s *graph.Store) *Source {
	c, err := otter.New(&otter.Options[rdf.Term, graph.ID]{MaximumSize: sourceIDs})
	if err != nil {
		panic(err) // the options are constant and valid
	}
	return &Source{s: s, ids: c}
}

// Snapshot returns a read-only QuadStore over a snapshot, as NewSnapshot.
func (src *Source) Snapshot() *QuadStore {
	qs := NewSnapshot(src.s)
	qs.ids = src.ids
	return qs
}

// Store is the store of the source.
func (src *Source) Store() *graph.Store { return src.s }
