package cayley

import (
	"context"
	"errors"
	"sync"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
)

// errClosedStore is returned by reads after Close.
var errClosedStore = errors.New("cayley: the quad store is closed")

// view guards the reads of a QuadStore's view so that its snapshot is
// released only after the last scan closes: Gizmo runs a query's script
// on a goroutine of its own, which may still be closing its iterators
// when the query's caller closes the QuadStore.
type view struct {
	v       *graph.View
	mu      sync.Mutex
	open    int
	closing bool
	release func() error // nil: nothing to release
}

func (g *view) enter() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closing {
		return errClosedStore
	}
	g.open++
	return nil
}

func (g *view) exit() {
	g.mu.Lock()
	g.open--
	var r func() error
	if g.closing && g.open == 0 {
		r, g.release = g.release, nil
	}
	g.mu.Unlock()
	if r != nil {
		r()
	}
}

// close refuses new reads and releases the snapshot now or when the last
// open scan closes.
func (g *view) close() error {
	g.mu.Lock()
	if g.closing {
		g.mu.Unlock()
		return nil
	}
	g.closing = true
	var r func() error
	if g.open == 0 {
		r, g.release = g.release, nil
	}
	g.mu.Unlock()
	if r != nil {
		return r()
	}
	return nil
}

// iter is a scan that ends its hold on the view when closed.
type iter struct {
	*graph.QuadIter
	g    *view
	done bool
}

func (it *iter) Close() error {
	if it.done {
		return nil
	}
	it.done = true
	err := it.QuadIter.Close()
	it.g.exit()
	return err
}

func (g *view) Scan(ctx context.Context, p graph.Pattern, o graph.ScanOptions) (*iter, error) {
	if err := g.enter(); err != nil {
		return nil, err
	}
	it, err := g.v.Scan(ctx, p, o)
	if err != nil {
		g.exit()
		return nil, err
	}
	return &iter{QuadIter: it, g: g}, nil
}

func (g *view) Lookup(t rdf.Term) (graph.ID, bool, error) {
	if err := g.enter(); err != nil {
		return 0, false, err
	}
	defer g.exit()
	return g.v.Lookup(t)
}

func (g *view) LookupTerms(ts []rdf.Term) ([]graph.ID, error) {
	if err := g.enter(); err != nil {
		return nil, err
	}
	defer g.exit()
	return g.v.LookupTerms(ts)
}

func (g *view) Term(id graph.ID) (rdf.Term, error) {
	if err := g.enter(); err != nil {
		return rdf.Term{}, err
	}
	defer g.exit()
	return g.v.Term(id)
}

func (g *view) Terms(ctx context.Context, ids []graph.ID, dst []rdf.Term) ([]rdf.Term, error) {
	if err := g.enter(); err != nil {
		return nil, err
	}
	defer g.exit()
	return g.v.Terms(ctx, ids, dst)
}

func (g *view) Stats() (*graph.Stats, error) {
	if err := g.enter(); err != nil {
		return nil, err
	}
	defer g.exit()
	return g.v.Stats()
}

func (g *view) Estimate(ctx context.Context, p graph.Pattern) (graph.Estimate, error) {
	if err := g.enter(); err != nil {
		return graph.Estimate{}, err
	}
	defer g.exit()
	return g.v.Estimate(ctx, p)
}
