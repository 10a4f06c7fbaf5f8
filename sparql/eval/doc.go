// Package eval executes SPARQL algebra against a graph.View. Solutions are
// rows of dictionary IDs, one slot per variable of the query, and flow
// through a tree of pull iterators, so nothing is materialized unless an
// operator needs all of its input (hash join build sides, ORDER BY, GROUP
// BY, DISTINCT). Terms are decoded from the dictionary only when an
// expression or the caller reads them; values that expressions compute and
// the store has never seen get query-local IDs (see Dict).
//
// Basic graph patterns are ordered by the planner in sparql/plan from the
// store's statistics and run as pipelines of index nested-loop joins, the
// bound variables of each step forming the scan prefix. Every operator
// checks the context regularly, so a cancelled or timed-out query stops
// promptly and releases its scans.
package eval
