package cayley

import (
	"context"
	"fmt"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/iterator"
	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/cayley/query/shape"
	"github.com/cayleygraph/quad"

	"github.com/mneme-archive/mneme/graph"
)

// OptimizeShape rewrites Cayley's quad filters into scans of mneme's
// orderings:
//   - the nodes in one direction of the quads whose other directions are
//     constants (what Has, In and Out from constants become) are one
//     range scan to list them and one point read to check a node, instead
//     of Cayley's HasA over a quad iterator, which checks a node by
//     reading every quad of that node;
//   - the nodes reached from a set of nodes over quads whose other
//     directions are constants (In or Out from a path) are one scan of
//     the ordering whose prefix binds the constants and the node, per
//     node, and checking a node reads the quads of its side only, instead
//     of Cayley's HasA over LinksTo, which reads every quad of each node;
//   - quads with constants in several directions (with tags to save) are
//     one scan of the ordering whose prefix the constants bind;
//   - an intersection of such node sets (Has after In from a constant) is
//     one iterator: a scan of the smallest, a seek in the others per node.
func (qs *QuadStore) OptimizeShape(ctx context.Context, s shape.Shape) (shape.Shape, bool) {
	switch s := s.(type) {
	case shape.NodesFrom:
		return optimizeNodesFrom(s)
	case shape.Intersect:
		return optimizeIntersect(s)
	}
	a, ok := s.(shape.QuadsAction)
	if !ok || len(a.Filter) == 0 {
		return s, false
	}
	var p graph.Pattern
	for d, r := range a.Filter {
		n, ok := r.(node)
		if !ok || !bind(&p, d, graph.ID(n)) {
			return s, false
		}
	}
	if len(a.Save) == 0 {
		if _, bound := a.Filter[a.Result]; !bound && a.Result != quad.Any {
			return nodesShape{pat: p, dir: a.Result}, true
		}
	}
	if len(a.Filter) < 2 {
		return s, false
	}
	return a.SimplifyFrom(scanShape{pat: p}), true
}

// scanShape is the shape of one range scan of the store.
type scanShape struct{ pat graph.Pattern }

func (s scanShape) BuildIterator(qs cgraph.QuadStore) iterator.Shape {
	m, ok := qs.(*QuadStore)
	if !ok {
		return iterator.NewError(fmt.Errorf("cayley: a mneme scan built on %T", qs))
	}
	return &quads{qs: m, pat: s.pat}
}

func (s scanShape) Optimize(ctx context.Context, r shape.Optimizer) (shape.Shape, bool) {
	return s, false
}

// nodesShape is the shape of the nodes in direction dir of the quads
// matching pat (which leaves dir unbound).
type nodesShape struct {
	pat graph.Pattern
	dir quad.Direction
}

func (s nodesShape) BuildIterator(qs cgraph.QuadStore) iterator.Shape {
	m, ok := qs.(*QuadStore)
	if !ok {
		return iterator.NewError(fmt.Errorf("cayley: a mneme scan built on %T", qs))
	}
	return &nodesOf{qs: m, pat: s.pat, dir: s.dir}
}

func (s nodesShape) Optimize(ctx context.Context, r shape.Optimizer) (shape.Shape, bool) {
	return s, false
}

// nodesOf lists the nodes in direction dir of the quads matching pat,
// one per quad, as Cayley's HasA over those quads does (a triple in two
// graphs gives its node twice, and Contains then has a second path).
type nodesOf struct {
	qs   *QuadStore
	pat  graph.Pattern
	dir  quad.Direction
	size *refs.Size // taken once, as quads.size
}

var _ iterator.Shape = (*nodesOf)(nil)

func (it *nodesOf) String() string {
	return fmt.Sprintf("MnemeNodesOf(%v, %v)", graph.IDQuad(it.pat), it.dir)
}

func (it *nodesOf) Iterate() iterator.Scanner {
	return &nodesOfScanner{quadScanner: quadScanner{qs: it.qs, pat: it.pat}, dir: it.dir}
}

func (it *nodesOf) Lookup() iterator.Index { return &nodesOfIndex{qs: it.qs, pat: it.pat, dir: it.dir} }

// Stats: as many nodes as quads; checking a node is one point read, a
// little dearer than checking a quad from its reference.
func (it *nodesOf) Stats(ctx context.Context) (iterator.Costs, error) {
	if it.size == nil {
		sz, err := it.qs.size(ctx, it.pat)
		if err != nil {
			return iterator.Costs{}, err
		}
		it.size = &sz
	}
	return iterator.Costs{ContainsCost: 2, NextCost: 1, Size: *it.size}, nil
}

