package backend

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// Embedded answers from a store opened in this process.
type Embedded struct {
	store *graph.Store
	dir   string
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
	return &Embedded{store: s, dir: dir}, nil
}

// Name is the store's directory.
func (e *Embedded) Name() string { return "store " + e.dir }

// Close closes the store.
func (e *Embedded) Close() error { return e.store.Close() }

// Query runs the query on a snapshot of the store.
func (e *Embedded) Query(ctx context.Context, query string) (Rows, error) {
	q, err := prepare(query)
	if err != nil {
		return nil, err
	}
	snap := e.store.Snapshot()
	res, err := q.Exec(ctx, snap)
	if err != nil {
		snap.Close()
		return nil, err
	}
	r := &embeddedRows{res: res, snap: snap, vars: res.Vars}
	if isGraphForm(res.Form) {
		r.vars, r.triples = TripleVars, true
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
}

func (r *embeddedRows) Vars() []string { return r.vars }

func (r *embeddedRows) Boolean() (bool, bool) {
	return r.res.Boolean(), r.res.Form == syntax.Ask
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
	err := r.res.Close()
	if cerr := r.snap.Close(); err == nil {
		err = cerr
	}
	return err
}
