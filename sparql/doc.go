// Package sparql answers SPARQL 1.1 queries over mneme's quad store: the
// entry point for the CLI and the HTTP endpoint (clients that only parse,
// such as the TUI, use sparql/parse). Prepare parses,
// translates and optimizes a query once; Query.Exec runs it against a
// graph.View (use a snapshot per query) and streams a Result: solutions,
// a boolean, or triples for CONSTRUCT and DESCRIBE. Query.Explain prints
// the plan with the planner's estimated and the actual row counts.
package sparql
