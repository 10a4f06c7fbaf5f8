package cayley

import (
	"context"
	"fmt"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/iterator"
	"github.com/cayleygraph/cayley/graph/refs"

	"github.com/mneme-archive/mneme/graph"
)

// quads is the shape of the quads matching a pattern: one range scan.
type quads struct {
	qs  *QuadStore
	pat graph.Pattern
	// size is the estimate, taken once: Cayley's optimiser asks a shape
	// for its costs again and again.
	size *refs.Size
}

var _ iterator.Shape = (*quads)(nil)

func (it *quads) String() string { return fmt.Sprintf("MnemeQuads(%v)", graph.IDQuad(it.pat)) }

func (it *quads) Iterate() iterator.Scanner { return &quadScanner{qs: it.qs, pat: it.pat} }

func (it *quads) Lookup() iterator.Index { return &quadIndex{qs: it.qs, pat: it.pat} }

func (it *quads) Stats(ctx context.Context) (iterator.Costs, error) {
	if it.size == nil {
		sz, err := it.qs.size(ctx, it.pat)
		if err != nil {
			return iterator.Costs{}, err
		}
		it.size = &sz
	}
	cost := int64(1)
	if it.pat == (graph.Pattern{}) {
		cost = 2 // a point read
	}
	return iterator.Costs{ContainsCost: cost, NextCost: 1, Size: *it.size}, nil
}

func (it *quads) Optimize(ctx context.Context) (iterator.Shape, bool) { return it, false }

func (it *quads) SubIterators() []iterator.Shape { return nil }

// quadScanner reads the scan, opened at the first Next with its context
// (so that a query's cancellation stops it).
type quadScanner struct {
	qs   *QuadStore
	pat  graph.Pattern
	it   *iter
	cur  cgraph.Ref
	err  error
	done bool
	n    int
}

// checkEvery is how many results go by between checks of the context
// (a reused scan does not carry it).
const checkEvery = 256

func (s *quadScanner) Next(ctx context.Context) bool {
	if s.done {
		return false
	}
	if s.n%checkEvery == 0 {
		if err := ctx.Err(); err != nil {
			s.err, s.cur, s.done = err, nil, true
			return false
		}
	}
	s.n++
	if s.it == nil {
		s.it, s.err = s.qs.scan(ctx, s.pat)
		if s.err != nil {
			s.done = true
			return false
		}
	}
	if !s.it.Next() {
		s.err, s.cur, s.done = s.it.Err(), nil, true
		return false
	}
	s.cur = quadRef(s.it.Quad())
	return true
}

func (s *quadScanner) Result() cgraph.Ref                { return s.cur }
func (s *quadScanner) NextPath(ctx context.Context) bool { return false }
func (s *quadScanner) TagResults(map[string]cgraph.Ref)  {}
func (s *quadScanner) Err() error                        { return s.err }
func (s *quadScanner) String() string                    { return "MnemeQuadsNext" }
func (s *quadScanner) Close() error {
	s.done = true
	if s.it != nil {
		err := s.qs.done(s.it)
		s.it = nil
		return err
	}
	return nil
}

// quadIndex answers Contains from the reference alone when the pattern
// binds a direction (the quad came from this store); for all quads it
// reads the quad's key.
type quadIndex struct {
	qs  *QuadStore
	pat graph.Pattern
	cur cgraph.Ref
	err error
}

func (c *quadIndex) Contains(ctx context.Context, r cgraph.Ref) bool {
	c.cur = nil
	q, ok := r.(quadRef)
	if !ok {
		return false
	}
	p := c.pat
	if (p.S != graph.Any && p.S != q.S) || (p.P != graph.Any && p.P != q.P) ||
		(p.O != graph.Any && p.O != q.O) || (p.G != graph.Any && p.G != q.G) {
		return false
	}
	if p == (graph.Pattern{}) {
		it, err := c.qs.v.Scan(ctx, graph.Pattern(q), graph.ScanOptions{})
		if err != nil {
			c.err = err
			return false
		}
		ok = it.Next()
		c.err = it.Err()
		it.Close()
		if !ok {
			return false
		}
	}
	c.cur = q
	return true
}

func (c *quadIndex) Result() cgraph.Ref                { return c.cur }
func (c *quadIndex) NextPath(ctx context.Context) bool { return false }
func (c *quadIndex) TagResults(map[string]cgraph.Ref)  {}
func (c *quadIndex) Err() error                        { return c.err }
func (c *quadIndex) Close() error                      { return nil }
func (c *quadIndex) String() string                    { return "MnemeQuadsContains" }

// nodes is the shape of all nodes.
type nodes struct {
	qs   *QuadStore
	size *refs.Size // taken once, as quads.size
}

