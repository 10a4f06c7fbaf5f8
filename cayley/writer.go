package cayley

import (
	"context"
	"errors"
	"fmt"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
)

// writeBatch is how many quads a QuadWriter commits at once: a commit of
// at least 65,536 insertions is written as sorted files, the store's
// fastest path.
const writeBatch = 1 << 16

// rdfQuad maps a Cayley quad to the store's terms.
func rdfQuad(q quad.Quad) (rdf.Quad, error) {
	if !q.IsValid() {
		return rdf.Quad{}, fmt.Errorf("cayley: invalid quad %v: subject, predicate and object are needed", q)
	}
	var out rdf.Quad
	var err error
	for _, p := range []struct {
		t *rdf.Term
		v quad.Value
	}{{&out.S, q.Subject}, {&out.P, q.Predicate}, {&out.O, q.Object}, {&out.G, q.Label}} {
		if *p.t, err = ToTerm(p.v); err != nil {
			return rdf.Quad{}, err
		}
	}
	return out, nil
}

// ApplyDeltas applies the deltas in one atomic commit. An insertion of a
// quad present (or a deletion of one absent), counting the earlier deltas,
// fails the whole call with a graph.DeltaError unless opts ignore it.
func (qs *QuadStore) ApplyDeltas(in []cgraph.Delta, opts cgraph.IgnoreOpts) error {
	if qs.s == nil {
		return ErrReadOnly
	}
	ctx := context.Background()
	b := qs.s.NewGeneralisedBatch()
	state := make(map[rdf.Quad]bool, len(in))
	for _, d := range in {
		q, err := rdfQuad(d.Quad)
		if err != nil {
			return &cgraph.DeltaError{Delta: d, Err: err}
		}
		present, seen := state[q]
		if !seen {
			if present, err = qs.holds(ctx, q); err != nil {
				return err
			}
		}
		switch d.Action {
		case cgraph.Add:
			if present {
				if !opts.IgnoreDup {
					return &cgraph.DeltaError{Delta: d, Err: cgraph.ErrQuadExists}
				}
				continue
			}
			b.Add(q)
		case cgraph.Delete:
			if !present {
				if !opts.IgnoreMissing {
					return &cgraph.DeltaError{Delta: d, Err: cgraph.ErrQuadNotExist}
				}
				continue
			}
			b.Delete(q)
		default:
			return &cgraph.DeltaError{Delta: d, Err: cgraph.ErrInvalidAction}
		}
		state[q] = d.Action == cgraph.Add
	}
	_, err := b.Commit(ctx)
	return err
}

// holds reports whether the store has quad q.
func (qs *QuadStore) holds(ctx context.Context, q rdf.Quad) (bool, error) {
	ids, err := qs.v.LookupTerms([]rdf.Term{q.S, q.P, q.O, q.G})
	if err != nil {
		return false, err
	}
	for _, id := range ids {
		if id == graph.Any {
			return false, nil
		}
	}
	it, err := qs.v.Scan(ctx, graph.Pattern{S: ids[0], P: ids[1], O: ids[2], G: ids[3]}, graph.ScanOptions{})
	if err != nil {
		return false, err
	}
	defer it.Close()
	ok := it.Next()
	return ok, it.Err()
}

// NewQuadWriter returns a writer that adds quads in batches (quads the
// store has are skipped), committing every 65,536 quads and on Close.
func (qs *QuadStore) NewQuadWriter() (quad.WriteCloser, error) {
	if qs.s == nil {
		return nil, ErrReadOnly
	}
	return &quadWriter{s: qs.s, b: qs.s.NewGeneralisedBatch()}, nil
}

type quadWriter struct {
	s   *graph.Store
	b   *graph.Batch
	err error
}

func (w *quadWriter) WriteQuad(q quad.Quad) error {
	_, err := w.WriteQuads([]quad.Quad{q})
	return err
}

func (w *quadWriter) WriteQuads(qs []quad.Quad) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	for i, q := range qs {
		rq, err := rdfQuad(q)
		if err == nil {
			err = w.b.TryAdd(rq)
		}
		if err != nil {
			return i, err
		}
		if w.b.Len() >= writeBatch {
			if err := w.flush(); err != nil {
				return i + 1, err
			}
		}
	}
	return len(qs), nil
}

func (w *quadWriter) flush() error {
	if w.b.Len() == 0 {
		return nil
	}
	if _, err := w.b.Commit(context.Background()); err != nil {
		w.err = err
		return err
	}
	return nil
}

// Close commits what is left; it may be called again.
func (w *quadWriter) Close() error {
	if errors.Is(w.err, errClosed) {
		return nil
	}
	if w.err != nil {
		return w.err
	}
	err := w.flush()
	if err == nil {
		w.err = errClosed
	}
	return err
}

var errClosed = errors.New("cayley: quad writer closed")
