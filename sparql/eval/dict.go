package eval

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/expr"
)

// ID is a dictionary ID; 0 (graph.Any) is an unbound slot.
type ID = graph.ID

// Store terms are decoded through the store's term cache, which outlives
// the query; only the query-local terms are kept here.

// Dict maps terms to IDs and back for one query execution. Store terms
// keep their store IDs, so that joins compare IDs. Terms the store does
// not hold (computed by BIND, VALUES, aggregates) get local IDs taken from
// the free slots of the store's dictionary, so they never equal a store
// ID: the view is a snapshot, no term can arrive later.
type Dict struct {
	view      *graph.View
	local     map[ID]rdf.Term
	localIDs  map[rdf.Term]ID
	nextLocal ID
	// found caches the store IDs Encode looked up (computed values
	// repeat: counts, sums), up to maxFound of them.
	found map[rdf.Term]ID
	// ints caches the IDs of xsd:integer values by value (counts
	// repeat from group to group), up to maxFound of them.
	ints map[int64]ID
	// keys are the prepared ORDER BY keys of local terms (computed
	// values, sorted or compared again and again), up to maxFound.
	keys map[ID]*expr.OrderKey
	// aheadIDs and aheadTerms are the terms of the current row decoded
	// ahead (decodeahead.go).
	aheadIDs   []ID
	aheadTerms []rdf.Term
	// decodedAhead counts the terms decoded ahead (for tests).
	decodedAhead int
}

// orderKey returns id's term prepared for comparison; the keys of
// local terms are prepared once and shared: callers do not modify them.
func (d *Dict) orderKey(id ID) (*expr.OrderKey, error) {
	if k, ok := d.keys[id]; ok {
		return k, nil
	}
	if t, ok := d.local[id]; ok {
		k := expr.KeyOf(t)
		if d.keys == nil {
			d.keys = map[ID]*expr.OrderKey{}
		}
		if len(d.keys) < maxFound {
			d.keys[id] = &k
		}
		return &k, nil
	}
	t, err := d.Term(id)
	if err != nil {
		return nil, err
	}
	k := expr.KeyOf(t)
	return &k, nil
}

// orderKeyOf is orderKey by value: a store term's key is not kept, and
// so costs no allocation per row of a sort.
func (d *Dict) orderKeyOf(id ID) (expr.OrderKey, error) {
	if _, ok := d.local[id]; ok {
		k, err := d.orderKey(id)
		if err != nil {
			return expr.OrderKey{}, err
		}
		return *k, nil
	}
	t, err := d.Term(id)
	if err != nil {
		return expr.OrderKey{}, err
	}
	return expr.KeyOf(t), nil
}

// maxFound bounds Dict.found.
const maxFound = 1 << 16

// NewDict returns a dictionary over view.
func NewDict(view *graph.View) *Dict {
	return &Dict{view: view, local: map[ID]rdf.Term{}, localIDs: map[rdf.Term]ID{}, nextLocal: ^ID(0)}
}

// Term decodes id.
func (d *Dict) Term(id ID) (rdf.Term, error) {
	if id == graph.Any {
		return rdf.Term{}, nil
	}
	for i, a := range d.aheadIDs {
		if a == id {
			return d.aheadTerms[i], nil
		}
	}
	if t, ok := d.local[id]; ok {
		return t, nil
	}
	return d.view.Term(id)
}

// Lookup returns the store ID of t, or found false when the store does
// not hold t (a pattern constant then matches nothing). Local terms are
// found too, so that a constant equal to a computed value compares equal.
func (d *Dict) Lookup(t rdf.Term) (ID, bool, error) {
	if id, ok := d.localIDs[t]; ok {
		return id, true, nil
	}
	id, ok, err := d.view.Lookup(t)
	if !ok && err == nil && t.Lang != "" && t.Lang != strings.ToLower(t.Lang) {
		// Language tags are case-insensitive; stores keep the lower
		// case form that RDF 1.1 recommends.
		t.Lang = strings.ToLower(t.Lang)
		return d.view.Lookup(t)
	}
	return id, ok, err
}

// Encode returns the ID of t, assigning a local one when the store does
// not hold it. The zero Term is unbound (0).
func (d *Dict) Encode(t rdf.Term) (ID, error) {
	if t.IsZero() {
		return graph.Any, nil
	}
	if id, ok := d.found[t]; ok {
		return id, nil
	}
	id, ok, err := d.Lookup(t)
	if err != nil {
		return id, err
	}
	if ok {
		if d.found == nil {
			d.found = map[rdf.Term]ID{}
		}
		if len(d.found) < maxFound {
			d.found[t.Clone()] = id
		}
		return id, nil
	}
	for {
		id = d.nextLocal
		if id < 2 {
			return 0, errors.New("query-local term IDs exhausted")
		}
		d.nextLocal--
		_, err := d.view.Term(id)
		if errors.Is(err, graph.ErrNotFound) {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("allocating a query-local term ID: %w", err)
		}
	}
	t = t.Clone()
	d.local[id] = t
	d.localIDs[t] = id
	return id, nil
}

// Integer returns the ID of the xsd:integer n, as Encode would, without
// building and hashing its term when n was encoded before.
func (d *Dict) Integer(n int64) (ID, error) {
	if id, ok := d.ints[n]; ok {
		return id, nil
	}
	id, err := d.Encode(expr.Integer(n))
	if err != nil {
		return 0, err
	}
	if d.ints == nil {
		d.ints = map[int64]ID{}
	}
	if len(d.ints) < maxFound {
		d.ints[n] = id
	}
	return id, nil
}

// isLocal reports whether id is a query-local ID (a term the store lacks).
func (d *Dict) isLocal(id ID) bool {
	_, ok := d.local[id]
	return ok
}

// Terms decodes ids into dst (grown to len(ids)): the store's IDs in one
// sorted pass over the dictionary for those not in its cache, the local
// ones from here.
func (d *Dict) Terms(ctx context.Context, ids []ID, dst []rdf.Term) ([]rdf.Term, error) {
	if len(d.local) == 0 {
		return d.view.Terms(ctx, ids, dst)
	}
	store := make([]ID, len(ids))
	for i, id := range ids {
		if _, ok := d.local[id]; !ok {
			store[i] = id
		}
	}
	dst, err := d.view.Terms(ctx, store, dst)
	if err != nil {
		return nil, err
	}
	for i, id := range ids {
		if t, ok := d.local[id]; ok {
			dst[i] = t
		}
	}
	return dst, nil
}