var _ iterator.Shape = (*nodes)(nil)

func (it *nodes) String() string                                      { return "MnemeNodes" }
func (it *nodes) Iterate() iterator.Scanner                           { return newNodeScanner(it.qs) }
func (it *nodes) Lookup() iterator.Index                              { return &nodeIndex{qs: it.qs} }
func (it *nodes) SubIterators() []iterator.Shape                      { return nil }
func (it *nodes) Optimize(ctx context.Context) (iterator.Shape, bool) { return it, false }

func (it *nodes) Stats(ctx context.Context) (iterator.Costs, error) {
	if it.size == nil {
		st, err := it.qs.stats()
		if err != nil {
			return iterator.Costs{}, err
		}
		it.size = &refs.Size{Value: nodeBound(st)}
	}
	return iterator.Costs{ContainsCost: 4, NextCost: 4, Size: *it.size}, nil
}

// nodeScanner lists the distinct terms of each position — the first
// column of spog, posg, ospg and gspo, stepping from one value to the
// next with a seek — merged in ID order, each once.
type nodeScanner struct {
	qs      *QuadStore
	cols    []*distinct
	started bool
	cur     cgraph.Ref
	err     error
}

func newNodeScanner(qs *QuadStore) *nodeScanner { return &nodeScanner{qs: qs} }

// distinct walks the distinct values of an ordering's first column.
type distinct struct {
	it  *iter
	pos int // 0 s, 1 p, 2 o, 3 g
	cur graph.ID
	ok  bool
}

func (d *distinct) read() {
	q := d.it.Quad()
	d.cur = [4]graph.ID{q.S, q.P, q.O, q.G}[d.pos]
	if d.pos == 3 && d.cur == graph.DefaultGraph { // not a node
		d.skip()
	}
}

// skip moves to the next value of the column.
func (d *distinct) skip() {
	if d.cur == ^graph.ID(0) {
		d.ok = false
		return
	}
	var t [4]graph.ID
	t[d.pos] = d.cur + 1
	if d.ok = d.it.SeekGE(graph.IDQuad{S: t[0], P: t[1], O: t[2], G: t[3]}); d.ok {
		d.read()
	}
}

func (s *nodeScanner) Next(ctx context.Context) bool {
	if !s.started {
		s.started = true
		for pos, o := range []graph.Order{graph.SPOG, graph.POSG, graph.OSPG, graph.GSPO} {
			it, err := s.qs.v.Scan(ctx, graph.Pattern{}, graph.ScanOptions{Order: o})
			if err != nil {
				s.err = err
				return false
			}
			d := &distinct{it: it, pos: pos}
			s.cols = append(s.cols, d)
			if d.ok = it.Next(); d.ok {
				d.read()
			}
		}
	}
	s.cur = nil
	var low graph.ID
	found := false
	for _, d := range s.cols {
		if d.ok && (!found || d.cur < low) {
			low, found = d.cur, true
		}
	}
	for _, d := range s.cols {
		if d.ok && d.cur == low {
			d.skip()
		}
		if err := d.it.Err(); err != nil {
			s.err = err
			return false
		}
	}
	if !found {
		return false
	}
	s.cur = node(low)
	return true
}

func (s *nodeScanner) Result() cgraph.Ref                { return s.cur }
func (s *nodeScanner) NextPath(ctx context.Context) bool { return false }
func (s *nodeScanner) TagResults(map[string]cgraph.Ref)  {}
func (s *nodeScanner) Err() error                        { return s.err }
func (s *nodeScanner) String() string                    { return "MnemeNodesNext" }
func (s *nodeScanner) Close() error {
	for _, d := range s.cols {
		d.it.Close()
	}
	s.cols = nil
	return nil
}

// nodeIndex checks that some quad uses a node.
type nodeIndex struct {
	qs  *QuadStore
	cur cgraph.Ref
	err error
}

func (c *nodeIndex) Contains(ctx context.Context, r cgraph.Ref) bool {
	c.cur = nil
	n, ok := r.(node)
	if !ok || graph.ID(n) == graph.DefaultGraph {
		return false
	}
	ok, c.err = c.qs.used(ctx, graph.ID(n))
	if ok {
		c.cur = n
	}
	return ok
}

func (c *nodeIndex) Result() cgraph.Ref                { return c.cur }
func (c *nodeIndex) NextPath(ctx context.Context) bool { return false }
func (c *nodeIndex) TagResults(map[string]cgraph.Ref)  {}
func (c *nodeIndex) Err() error                        { return c.err }
func (c *nodeIndex) Close() error                      { return nil }
func (c *nodeIndex) String() string                    { return "MnemeNodesContains" }