func (it *nodesOf) Optimize(ctx context.Context) (iterator.Shape, bool) { return it, false }

func (it *nodesOf) SubIterators() []iterator.Shape { return nil }

// nodeAt is the node of quad q in direction d, as QuadDirection gives it.
func nodeAt(q graph.IDQuad, d quad.Direction) cgraph.Ref {
	id := column(q, d)
	if id == graph.DefaultGraph && d == quad.Label {
		return nil
	}
	return node(id)
}

// nodesOfScanner reads the scan of the pattern and gives each quad's node.
type nodesOfScanner struct {
	quadScanner
	dir quad.Direction
	res cgraph.Ref
}

func (s *nodesOfScanner) Next(ctx context.Context) bool {
	if !s.quadScanner.Next(ctx) {
		s.res = nil
		return false
	}
	s.res = nodeAt(graph.IDQuad(s.cur.(quadRef)), s.dir)
	return true
}

func (s *nodesOfScanner) Result() cgraph.Ref { return s.res }
func (s *nodesOfScanner) String() string     { return "MnemeNodesOfNext" }

// nodesOfIndex checks a node with a scan of the pattern with the node
// bound too: a seek to the first key of that prefix. The scan stays open
// for NextPath (the node's other quads, in other graphs).
type nodesOfIndex struct {
	qs  *QuadStore
	pat graph.Pattern
	dir quad.Direction
	it  *iter
	cur cgraph.Ref
	err error
}

func (c *nodesOfIndex) Contains(ctx context.Context, r cgraph.Ref) bool {
	c.cur = nil
	if c.err != nil || c.release() != nil {
		return false
	}
	p := c.pat
	switch r := r.(type) {
	case node:
		bind(&p, c.dir, graph.ID(r))
	case nil:
		if c.dir != quad.Label {
			return false
		}
		p.G = graph.DefaultGraph
	default:
		return false
	}
	if c.it, c.err = c.qs.scan(ctx, p); c.err != nil {
		return false
	}
	return c.next(ctx, r)
}

// next moves to the scan's next quad, if any, keeping r as the result.
func (c *nodesOfIndex) next(ctx context.Context, r cgraph.Ref) bool {
	if err := ctx.Err(); err != nil {
		c.err = err
		return false
	}
	if c.it.Next() {
		c.cur = r
		return true
	}
	c.err = c.it.Err()
	c.release()
	return false
}

func (c *nodesOfIndex) NextPath(ctx context.Context) bool {
	if c.it == nil || c.err != nil {
		return false
	}
	return c.next(ctx, c.cur)
}

// release gives back the scan of the last Contains.
func (c *nodesOfIndex) release() error {
	if c.it == nil {
		return nil
	}
	err := c.qs.done(c.it)
	c.it = nil
	if c.err == nil {
		c.err = err
	}
	return err
}

func (c *nodesOfIndex) Result() cgraph.Ref               { return c.cur }
func (c *nodesOfIndex) TagResults(map[string]cgraph.Ref) {}
func (c *nodesOfIndex) Err() error                       { return c.err }
func (c *nodesOfIndex) Close() error                     { return c.release() }
func (c *nodesOfIndex) String() string                   { return "MnemeNodesOfContains" }

// optimizeNodesFrom makes a linksShape of the nodes in one direction of
// the quads whose directions are constants but one, which is a set of
// nodes of a sub-path.
func optimizeNodesFrom(s shape.NodesFrom) (shape.Shape, bool) {
	q, ok := s.Quads.(shape.Quads)
	if !ok || s.Dir == quad.Any {
		return s, false
	}
	l := linksShape{dir: s.Dir, from: quad.Any}
	for _, f := range q {
		if r, ok := shape.One(f.Values); ok {
			n, ok := r.(node)
			if !ok || f.Dir == s.Dir || !bind(&l.pat, f.Dir, graph.ID(n)) {
				return s, false
			}
			continue
		}
		if _, all := f.Values.(shape.AllNodes); all || l.from != quad.Any || f.Dir == s.Dir || f.Dir == quad.Any || f.Values == nil {
			return s, false
		}
		l.from, l.sub = f.Dir, f.Values
	}
	if l.from == quad.Any || column(graph.IDQuad(l.pat), l.from) != graph.Any {
		return s, false
	}
	return l, true
}

// linksShape is the shape of the nodes in direction dir of the quads that
// match pat and have a node of sub in direction from (which pat leaves
// unbound, as it leaves dir).
type linksShape struct {
	pat       graph.Pattern
	from, dir quad.Direction
	sub       shape.Shape
}

