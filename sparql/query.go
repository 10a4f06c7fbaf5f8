package sparql

import (
	"context"
	"fmt"
	"time"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/eval"
	"github.com/mneme-archive/mneme/sparql/expr"
	"github.com/mneme-archive/mneme/sparql/optimize"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// DefaultGraph chooses what the default graph of a query without FROM is.
type DefaultGraph uint8

const (
	// UnionGraph makes the default graph the union of every graph in the
	// store (each crawl's named graph and the store's default graph), so
	// cross-crawl questions need no GRAPH clause.
	UnionGraph DefaultGraph = iota
	// StoreDefaultGraph makes it the store's own default graph only, as
	// a plain SPARQL store would (the W3C tests expect this).
	StoreDefaultGraph
)

// Options configure Prepare.
type Options struct {
	// Base resolves relative IRIs in the query.
	Base string
	// DefaultGraph is the default graph when the query has no FROM.
	DefaultGraph DefaultGraph
	// MaxRows bounds the rows an execution holds in memory (ORDER BY,
	// DISTINCT, GROUP BY and hash tables together); past it they spill
	// to temporary files in TempDir or fall back to index lookups. 0
	// means eval.DefaultMaxRows.
	MaxRows int
	// TempDir is where spilled rows go; "" is the system's.
	TempDir string
	// From and FromNamed, when either is set, are the query's dataset
	// in place of its own FROM and FROM NAMED: the SPARQL 1.1 Protocol's
	// default-graph-uri and named-graph-uri, which take precedence over
	// the query's. With only FromNamed the default graph is empty, as
	// with FROM NAMED alone in a query.
	From, FromNamed []string
}

// Query is a prepared query, safe for concurrent Exec calls.
type Query struct {
	q    *algebra.Query
	op   algebra.Op
	opts Options
}

// Prepare parses and plans-ahead a query: syntax, algebra, filter
// push-down and constant folding. Errors are *syntax.Error with the line
// and column.
func Prepare(query string, opts Options) (*Query, error) {
	sq, err := syntax.Parse(query, syntax.Options{Base: opts.Base})
	if err != nil {
		return nil, err
	}
	aq := algebra.Translate(sq)
	return &Query{q: aq, op: optimize.Optimize(aq.Op), opts: opts}, nil
}

// Form is the query form (SELECT, CONSTRUCT, ASK, DESCRIBE).
func (q *Query) Form() syntax.Form { return q.q.Form }

// Vars are the variables of a SELECT's solutions, in order.
func (q *Query) Vars() []string { return q.q.Vars }

// Prefixes are the query's PREFIX declarations, name to namespace IRI (a
// later declaration of a name wins, as in the query), for writing a
// CONSTRUCT or DESCRIBE answer in Turtle with the names the query used.
func (q *Query) Prefixes() map[string]string {
	out := map[string]string{}
	for _, p := range q.q.Prefixes {
		out[p.Name] = p.IRI
	}
	return out
}

// Patterns is the number of triple patterns and property paths in the
// query (outside EXISTS).
func (q *Query) Patterns() int { return algebra.Patterns(q.q.Op) }

// Algebra returns the optimized algebra the query runs.
func (q *Query) Algebra() algebra.Op { return q.op }

// dataset builds the query's dataset: the one Options give, else FROM /
// FROM NAMED when given, else the configured default graph and every
// named graph.
func (q *Query) dataset(v *graph.View) (eval.Dataset, error) {
	from, fromNamed := q.q.From, q.q.FromNamed
	if len(q.opts.From) > 0 || len(q.opts.FromNamed) > 0 {
		from, fromNamed = q.opts.From, q.opts.FromNamed
	}
	if len(from) == 0 && len(fromNamed) == 0 {
		if q.opts.DefaultGraph == StoreDefaultGraph {
			return eval.Dataset{Default: []graph.ID{graph.DefaultGraph}, AllNamed: true}, nil
		}
		return eval.Dataset{UnionDefault: true, AllNamed: true}, nil
	}
	var d eval.Dataset
	ids := func(iris []string) ([]graph.ID, error) {
		var out []graph.ID
		for _, iri := range iris {
			id, ok, err := v.Lookup(rdf.IRI(iri))
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, id)
			}
		}
		return out, nil
	}
	var err error
	if d.Default, err = ids(from); err != nil {
		return d, err
	}
	d.Named, err = ids(fromNamed)
	return d, err
}

