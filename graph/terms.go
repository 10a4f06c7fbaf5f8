package graph

import (
	"context"
	"fmt"
	"slices"

	"github.com/mneme-archive/mneme/rdf"
)

// Lookup returns the ID of term t; found is false when the store has never
// held t (a pattern with such a constant matches nothing). The zero Term
// is the default graph.
func (v *View) Lookup(t rdf.Term) (id ID, found bool, err error) {
	if t.IsZero() {
		return DefaultGraph, true, nil
	}
	enc := appendTerm(nil, t)
	return probe(v.r, v.hash(enc), enc, nil)
}

// LookupTerms looks up several terms; ids[i] is Any where terms[i] is
// unknown.
func (v *View) LookupTerms(terms []rdf.Term) ([]ID, error) {
	ids := make([]ID, len(terms))
	for i, t := range terms {
		id, ok, err := v.Lookup(t)
		if err != nil {
			return nil, err
		}
		if ok {
			ids[i] = id
		}
	}
	return ids, nil
}

// Term returns the term of id. DefaultGraph is the zero Term.
func (v *View) Term(id ID) (rdf.Term, error) {
	if id == DefaultGraph {
		return rdf.Term{}, nil
	}
	b, err := v.r.Get(dictKey(id))
	if err != nil {
		return rdf.Term{}, fmt.Errorf("term %016x: %w", uint64(id), err)
	}
	return decodeTerm(b)
}

// Terms decodes a batch of IDs into dst (grown to len(ids)), visiting the
// dictionary once in ID order, which is faster than one Term call per ID
// when results are decoded in bulk.
func (v *View) Terms(ctx context.Context, ids []ID, dst []rdf.Term) ([]rdf.Term, error) {
	dst = slices.Grow(dst[:0], len(ids))[:len(ids)]
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	decoded := make(map[ID]rdf.Term, len(sorted))
	it, err := v.r.NewIter([]byte{tagDict}, []byte{tagDict + 1})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	for i, id := range sorted {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if id == DefaultGraph || id == Any {
			continue
		}
		k := dictKey(id)
		if !it.SeekGE(k) || string(it.Key()) != string(k) {
			if err := it.Err(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("term %016x: not in dictionary", uint64(id))
		}
		t, err := decodeTerm(it.Value())
		if err != nil {
			return nil, fmt.Errorf("term %016x: %w", uint64(id), err)
		}
		decoded[id] = t
	}
	for i, id := range ids {
		dst[i] = decoded[id]
	}
	return dst, nil
}
