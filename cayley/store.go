package cayley

import (
	"context"
	"errors"
	"fmt"
	"sync"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/iterator"
	"github.com/cayleygraph/cayley/graph/refs"
	"github.com/cayleygraph/cayley/query/shape"
	"github.com/cayleygraph/quad"
	"github.com/maypok86/otter/v2"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
)

// ErrReadOnly is returned by writes to a QuadStore over a snapshot or a
// store opened read-only.
var ErrReadOnly = errors.New("cayley: the mneme store is open read-only")

// node is a Cayley reference to a term: its store ID.
type node graph.ID

func (n node) Key() any { return n }

// quadRef is a Cayley reference to a stored quad: its four IDs, the graph
// being graph.DefaultGraph for the default graph.
type quadRef graph.IDQuad

func (q quadRef) Key() any { return q }

// QuadStore is a Cayley graph.QuadStore over a mneme store or snapshot.
type QuadStore struct {
	v      *view
	s      *graph.Store                           // nil: read-only
	frozen bool                                   // a snapshot: its statistics do not change
	ro     *graph.Store                           // the store of a snapshot, when opened read-only
	ids    *otter.Cache[rdf.Term, graph.ID]       // of its Source; nil: none
	vals   *otter.Cache[graph.ID, quad.Value]     // of its Source; nil: none
	sizes  *otter.Cache[graph.Pattern, refs.Size] // of its Source; nil: none

	statsOnce sync.Once
	st        *graph.Stats
	stErr     error

	// pool keeps closed scans for reuse: the QuadStore's own (a
	// snapshot's, closed with it) or its Source's, shared by the queries
	// of a read-only store; nil on the live state of a writable store.
	pool    *scanPool
	ownPool bool
	ownView bool // Close closes v
}

// scan opens a scan of the quads matching p in the ordering of its bound
// positions, reusing an idle one from the pool.
func (qs *QuadStore) scan(ctx context.Context, p graph.Pattern) (*iter, error) {
	if qs.pool == nil {
		return qs.v.Scan(ctx, p, graph.ScanOptions{})
	}
	o := graph.AutoOrder(p, false)
	it := qs.pool.get(o)
	if it == nil {
		// Not ctx: the scan outlives it (Gizmo gives each ForEach a
		// context of its own, and a pooled scan serves later queries);
		// quadScanner checks the caller's.
		var err error
		if it, err = qs.v.Scan(context.Background(), graph.Pattern{}, graph.ScanOptions{Order: o}); err != nil {
			return nil, err
		}
	}
	if err := it.Reset(p); err != nil {
		it.Close()
		return nil, err
	}
	return it, nil
}

// done closes a scan of qs.scan, or keeps it for reuse.
func (qs *QuadStore) done(it *iter) error {
	if qs.pool != nil && it.Err() == nil && qs.pool.put(it) {
		return nil
	}
	return it.Close()
}

// scanPool keeps closed scans, per ordering, for the next scan of that
// ordering to reuse with a seek (QuadIter.Reset): a traversal opens one
// scan per node it steps from, a query a few orderings, and opening a
// Pebble iterator costs several times the seek.
type scanPool struct {
	mu     sync.Mutex
	idle   map[graph.Order][]*iter
	closed bool
}

// maxIdle bounds the scans kept per ordering.
const maxIdle = 4

func (p *scanPool) get(o graph.Order) *iter {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.idle[o])
	if n == 0 {
		return nil
	}
	it := p.idle[o][n-1]
	p.idle[o] = p.idle[o][:n-1]
	return it
}

// put keeps it, unless the pool is closed or full.
func (p *scanPool) put(it *iter) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	o := it.Order()
	if p.closed || len(p.idle[o]) >= maxIdle {
		return false
	}
	if p.idle == nil {
		p.idle = make(map[graph.Order][]*iter)
	}
	p.idle[o] = append(p.idle[o], it)
	return true
}

// close closes the kept scans and refuses more.
func (p *scanPool) close() {
	p.mu.Lock()
	p.closed = true
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, its := range idle {
		for _, it := range its {
			it.Close()
		}
	}
}