// prepared is one execution's compiled plan.
type prepared struct {
	ex   *eval.Exec
	plan *eval.Plan
	// slots of the SELECT variables, or those the CONSTRUCT template
	// reads: decoded in batches.
	slots []int
	// DESCRIBE: the IRIs named and the slots of the described variables.
	describeIDs   []graph.ID
	describeSlots []int
}

func (q *Query) compile(ctx context.Context, v *graph.View) (*prepared, error) {
	data, err := q.dataset(v)
	if err != nil {
		return nil, err
	}
	scope := expr.NewScope(q.q.Vars...)
	ec := expr.NewContext()
	ec.Base = q.q.Base
	ec.Now = time.Now()
	ex := eval.NewExec(ctx, v, data, scope, ec)
	ex.MaxRows, ex.TempDir = q.opts.MaxRows, q.opts.TempDir
	plan, err := eval.Compile(ex, q.op)
	if err != nil {
		return nil, err
	}
	p := &prepared{ex: ex, plan: plan}
	for _, name := range q.q.Vars {
		p.slots = append(p.slots, scope.Slot(name))
	}
	switch q.q.Form {
	case syntax.Construct:
		p.slots = templateSlots(q.q.Template, p)
	case syntax.Describe:
		if err := describeTargets(q.q.Describe, p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Exec runs the query on v. The context bounds the whole execution,
// reading the Result included: when it is done, Next returns false and
// Err the context's error. Close the Result.
func (q *Query) Exec(ctx context.Context, v *graph.View) (*Result, error) {
	p, err := q.Plan(ctx, v)
	if err != nil {
		return nil, err
	}
	return p.Exec()
}

// Planned is a query planned for one view, not yet run: its estimated
// cost can decide whether and when to run it.
type Planned struct {
	q *Query
	p *prepared
}

// Plan plans the query for v under ctx, which also bounds the run.
func (q *Query) Plan(ctx context.Context, v *graph.View) (*Planned, error) {
	p, err := q.compile(ctx, v)
	if err != nil {
		return nil, err
	}
	return &Planned{q: q, p: p}, nil
}

// Cost is the planner's estimate of the work of the query, in units of
// about one quad read.
func (pl *Planned) Cost() (float64, error) { return pl.p.plan.Cost() }

// Exec runs the planned query, once.
func (pl *Planned) Exec() (*Result, error) {
	q, p := pl.q, pl.p
	rows, err := p.plan.Open()
	if err != nil {
		return nil, err
	}
	r := &Result{q: q, p: p, rows: rows, Form: q.q.Form, Vars: q.q.Vars}
	switch q.q.Form {
	case syntax.Ask:
		row, err := rows.Next()
		rows.Close()
		r.rows = nil
		if err != nil {
			return nil, err
		}
		r.boolean = row != nil
	case syntax.Construct:
		r.gen = newConstructor(q.q.Template, p)
	case syntax.Describe:
		r.gen = &describer{}
	}
	return r, nil
}

// Explain runs the query (unless run is false) and returns the plan with
// the estimated and the actual rows of each operator.
func (q *Query) Explain(ctx context.Context, v *graph.View, run bool) (string, error) {
	if !run {
		p, err := q.compile(ctx, v)
		if err != nil {
			return "", err
		}
		return p.plan.Explain(), nil
	}
	r, err := q.Exec(ctx, v)
	if err != nil {
		return "", err
	}
	defer r.Close()
	for r.Next() {
	}
	if err := r.Err(); err != nil {
		return "", fmt.Errorf("explain: running the query: %w", err)
	}
	return r.p.plan.Explain(), nil
}
