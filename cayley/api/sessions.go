package api

import (
	"context"
	"sync"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/query/gizmo"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
	"github.com/dop251/goja/token"
	"github.com/maypok86/otter/v2"

	"github.com/mneme-archive/mneme/cayley"
)

// Sessions keeps the Gizmo sessions of finished queries for the next
// queries to run in. A Gizmo session is a JavaScript runtime, and a fresh
// runtime pays on its first query for what it learns once: the
// reflection of Gizmo's path type (some hundred methods) and the
// compilation of the script; in a kept runtime a query starting from an
// unknown node costs about a quarter of its time in a fresh one.
//
// A runtime keeps what a script leaves in it (its globals, changed
// built-ins, namespaces added with g.addNamespace), so a session goes
// back to the pool only after a script that cannot leave anything: a
// sequence of Gizmo calls (path steps from g or graph and Gizmo's value
// functions, with literals, arrays and objects of literals, and paths as
// arguments; see pure) that ran to its end. Any other script gets a
// session of its own, dropped after it; so does a query stopped by its
// context, its limit or an error.
//
// A pool made by NewSessions serves one QuadStore, which must outlive it
// and stay the same state for all its queries: Cayley's own stores, or a
// Source's QuadStore over a read-only store. One made by
// NewSourceSessions serves a Source: each session reads a QuadStore of its
// own, moved to a new snapshot of the store for each query
// (cayley.Source.Renew) and released while the session is idle, so that
// an idle session holds no snapshot.
type Sessions struct {
	qs      cgraph.QuadStore // nil: src's
	src     *cayley.Source
	mu      sync.Mutex
	idle    []session
	maxIdle int
	// verdicts of pure on the query texts seen, bounded in entries and in
	// the length of the texts kept.
	verdicts *otter.Cache[string, bool]
}

const (
	maxVerdicts   = 1024
	maxVerdictLen = 4096
)

// NewSessions returns a pool over qs keeping up to maxIdle idle sessions
// (maxIdle <= 0: one).
func NewSessions(qs cgraph.QuadStore, maxIdle int) *Sessions {
	v, err := otter.New(&otter.Options[string, bool]{MaximumSize: maxVerdicts})
	if err != nil {
		panic(err) // the options are constant and valid
	}
	return &Sessions{qs: qs, maxIdle: max(maxIdle, 1), verdicts: v}
}

// NewSourceSessions returns a pool over the snapshots of src's store
// keeping up to maxIdle idle sessions; over a read-only store, as
// NewSessions over its one QuadStore.
func NewSourceSessions(src *cayley.Source, maxIdle int) *Sessions {
	if src.Store().ReadOnly() {
		return NewSessions(src.Snapshot(), maxIdle)
	}
	p := NewSessions(nil, maxIdle)
	p.src = src
	return p
}

// session is a Gizmo session and the QuadStore it reads.
type session struct {
	s  *gizmo.Session
	qs cgraph.QuadStore
}

// Run runs one query as the package's Run does, in a pooled session for
// Gizmo.
func (p *Sessions) Run(ctx context.Context, lang, text string, limit int, emit func(any) error) (truncated bool, err error) {
	if lang != "gizmo" {
		qs := p.qs
		if p.src != nil {
			snap := p.src.Snapshot()
			defer snap.Close()
			qs = snap
		}
		return Run(ctx, qs, lang, text, limit, emit)
	}
	keep := p.pure(text)
	s := p.get()
	truncated, finished, err := run(ctx, s.s, lang, text, limit, keep, emit)
	if p.src != nil {
		s.qs.Close() // an idle session holds no snapshot
	}
	if finished && keep {
		p.put(s)
	}
	return truncated, err
}

// get takes an idle session, or makes one.
func (p *Sessions) get() session {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		s := p.idle[n-1]
		p.idle[n-1] = session{}
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		if p.src != nil {
			p.src.Renew(s.qs.(*cayley.QuadStore))
		}
		return s
	}
	p.mu.Unlock()
	qs := p.qs
	if p.src != nil {
		qs = p.src.Snapshot()
	}
	return session{gizmo.NewSession(qs), qs}
}

