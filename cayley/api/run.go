// Package api runs Cayley's query languages (Gizmo, GraphQL) over a mneme
// store: Run for the command line, Handler for Cayley's HTTP API
// (/api/v2/query, and /api/v2/write and /api/v2/delete on a writable
// store with its token), with the SPARQL endpoint's timeouts, cancellation
// and result limits.
package api

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/query"
	_ "github.com/cayleygraph/cayley/query/gizmo"   // registers "gizmo"
	_ "github.com/cayleygraph/cayley/query/graphql" // registers "graphql"
	"github.com/cayleygraph/quad"
	"github.com/dop251/goja"
)

// Languages are the query languages served.
var Languages = []string{"gizmo", "graphql"}

// SyntaxError is a query that does not parse, with where.
type SyntaxError struct {
	Lang      string
	Line, Col int // 1-based; 0 when the parser does not say
	Msg       string
}

func (e *SyntaxError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s syntax error: %s", e.Lang, e.Msg)
	}
	return fmt.Sprintf("%s syntax error at line %d, column %d: %s", e.Lang, e.Line, e.Col, e.Msg)
}

// graphqlPos finds the position in the GraphQL parser's message:
// "Syntax Error GraphQL (2:3) ...".
var graphqlPos = regexp.MustCompile(`^Syntax Error GraphQL(?: request)? \((\d+):(\d+)\) ?`)

// gizmoPos finds the position in goja's message:
// "(anonymous): Line 2:14 Unexpected token )".
var gizmoPos = regexp.MustCompile(`Line (\d+):(\d+) (.*)$`)

// syntaxError recognises the parsers' errors.
func syntaxError(lang string, err error) error {
	var ce *goja.CompilerSyntaxError
	if errors.As(err, &ce) {
		e := &SyntaxError{Lang: lang, Msg: ce.Message}
		if m := gizmoPos.FindStringSubmatch(ce.Message); m != nil {
			e.Line, _ = strconv.Atoi(m[1])
			e.Col, _ = strconv.Atoi(m[2])
			e.Msg = m[3]
		} else if ce.File != nil {
			p := ce.File.Position(ce.Offset)
			e.Line, e.Col = p.Line, p.Column
		}
		return e
	}
	if lang == "graphql" {
		msg := err.Error()
		if m := graphqlPos.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			col, _ := strconv.Atoi(m[2])
			return &SyntaxError{Lang: lang, Line: line, Col: col, Msg: msg[len(m[0]):]}
		}
		return &SyntaxError{Lang: lang, Msg: msg}
	}
	return err
}

// ErrLanguage is returned for a language other than Languages.
var ErrLanguage = errors.New("unknown query language: want gizmo or graphql")

// Run runs one query over qs and gives each result, as JSON-ready values,
// to emit, stopping after limit results (limit <= 0: no limit); truncated
// tells that more were there. A query that does not parse gives a
// *SyntaxError; ctx's end stops it, a Gizmo script in a loop included.
// Each call builds a session of its own; Sessions keeps them for the
// queries that follow.
func Run(ctx context.Context, qs cgraph.QuadStore, lang, text string, limit int, emit func(any) error) (truncated bool, err error) {
	l := query.GetLanguage(lang)
	if l == nil || l.Session == nil {
		return false, ErrLanguage
	}
	truncated, _, err = run(ctx, l.Session(qs), lang, text, limit, false, emit)
	return truncated, err
}

// run runs a query in session s. finished reports that the query ran to
// its end without error; then, with keep, its results iterator is left
// unclosed, so that s can run another query: closing it interrupts a
// Gizmo runtime even after its script has ended, and the runtime's next
// script would stop at once.
func run(ctx context.Context, s query.Session, lang, text string, limit int, keep bool, emit func(any) error) (truncated, finished bool, err error) {
	opt := query.Options{Collation: query.JSON}
	if limit > 0 {
		opt.Limit = limit + 1
	}
	it, err := s.Execute(ctx, text, opt)
	if err != nil {
		return false, false, syntaxError(lang, err)
	}
	defer func() {
		if !finished || !keep {
			it.Close()
		}
	}()
	n := 0
	for it.Next(ctx) {
		if limit > 0 && n == limit {
			return true, false, nil
		}
		r := it.Result()
		if lang == "graphql" {
			r = jsonReady(r)
		}
		if err := emit(r); err != nil {
			return false, false, err
		}
		n++
	}
	if err := ctx.Err(); err != nil {
		return false, false, err
	}
	if err := it.Err(); err != nil {
		return false, false, syntaxError(lang, err)
	}
	return false, true, nil
}

// jsonReady turns the values of a GraphQL answer into JSON: IRIs as
// plain strings (GraphQL's convention), blank nodes as _:label, literals
// as Gizmo writes them (their native value: string, number, boolean,
// time) — left alone, a time would be written {}.
func jsonReady(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = jsonReady(x)
		}
	case []map[string]any:
		for _, x := range v {
			jsonReady(x)
		}
	case []any:
		for i, x := range v {
			v[i] = jsonReady(x)
		}
	case []quad.Value:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = jsonReady(x)
		}
		return out
	case quad.IRI:
		return string(v)
	case quad.BNode:
		return v.String()
	case quad.Value:
		out := v.Native()
		if nv, ok := out.(quad.Value); ok && nv == v {
			return quad.StringOf(v)
		}
		return out
	}
	return v
}
