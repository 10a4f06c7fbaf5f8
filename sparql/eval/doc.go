// Package eval executes SPARQL algebra against a graph.View. Solutions are
// rows of dictionary IDs, one slot per variable of the query, and flow
// through a tree of pull iterators. Terms are decoded from the dictionary
// only when an expression or the caller reads them; values that
// expressions compute and the store has never seen get query-local IDs
// (see Dict).
//
// Basic graph patterns are ordered by the planner in sparql/plan from the
// store's statistics and run as pipelines of steps: index nested-loop
// joins (one store scan per step, re-targeted per input row), hash joins
// (the pattern scanned once into a table shared by every step of the
// query that probes it) and zig-zag merge joins of two scans sorted on a
// shared variable. A bind join takes its input rows in batches and
// looks them up in key order, a large batch's second half on a helper
// goroutine (see bind.go). A cycle of patterns (a triangle such as LUBM's
// advisor/worksFor/memberOf) may instead be joined first by a leapfrog
// triejoin when the planner's costs favour it: each pattern of the cycle
// is read once into a sorted two-level trie and the join binds one
// variable at a time by intersecting them (see leapfrog.go); under a
// COUNT(*) it counts its matches without producing rows, on every core. A union of
// basic graph patterns that share triples (the open-coded form of class
// and property hierarchies) is factored when the planner's costs favour
// it: the shared triples are joined once and each branch's own triples
// checked per row of them, planned for that many input rows (see
// factor.go). Branches left as single triples that differ only in a
// constant object, their subject bound (`?x a C1` ∪ `?x a C2` ∪ …), run
// as one scan of the subject's objects checked against the constants
// (see objectset.go).
//
// Property paths are patterns of their basic graph pattern's plan (see
// pathstep.go): estimated from the predicates' statistics, or, with a
// constant end, by walking them from it at planning; walked breadth-first
// with a visited set from whichever end is bound, forwards or backwards,
// by bind (per input row, remembering ends already walked) or hash (one
// walk, probed). MINUS and FILTER [NOT] EXISTS of a plain pattern run as
// hash anti-joins (semi-joins) or as a lookup per row, whichever the
// estimates favour (see antijoin.go); the operands of a group (OPTIONAL,
// UNION, subqueries, VALUES) are joined in the order and by the join the
// estimates favour (see groupplan.go). A FILTER equating variables of
// two parts of a basic graph pattern that share no variable joins the
// parts on the value (see valuejoin.go); a filter keeping a variable of
// its pattern in a range of numbers, dateTimes or dates runs the pattern
// from the terms a scan of the store's value index finds, when cheaper
// (see rangescan.go); a filter expression of one variable is evaluated
// once per ID of it.
//
// GROUP BY aggregates on IDs (see group.go): plain-variable keys and the
// arguments of COUNT, COUNT(DISTINCT), MIN and MAX are read as IDs, so
// only the aggregates that compute with values decode terms, and HAVING
// is evaluated on a group's values before they are encoded. ORDER BY
// under a LIMIT keeps only OFFSET + LIMIT rows, in a bounded heap (see
// topk.go); sort keys are parsed once per row, not per comparison.
// DISTINCT compares rows of IDs.
//
// What operators hold in memory (ORDER BY, DISTINCT, GROUP BY, hash join
// build sides, triejoin tries) is counted against Exec.MaxRows; past it
// they spill rows to unlinked temporary files — external merge sort,
// multi-pass deduplication and aggregation, grace hash join — pattern
// hash tables give way to index lookups and triejoins to left-deep plans. Every operator checks the context
// regularly, so a cancelled or timed-out query stops promptly and
// releases its scans.
package eval