func (p *Sessions) put(s session) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) < p.maxIdle {
		p.idle = append(p.idle, s)
	}
}

// pure reports whether a script is made of Gizmo calls only, so that it
// leaves its runtime as it found it.
func (p *Sessions) pure(text string) bool {
	if v, ok := p.verdicts.GetIfPresent(text); ok {
		return v
	}
	prg, err := parser.ParseFile(nil, "", text, 0)
	v := err == nil && pureProgram(prg)
	if len(text) <= maxVerdictLen {
		p.verdicts.Set(text, v)
	}
	return v
}

// gizmoMethods are the names under which Gizmo's graph and path objects
// offer their methods (Cayley's Gizmo reference), but those that change
// the session (addNamespace, addDefaultNamespaces, loadNamespaces) and
// those that call back into the script (forEach, map).
var gizmoMethods = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{
		"all", "and", "as", "back", "both", "count", "difference", "emit", "except",
		"filter", "follow", "followR", "followRecursive", "getLimit", "has", "hasR", "in",
		"inPredicates", "intersect", "is", "labelContext", "labels", "limit", "or",
		"out", "outPredicates", "save", "saveInPredicates", "saveOpt", "saveOptR",
		"saveOutPredicates", "saveR", "skip", "tag", "tagArray", "tagValue",
		"toArray", "toValue", "union", "unique",
	} {
		m[n] = true
		m[string(n[0]-'a'+'A')+n[1:]] = true // Gizmo's capitalised aliases
	}
	for _, n := range []string{"order", "V", "Vertex", "M", "Morphism", "IRI", "Uri"} {
		m[n] = true
	}
	return m
}()

// gizmoRoots are the globals a pure script may start from: the graph
// object and Gizmo's value functions, which only make values.
var gizmoRoots = map[string]bool{
	"g": true, "graph": true,
	"iri": true, "bnode": true, "raw": true, "str": true, "lang": true, "typed": true,
	"lt": true, "lte": true, "gt": true, "gte": true, "regex": true, "like": true,
}

func pureProgram(prg *ast.Program) bool {
	if len(prg.DeclarationList) > 0 {
		return false
	}
	for _, st := range prg.Body {
		switch st := st.(type) {
		case *ast.EmptyStatement:
		case *ast.ExpressionStatement:
			if !pureCall(st.Expression) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// pureCall: a call of a Gizmo method or value function, with pure
// arguments.
func pureCall(e ast.Expression) bool {
	c, ok := e.(*ast.CallExpression)
	if !ok || !pureCallee(c.Callee) {
		return false
	}
	for _, a := range c.ArgumentList {
		if !pureArg(a) {
			return false
		}
	}
	return true
}

func pureCallee(e ast.Expression) bool {
	switch e := e.(type) {
	case *ast.Identifier:
		return gizmoRoots[string(e.Name)]
	case *ast.DotExpression:
		if !gizmoMethods[string(e.Identifier.Name)] {
			return false
		}
		if id, ok := e.Left.(*ast.Identifier); ok {
			return id.Name == "g" || id.Name == "graph"
		}
		return pureCall(e.Left)
	}
	return false
}

func pureArg(e ast.Expression) bool {
	switch e := e.(type) {
	case *ast.StringLiteral, *ast.NumberLiteral, *ast.BooleanLiteral, *ast.NullLiteral:
		return true
	case *ast.UnaryExpression:
		_, num := e.Operand.(*ast.NumberLiteral)
		return num && !e.Postfix && (e.Operator == token.MINUS || e.Operator == token.PLUS)
	case *ast.ArrayLiteral:
		for _, v := range e.Value {
			if v == nil || !pureArg(v) {
				return false
			}
		}
		return true
	case *ast.ObjectLiteral:
		for _, pr := range e.Value {
			k, ok := pr.(*ast.PropertyKeyed)
			if !ok || k.Computed || k.Kind != ast.PropertyKindValue || !pureArg(k.Value) {
				return false
			}
			switch k.Key.(type) {
			case *ast.StringLiteral, *ast.Identifier, *ast.NumberLiteral:
			default:
				return false
			}
		}
		return true
	case *ast.CallExpression:
		return pureCall(e)
	}
	return false
}