var (
	_ cgraph.QuadStore = (*QuadStore)(nil)
	_ refs.BatchNamer  = (*QuadStore)(nil)
	_ shape.Optimizer  = (*QuadStore)(nil)
)

// New returns a QuadStore over the live state of s, writable unless s is
// read-only. Closing it leaves s open.
func New(s *graph.Store) *QuadStore {
	qs := &QuadStore{v: &view{v: s.View}, ownView: true}
	if !s.ReadOnly() {
		qs.s = s
	}
	return qs
}

// NewSnapshot returns a read-only QuadStore over a snapshot of s, which
// it closes when it is closed: one per query, so that all of a query's
// iterators read the same state.
func NewSnapshot(s *graph.Store) *QuadStore {
	v := s.Snapshot()
	qs := &QuadStore{v: &view{v: v, release: v.Close}, frozen: true, pool: &scanPool{}, ownPool: true, ownView: true}
	if s.ReadOnly() {
		qs.ro = s
	}
	return qs
}

// Close releases the snapshot, if the QuadStore has one of its own, once
// its open scans are closed; reads after Close fail then. A QuadStore of
// a Source over a read-only store shares the Source's reads, which its
// Close leaves open.
func (qs *QuadStore) Close() error {
	if qs.ownPool {
		qs.pool.close()
	}
	if qs.ownView {
		return qs.v.close()
	}
	return nil
}

// ValueOf returns the reference of a value the store knows, nil
// otherwise. It answers from the dictionary alone: a term whose last quad
// was deleted keeps its entry (crawls only add, and dictionary entries
// are never deleted) and is still found, its iterators then empty; a
// check that some quad uses it would cost up to four scans per value.
func (qs *QuadStore) ValueOf(v quad.Value) (cgraph.Ref, error) {
	if v == nil {
		return nil, nil
	}
	t, err := ToTerm(v)
	if err != nil {
		return nil, nil // no term, so in no quad
	}
	if qs.ids != nil {
		if id, ok := qs.ids.GetIfPresent(t); ok {
			if id == graph.Any {
				return nil, nil
			}
			return node(id), nil
		}
	}
	id, found, err := qs.v.Lookup(t)
	if err != nil {
		return nil, err
	}
	if !found {
		if qs.ids != nil && qs.ro != nil {
			qs.ids.Set(t, graph.Any) // absent for good from a read-only store
		}
		return nil, nil
	}
	if qs.ids != nil {
		qs.ids.Set(t, id)
	}
	return node(id), nil
}

// NameOf returns the value of a node reference.
func (qs *QuadStore) NameOf(r cgraph.Ref) (quad.Value, error) {
	switch r := r.(type) {
	case nil:
		return nil, nil
	case node:
		if graph.ID(r) == graph.DefaultGraph {
			return nil, nil
		}
		if qs.vals != nil {
			if v, ok := qs.vals.GetIfPresent(graph.ID(r)); ok {
				return v, nil
			}
		}
		t, err := qs.v.Term(graph.ID(r))
		if err != nil {
			return nil, err
		}
		v := ToValue(t)
		if qs.vals != nil {
			qs.vals.Set(graph.ID(r), v)
		}
		return v, nil
	case refs.PreFetchedValue:
		return r.NameOf(), nil
	}
	return nil, fmt.Errorf("cayley: %T is not a node of a mneme store", r)
}