func (s linksShape) BuildIterator(qs cgraph.QuadStore) iterator.Shape {
	m, ok := qs.(*QuadStore)
	if !ok {
		return iterator.NewError(fmt.Errorf("cayley: a mneme scan built on %T", qs))
	}
	return &linksOf{qs: m, pat: s.pat, from: s.from, dir: s.dir, sub: s.sub.BuildIterator(qs)}
}

func (s linksShape) Optimize(ctx context.Context, r shape.Optimizer) (shape.Shape, bool) {
	sub, ok := s.sub.Optimize(ctx, r)
	if shape.IsNull(sub) {
		return nil, true
	}
	s.sub = sub
	return s, ok
}

// linksOf is the iterator of a linksShape. As Cayley's HasA over
// LinksTo, it gives a node once per quad, and passes the sub-path's tags
// and paths through.
type linksOf struct {
	qs        *QuadStore
	pat       graph.Pattern
	from, dir quad.Direction
	sub       iterator.Shape
}

var _ iterator.Shape = (*linksOf)(nil)

func (it *linksOf) String() string {
	return fmt.Sprintf("MnemeLinksOf(%v, %v->%v)", graph.IDQuad(it.pat), it.from, it.dir)
}

func (it *linksOf) Iterate() iterator.Scanner {
	return &linksOfScanner{it: it, sub: it.sub.Iterate()}
}

func (it *linksOf) Lookup() iterator.Index {
	return &linksOfIndex{it: it, sub: it.sub.Lookup()}
}

func (it *linksOf) SubIterators() []iterator.Shape { return []iterator.Shape{it.sub} }

func (it *linksOf) Optimize(ctx context.Context) (iterator.Shape, bool) {
	sub, ok := it.sub.Optimize(ctx)
	if !ok {
		return it, false
	}
	if iterator.IsNull(sub) {
		return sub, true
	}
	return &linksOf{qs: it.qs, pat: it.pat, from: it.from, dir: it.dir, sub: sub}, true
}

// fanOut is the average number of quads matching pat per node bound in
// direction d, from the predicate's statistics when pat binds the
// predicate and d is the subject or the object; otherwise a guess.
func (it *linksOf) fanOut(d quad.Direction) int64 {
	const guess = 20 // Cayley's LinksTo's
	st, err := it.qs.stats()
	if err != nil || it.pat.P == graph.Any || it.pat.G != graph.Any || (d != quad.Subject && d != quad.Object) {
		return guess
	}
	ps, ok := st.Predicates[it.pat.P]
	if !ok {
		return 1
	}
	per := ps.Subjects
	if d == quad.Object {
		per = ps.Objects
	}
	return int64((ps.Quads + per - 1) / max(per, 1))
}

// Stats: each node of the sub-path gives its fan-out; checking a node
// reads its quads on the other side and checks each in the sub-path.
func (it *linksOf) Stats(ctx context.Context) (iterator.Costs, error) {
	st, err := it.sub.Stats(ctx)
	return iterator.Costs{
		NextCost:     st.NextCost + 1,
		ContainsCost: 2 + it.fanOut(it.dir)*st.ContainsCost,
		Size:         refs.Size{Value: st.Size.Value * it.fanOut(it.from)},
	}, err
}

// bindRef binds direction d of p to a node reference; nil is the default
// graph in the label direction. false: no quad of this store has it.
func bindRef(p *graph.Pattern, d quad.Direction, r cgraph.Ref) bool {
	switch r := r.(type) {
	case node:
		return bind(p, d, graph.ID(r))
	case nil:
		if d == quad.Label {
			p.G = graph.DefaultGraph
			return true
		}
	}
	return false
}

// linksOfScanner scans the quads of each node of the sub-path in turn.
type linksOfScanner struct {
	it   *linksOf
	sub  iterator.Scanner
	q    *quadScanner // of the current node of sub; nil before the first
	res  cgraph.Ref
	err  error
	done bool
}

func (s *linksOfScanner) Next(ctx context.Context) bool {
	for !s.done {
		if s.q != nil {
			if s.q.Next(ctx) {
				s.res = nodeAt(graph.IDQuad(s.q.cur.(quadRef)), s.it.dir)
				return true
			}
			s.err = s.q.Err()
			s.q.Close()
			s.q = nil
			if s.err != nil {
				break
			}
		}
		if !s.sub.Next(ctx) {
			s.err = s.sub.Err()
			break
		}
		p := s.it.pat
		if bindRef(&p, s.it.from, s.sub.Result()) {
			s.q = &quadScanner{qs: s.it.qs, pat: p}
		}
	}
	s.done, s.res = true, nil
	return false
}

