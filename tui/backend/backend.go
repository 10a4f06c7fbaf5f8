// Package backend is what the TUI's screens ask for data: the Backend
// interface and its implementation over a SPARQL 1.1 Protocol endpoint
// such as `mneme serve` (tests also run the screens on a store opened in
// process, package internal/tuitest). Screens never touch a store or the
// network themselves, so the same screen works against either.
package backend

import (
	"context"

	"github.com/mneme-archive/mneme/rdf"
)

// Backend answers the TUI's questions about an archive.
type Backend interface {
	// Query runs a SPARQL query and streams its answer. A query that
	// does not parse fails with a *parse.Error (package sparql/parse), whose Line and Col
	// locate the problem in the query text. The context bounds the whole
	// answer: cancelling it stops the query and Rows.Next.
	Query(ctx context.Context, query string) (Rows, error)
	// Name says where the data comes from, for the status bar.
	Name() string
	// Close releases the store or the connections.
	Close() error
}

// Rows is a query's answer as a table. SELECT gives its solutions;
// CONSTRUCT and DESCRIBE give their triples as rows of the variables
// subject, predicate and object; ASK gives no rows and a Boolean.
type Rows interface {
	Vars() []string
	// Boolean is the answer of an ASK query; ok is false for the other
	// forms.
	Boolean() (answer, ok bool)
	// Next advances to the next row.
	Next() bool
	// Row is the current row aligned with Vars (the zero Term for
	// unbound), valid until the next call of Next.
	Row() []rdf.Term
	// Err tells what ended the rows early (a cancelled context too).
	Err() error
	Close() error
}

// TripleVars are the columns CONSTRUCT and DESCRIBE results are shown in.
var TripleVars = []string{"subject", "predicate", "object"}