// ValuesOf decodes node references in one sorted pass over the
// dictionary.
func (qs *QuadStore) ValuesOf(ctx context.Context, rs []cgraph.Ref) ([]quad.Value, error) {
	ids := make([]graph.ID, len(rs))
	out := make([]quad.Value, len(rs))
	for i, r := range rs {
		switch r := r.(type) {
		case node:
			ids[i] = graph.ID(r)
		case nil:
		default:
			v, err := qs.NameOf(r)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
	}
	terms, err := qs.v.Terms(ctx, ids, nil)
	if err != nil {
		return nil, err
	}
	for i, id := range ids {
		if id != graph.Any {
			out[i] = ToValue(terms[i])
		}
	}
	return out, nil
}

// RefsOf looks up values; a value no quad uses is an error, as Cayley's
// refs.RefsOf has it.
func (qs *QuadStore) RefsOf(ctx context.Context, vs []quad.Value) ([]cgraph.Ref, error) {
	out := make([]cgraph.Ref, len(vs))
	for i, v := range vs {
		r, err := qs.ValueOf(v)
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, fmt.Errorf("not found: %v", v)
		}
		out[i] = r
	}
	return out, nil
}

// used reports whether some quad names id in any position.
func (qs *QuadStore) used(ctx context.Context, id graph.ID) (bool, error) {
	for _, p := range []graph.Pattern{{S: id}, {O: id}, {P: id}, {G: id}} {
		it, err := qs.v.Scan(ctx, p, graph.ScanOptions{})
		if err != nil {
			return false, err
		}
		ok := it.Next()
		err = it.Err()
		it.Close()
		if ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// Quad decodes a quad reference.
func (qs *QuadStore) Quad(r cgraph.Ref) (quad.Quad, error) {
	q, ok := r.(quadRef)
	if !ok {
		return quad.Quad{}, fmt.Errorf("cayley: %T is not a quad of a mneme store", r)
	}
	terms, err := qs.v.Terms(context.Background(), []graph.ID{q.S, q.P, q.O, q.G}, make([]rdf.Term, 0, 4))
	if err != nil {
		return quad.Quad{}, err
	}
	return quad.Quad{Subject: ToValue(terms[0]), Predicate: ToValue(terms[1]), Object: ToValue(terms[2]), Label: ToValue(terms[3])}, nil
}

// QuadDirection is the node of a quad in one direction, read from the
// reference itself; nil for the label of a default-graph quad.
func (qs *QuadStore) QuadDirection(r cgraph.Ref, d quad.Direction) (cgraph.Ref, error) {
	q, ok := r.(quadRef)
	if !ok {
		return nil, fmt.Errorf("cayley: %T is not a quad of a mneme store", r)
	}
	id := column(graph.IDQuad(q), d)
	if id == graph.DefaultGraph && d == quad.Label {
		return nil, nil
	}
	return node(id), nil
}

// column is a quad's ID in direction d.
func column(q graph.IDQuad, d quad.Direction) graph.ID {
	switch d {
	case quad.Subject:
		return q.S
	case quad.Predicate:
		return q.P
	case quad.Object:
		return q.O
	case quad.Label:
		return q.G
	}
	return graph.Any
}

// bind sets direction d of a pattern.
func bind(p *graph.Pattern, d quad.Direction, id graph.ID) bool {
	switch d {
	case quad.Subject:
		p.S = id
	case quad.Predicate:
		p.P = id
	case quad.Object:
		p.O = id
	case quad.Label:
		p.G = id
	default:
		return false
	}
	return true
}

// QuadIterator lists the quads with node r in direction d.
func (qs *QuadStore) QuadIterator(d quad.Direction, r cgraph.Ref) iterator.Shape {
	n, ok := r.(node)
	if !ok {
		return iterator.NewNull()
	}
	var p graph.Pattern
	if !bind(&p, d, graph.ID(n)) {
		return iterator.NewError(fmt.Errorf("cayley: no direction %v", d))
	}
	return &quads{qs: qs, pat: p}
}

// readOnlyStats keeps the statistics of stores opened read-only, which
// never change, so that each query's snapshot does not read them again:
// one entry per store a process opens.
var readOnlyStats sync.Map // *graph.Store -> *graph.Stats

// stats reads the statistics, once for a snapshot, once for all the
// snapshots of a read-only store.
func (qs *QuadStore) stats() (*graph.Stats, error) {
	if !qs.frozen {
		return qs.v.Stats()
	}
	qs.statsOnce.Do(func() {
		if qs.ro != nil {
			if st, ok := readOnlyStats.Load(qs.ro); ok {
				qs.st = st.(*graph.Stats)
				return
			}
		}
		if qs.st, qs.stErr = qs.v.Stats(); qs.stErr == nil && qs.ro != nil {
			readOnlyStats.Store(qs.ro, qs.st)
		}
	})
	return qs.st, qs.stErr
}

// QuadIteratorSize estimates QuadIterator's size from the statistics.
func (qs *QuadStore) QuadIteratorSize(ctx context.Context, d quad.Direction, r cgraph.Ref) (refs.Size, error) {
	n, ok := r.(node)
	if !ok {
		return refs.Size{Exact: true}, nil
	}
	var p graph.Pattern
	if !bind(&p, d, graph.ID(n)) {
		return refs.Size{}, fmt.Errorf("cayley: no direction %v", d)
	}
	return qs.size(ctx, p)
}

// size estimates the quads matching p. A predicate with a subject or an
// object takes the predicate's average from the statistics (quads per
// distinct subject or object), which costs no scan: graph.View.Estimate
// would count up to a thousand keys, and the optimiser only compares
// sizes. The other shapes are estimated by the store.
func (qs *QuadStore) size(ctx context.Context, p graph.Pattern) (refs.Size, error) {
	if p.P != graph.Any && p.G == graph.Any && (p.S == graph.Any) != (p.O == graph.Any) {
		st, err := qs.stats()
		if err != nil {
			return refs.Size{}, err
		}
		ps, ok := st.Predicates[p.P]
		if !ok {
			return refs.Size{Exact: true}, nil
		}
		per := ps.Subjects
		if p.O != graph.Any {
			per = ps.Objects
		}
		return refs.Size{Value: int64((ps.Quads + per - 1) / max(per, 1))}, nil
	}
	if qs.sizes != nil {
		if sz, ok := qs.sizes.GetIfPresent(p); ok {
			return sz, nil
		}
	}
	e, err := qs.v.Estimate(ctx, p)
	if err != nil {
		return refs.Size{}, err
	}
	sz := refs.Size{Value: int64(e.N), Exact: e.Exact}
	if qs.sizes != nil {
		if qs.ro == nil {
			sz.Exact = false // it may be reused on a later state
		}
		qs.sizes.Set(p, sz)
	}
	return sz, nil
}

// QuadsAllIterator lists every quad.
func (qs *QuadStore) QuadsAllIterator() iterator.Shape { return &quads{qs: qs} }

// NodesAllIterator lists every node: each term some quad uses, once.
func (qs *QuadStore) NodesAllIterator() iterator.Shape { return &nodes{qs: qs} }

// Stats counts quads exactly from the statistics; nodes are counted
// exactly (one seek per distinct term of each position) only when asked,
// and are otherwise an upper bound from the per-predicate statistics.
func (qs *QuadStore) Stats(ctx context.Context, exact bool) (cgraph.Stats, error) {
	st, err := qs.stats()
	if err != nil {
		return cgraph.Stats{}, err
	}
	out := cgraph.Stats{Quads: refs.Size{Value: int64(st.Quads), Exact: true}}
	if !exact {
		out.Nodes = refs.Size{Value: nodeBound(st)}
		return out, nil
	}
	it := newNodeScanner(qs)
	defer it.Close()
	var n int64
	for it.Next(ctx) {
		n++
	}
	if err := it.Err(); err != nil {
		return cgraph.Stats{}, err
	}
	out.Nodes = refs.Size{Value: n, Exact: true}
	return out, nil
}

// nodeBound is an upper bound of the number of nodes: each predicate's
// distinct subjects and objects, the predicates and the named graphs.
func nodeBound(st *graph.Stats) int64 {
	var n uint64
	for _, p := range st.Predicates {
		n += p.Subjects + p.Objects
	}
	n += uint64(len(st.Predicates)) + uint64(len(st.Graphs))
	if _, ok := st.Graphs[graph.DefaultGraph]; ok {
		n--
	}
	return int64(n)
}
