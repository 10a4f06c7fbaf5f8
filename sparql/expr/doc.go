// Package expr evaluates SPARQL 1.1 expressions (§17) over RDF terms: the
// operators with their type promotion and error rules, the built-in
// function library, XSD casts, aggregates (§18.5) and the ORDER BY order
// (§15.1). Expressions are compiled once per query into a tree of typed
// nodes so that per-solution evaluation parses no more than it must and
// keeps intermediate numbers and booleans unboxed.
package expr
