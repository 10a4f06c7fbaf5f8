package graph

import (
	"cmp"
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
	if t, ok := v.terms.get(id); ok {
		return t, nil
	}
	b, err := v.r.Get(dictKey(id))
	if err != nil {
		return rdf.Term{}, fmt.Errorf("term %016x: %w", uint64(id), err)
	}
	t, err := decodeTerm(b)
	if err != nil {
		return rdf.Term{}, fmt.Errorf("term %016x: %w", uint64(id), err)
	}
	v.terms.put(id, t)
	return t, nil
}

// Terms decodes a batch of IDs into dst (grown to len(ids)); Any and
// DefaultGraph decode to the zero Term. Cached terms are taken from the
// cache; the others are read in one pass over the dictionary in ID order,
// which is much faster than one random read each.
func (v *View) Terms(ctx context.Context, ids []ID, dst []rdf.Term) ([]rdf.Term, error) {
	dst = slices.Grow(dst[:0], len(ids))[:len(ids)]
	var miss []int32 // positions of ids to read
	for i, id := range ids {
		if id == DefaultGraph || id == Any {
			dst[i] = rdf.Term{}
			continue
		}
		t, ok := v.terms.get(id)
		if !ok {
			miss = append(miss, int32(i))
			continue
		}
		dst[i] = t
	}
	if len(miss) == 0 {
		return dst, nil
	}
	slices.SortFunc(miss, func(a, b int32) int { return cmp.Compare(ids[a], ids[b]) })
	it, err := v.r.NewIter([]byte{tagDict}, []byte{tagDict + 1})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var key []byte
	for j, i := range miss {
		id := ids[i]
		if j > 0 && ids[miss[j-1]] == id {
			dst[i] = dst[miss[j-1]]
			continue
		}
		if j%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		key = appendDictKey(key[:0], id)
		if !it.SeekGE(key) || string(it.Key()) != string(key) {
			if err := it.Err(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("term %016x: not in dictionary", uint64(id))
		}
		t, err := decodeTerm(it.Value())
		if err != nil {
			return nil, fmt.Errorf("term %016x: %w", uint64(id), err)
		}
		v.terms.put(id, t)
		dst[i] = t
	}
	return dst, nil
}