func (s *linksOfScanner) Result() cgraph.Ref                   { return s.res }
func (s *linksOfScanner) NextPath(ctx context.Context) bool    { return s.sub.NextPath(ctx) }
func (s *linksOfScanner) TagResults(dst map[string]cgraph.Ref) { s.sub.TagResults(dst) }
func (s *linksOfScanner) String() string                       { return "MnemeLinksOfNext" }

func (s *linksOfScanner) Err() error {
	if s.err != nil {
		return s.err
	}
	return s.sub.Err()
}

func (s *linksOfScanner) Close() error {
	s.done = true
	var err error
	if s.q != nil {
		err = s.q.Close()
		s.q = nil
	}
	if e := s.sub.Close(); err == nil {
		err = e
	}
	return err
}

// linksOfIndex checks a node by scanning its quads that match the
// pattern, checking the node at their other end in the sub-path.
type linksOfIndex struct {
	it  *linksOf
	sub iterator.Index
	q   *quadScanner // of the node being checked
	cur cgraph.Ref
	err error
}

func (c *linksOfIndex) Contains(ctx context.Context, r cgraph.Ref) bool {
	c.cur = nil
	if c.q != nil {
		c.err = c.q.Close()
		c.q = nil
	}
	if c.err != nil {
		return false
	}
	p := c.it.pat
	if !bindRef(&p, c.it.dir, r) {
		return false
	}
	c.q = &quadScanner{qs: c.it.qs, pat: p}
	return c.next(ctx, r)
}

// next moves to the next quad of the checked node whose other end is in
// the sub-path.
func (c *linksOfIndex) next(ctx context.Context, r cgraph.Ref) bool {
	for c.q.Next(ctx) {
		if c.sub.Contains(ctx, nodeAt(graph.IDQuad(c.q.cur.(quadRef)), c.it.from)) {
			c.cur = r
			return true
		}
		if c.err = c.sub.Err(); c.err != nil {
			return false
		}
	}
	c.err = c.q.Err()
	return false
}

func (c *linksOfIndex) NextPath(ctx context.Context) bool {
	if c.sub.NextPath(ctx) {
		return true
	}
	if c.err = c.sub.Err(); c.err != nil || c.q == nil {
		return false
	}
	return c.next(ctx, c.cur)
}

func (c *linksOfIndex) Result() cgraph.Ref                   { return c.cur }
func (c *linksOfIndex) TagResults(dst map[string]cgraph.Ref) { c.sub.TagResults(dst) }
func (c *linksOfIndex) String() string                       { return "MnemeLinksOfContains" }

func (c *linksOfIndex) Err() error {
	if c.err != nil {
		return c.err
	}
	return c.sub.Err()
}

func (c *linksOfIndex) Close() error {
	var err error
	if c.q != nil {
		err = c.q.Close()
		c.q = nil
	}
	if e := c.sub.Close(); err == nil {
		err = e
	}
	return err
}

// optimizeIntersect makes one iterator of an intersection whose parts
// are all nodes at one end of quads with constants (Has, or In/Out from a
// constant, intersected): it lists the smallest part and checks each node
// in the others with a seek, without Cayley's And, Save and Optimize
// layers around the parts.
func optimizeIntersect(s shape.Intersect) (shape.Shape, bool) {
	if len(s) < 2 {
		return s, false
	}
	parts := make([]nodesShape, len(s))
	for i, c := range s {
		n, ok := c.(nodesShape)
		if !ok {
			return s, false
		}
		parts[i] = n
	}
	return intersectShape{parts: parts}, true
}

// intersectShape is the shape of the nodes in all its parts.
type intersectShape struct{ parts []nodesShape }

func (s intersectShape) BuildIterator(qs cgraph.QuadStore) iterator.Shape {
	m, ok := qs.(*QuadStore)
	if !ok {
		return iterator.NewError(fmt.Errorf("cayley: a mneme scan built on %T", qs))
	}
	it := &nodesAnd{qs: m, parts: make([]*nodesOf, len(s.parts))}
	for i, p := range s.parts {
		it.parts[i] = &nodesOf{qs: m, pat: p.pat, dir: p.dir}
	}
	return it
}

func (s intersectShape) Optimize(ctx context.Context, r shape.Optimizer) (shape.Shape, bool) {
	return s, false
}

// nodesAnd is the iterator of an intersectShape. As Cayley's And, a node
// comes once per quad of the listed part, and NextPath gives the other
// parts' further quads of the node in turn.
type nodesAnd struct {
	qs      *QuadStore
	parts   []*nodesOf
	primary int // the part listed: the smallest
	sized   bool
}

