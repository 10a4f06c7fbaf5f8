package tuitest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
	"github.com/mneme-archive/mneme/tui/backend"
)

// Embedded is a TUI backend that answers from a store opened in this
// process, with the SPARQL engine: tests run the screens on it without a
// server.
type Embedded struct {
	store *graph.Store
	dir   string

	// Close cancels the queries still running and waits for their rows
	// to be closed before it closes the store they read.
	mu      sync.Mutex
	closed  bool
	cancels map[int]context.CancelFunc
	next    int
	running sync.WaitGroup
}

// OpenEmbedded opens the store in dir read-only: the TUI only reads it.
func OpenEmbedded(dir string) (*Embedded, error) {
	if _, err := os.Stat(dir); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("no store at %s: run `mneme demo` or a crawl first, or attach to a server with --connect", dir)
		}
		return nil, err
	}
	s, err := graph.Open(dir, graph.OpenOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("opening the store %s: %w", dir, err)
	}
	return &Embedded{store: s, dir: dir, cancels: map[int]context.CancelFunc{}}, nil
}

// Name is the store's directory.
func (e *Embedded) Name() string { return "store " + e.dir }

// errClosed answers queries asked after Close.
var errClosed = errors.New("the store is closed")

// Close cancels the running queries, waits for them to let go of the
// store, and closes it.
func (e *Embedded) Close() error {
	e.mu.Lock()
	e.closed = true
	for _, cancel := range e.cancels {
		cancel()
	}
	e.mu.Unlock()
	e.running.Wait()
	return e.store.Close()
}

// Query runs the query on a snapshot of the store.
func (e *Embedded) Query(ctx context.Context, query string) (backend.Rows, error) {
	q, err := sparql.Prepare(query, sparql.Options{})
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, errClosed
	}
	ctx, cancel := context.WithCancel(ctx)
	id := e.next
	e.next++
	e.cancels[id] = cancel
	e.running.Add(1)
	e.mu.Unlock()
	done := func() {
		cancel()
		e.mu.Lock()
		delete(e.cancels, id)
		e.mu.Unlock()
		e.running.Done()
	}
	snap := e.store.Snapshot()
	res, err := q.Exec(ctx, snap)
	if err != nil {
		snap.Close()
		done()
		return nil, err
	}
	r := &embeddedRows{res: res, snap: snap, vars: res.Vars, done: done}
	if res.Form.IsGraph() {
		r.vars, r.triples = backend.TripleVars, true
	}
	return r, nil
}

// embeddedRows reads a sparql.Result; the snapshot lives as long as it.
type embeddedRows struct {
	res     *sparql.Result
	snap    *graph.View
	vars    []string
	triples bool
	row     [3]rdf.Term
	done    func() // releases the query's hold on the store, once
}

func (r *embeddedRows) Vars() []string { return r.vars }

func (r *embeddedRows) Boolean() (bool, bool) {
	return r.res.Boolean(), r.res.Form == sparql.Ask
}

func (r *embeddedRows) Next() bool { return r.res.Next() }

func (r *embeddedRows) Row() []rdf.Term {
	if r.triples {
		t := r.res.Triple()
		r.row = [3]rdf.Term{t.S, t.P, t.O}
		return r.row[:]
	}
	return r.res.Row()
}

func (r *embeddedRows) Err() error { return r.res.Err() }

func (r *embeddedRows) Close() error {
	if r.done == nil {
		return nil
	}
	err := r.res.Close()
	if cerr := r.snap.Close(); err == nil {
		err = cerr
	}
	r.done()
	r.done = nil
	return err
}
