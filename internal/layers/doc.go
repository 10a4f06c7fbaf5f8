// Package layers holds, as a test, the import rules between mneme's
// layers (docs/architecture.md): the TUI depends on the control API's
// wire package and never on the crawler, the store, the knowledge base or
// the SPARQL evaluator; only sparql/ reaches into sparql/syntax, algebra
// and eval, and only graph/ into graph/kv; kb and crawler do not import
// each other both ways. The test reads `go list`, so CI keeps the rules.
package layers