var _ iterator.Shape = (*nodesAnd)(nil)

func (it *nodesAnd) String() string { return fmt.Sprintf("MnemeNodesAnd(%d)", len(it.parts)) }

// Stats: the smallest part's size; a node is checked in every part.
func (it *nodesAnd) Stats(ctx context.Context) (iterator.Costs, error) {
	var out iterator.Costs
	for i, p := range it.parts {
		st, err := p.Stats(ctx)
		if err != nil {
			return iterator.Costs{}, err
		}
		if i == 0 || st.Size.Value < out.Size.Value {
			out.Size, out.NextCost, it.primary = st.Size, st.NextCost, i
		}
		out.ContainsCost += st.ContainsCost
	}
	out.Size.Exact = false
	out.NextCost += out.ContainsCost
	it.sized = true
	return out, nil
}

func (it *nodesAnd) Iterate() iterator.Scanner {
	if !it.sized {
		it.Stats(context.Background()) // picks the primary; an error shows in the scan
	}
	s := &nodesAndScanner{primary: it.parts[it.primary].Iterate()}
	for i, p := range it.parts {
		if i != it.primary {
			s.others = append(s.others, p.Lookup())
		}
	}
	return s
}

func (it *nodesAnd) Lookup() iterator.Index {
	c := &nodesAndIndex{}
	for _, p := range it.parts {
		c.parts = append(c.parts, p.Lookup())
	}
	return c
}

func (it *nodesAnd) Optimize(ctx context.Context) (iterator.Shape, bool) { return it, false }

func (it *nodesAnd) SubIterators() []iterator.Shape { return nil }

// nodesAndScanner lists the primary part and checks the others.
type nodesAndScanner struct {
	primary iterator.Scanner
	others  []iterator.Index
	res     cgraph.Ref
	err     error
}

func (s *nodesAndScanner) Next(ctx context.Context) bool {
	s.res = nil
	if s.err != nil {
		return false
	}
next:
	for s.primary.Next(ctx) {
		r := s.primary.Result()
		for _, o := range s.others {
			if !o.Contains(ctx, r) {
				if s.err = o.Err(); s.err != nil {
					return false
				}
				continue next
			}
		}
		s.res = r
		return true
	}
	s.err = s.primary.Err()
	return false
}

func (s *nodesAndScanner) NextPath(ctx context.Context) bool {
	if s.res == nil || s.err != nil {
		return false
	}
	if s.primary.NextPath(ctx) {
		return true
	}
	for _, o := range s.others {
		if o.NextPath(ctx) {
			return true
		}
		if s.err = o.Err(); s.err != nil {
			return false
		}
	}
	return false
}

func (s *nodesAndScanner) Result() cgraph.Ref               { return s.res }
func (s *nodesAndScanner) TagResults(map[string]cgraph.Ref) {}
func (s *nodesAndScanner) String() string                   { return "MnemeNodesAndNext" }

func (s *nodesAndScanner) Err() error {
	if s.err != nil {
		return s.err
	}
	return s.primary.Err()
}

func (s *nodesAndScanner) Close() error {
	err := s.primary.Close()
	for _, o := range s.others {
		if e := o.Close(); err == nil {
			err = e
		}
	}
	return err
}

// nodesAndIndex checks a node in every part.
type nodesAndIndex struct {
	parts []iterator.Index
	cur   cgraph.Ref
	err   error
}

func (c *nodesAndIndex) Contains(ctx context.Context, r cgraph.Ref) bool {
	c.cur = nil
	if c.err != nil {
		return false
	}
	for _, p := range c.parts {
		if !p.Contains(ctx, r) {
			c.err = p.Err()
			return false
		}
	}
	c.cur = r
	return true
}

func (c *nodesAndIndex) NextPath(ctx context.Context) bool {
	if c.cur == nil || c.err != nil {
		return false
	}
	for _, p := range c.parts {
		if p.NextPath(ctx) {
			return true
		}
		if c.err = p.Err(); c.err != nil {
			return false
		}
	}
	return false
}

func (c *nodesAndIndex) Result() cgraph.Ref               { return c.cur }
func (c *nodesAndIndex) TagResults(map[string]cgraph.Ref) {}
func (c *nodesAndIndex) Err() error                       { return c.err }
func (c *nodesAndIndex) String() string                   { return "MnemeNodesAndContains" }

func (c *nodesAndIndex) Close() error {
	var err error
	for _, p := range c.parts {
		if e := p.Close(); err == nil {
			err = e
		}
	}
	return err
}
