// Package parse reads SPARQL query text without a store: the query's
// form and its syntax errors with their line and column. It is for
// clients that send queries elsewhere (the TUI over HTTP) and must not
// carry the engine; package sparql re-exports the same types.
package parse

import "github.com/mneme-archive/mneme/sparql/syntax"

// Form is a query form: Select, Construct, Ask or Describe.
type Form = syntax.Form

// Query forms.
const (
	Select    = syntax.Select
	Construct = syntax.Construct
	Ask       = syntax.Ask
	Describe  = syntax.Describe
)

// Error is a syntax error with its position in the query text.
type Error = syntax.Error

// Query parses a query and returns its form; a query that does not parse
// fails with an *Error.
func Query(text string) (Form, error) {
	q, err := syntax.Parse(text, syntax.Options{})
	if err != nil {
		return 0, err
	}
	return q.Form, nil
}
