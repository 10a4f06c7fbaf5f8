// Package graph is mneme's quad store: the knowledge base every crawl
// writes into and every SPARQL query reads from.
//
// Terms are mapped to fixed-width IDs by a dictionary (hash-based, with
// collisions resolved by probing, never merged). Every quad is kept in six
// orderings — spog, posg, ospg (graph last: any graph, or the union of all
// graphs) and gspo, gpos, gosp (graph first: one named graph) — so that
// every shape of triple pattern, with the graph bound or not, is a single
// range scan returning quads sorted by the ordering's columns. Statistics
// for the planner (quads, per predicate quads / distinct triples /
// distinct subjects / distinct objects, per graph quads) are kept exact
// and updated in the same atomic write as the indexes. docs/storage.md
// describes the key layout and why it is so.
//
// # Using it
//
// Open a store with Open (OpenOptions.ReadOnly for a server that only
// reads). Reads go through a View: the Store itself (live, each call sees
// the latest committed state) or a Snapshot (frozen: use one per query so
// that every scan of the query sees the same data).
//
//   - Lookup / LookupTerms map terms to IDs; Term / Terms decode IDs, Terms
//     in one sorted pass for a batch of IDs. Decoded terms are kept in a
//     cache shared by the store and its snapshots, bounded by
//     OpenOptions.TermCacheBytes (an ID's term never changes).
//   - Scan(ctx, Pattern, ScanOptions) returns a QuadIter over the quads
//     matching a pattern of IDs (0 = unbound). ScanOptions.Order chooses
//     the ordering (it must begin with the bound positions; OrderAuto picks
//     one), so results come sorted for merge joins, and QuadIter.SeekGE
//     skips ahead for zig-zag joins. ScanOptions.Union scans the union of
//     all graphs, each triple once, as the SPARQL default graph. A scan
//     read to its end leaves its keys, decoded, in a posting cache shared
//     by the store and its snapshots and bounded by
//     OpenOptions.ScanCacheBytes, so that warm scans walk arrays and warm
//     seeks binary-search them; commits withdraw what they change.
//   - PredicateOrder derives a predicate's triples sorted on the subject
//     or the object from its cached range (the store keeps no P-S-O
//     ordering), kept in a bounded cache while that range is valid, for
//     joins and anti-joins on a pattern's subject.
//   - Stats returns the planner statistics; Estimate gives a fast
//     cardinality estimate for any pattern; Graphs lists the named graphs.
//
// Writes go through a Batch (Add, Delete, Commit: atomic, idempotent) or,
// for large inputs, a Loader (parallel Workers, sorted files ingested in
// one atomic step per segment). Check verifies that the indexes, the
// dictionary and the statistics agree.
//
// All methods are safe for concurrent use. Writers are serialized inside
// the store; a Loader holds the write lock from NewLoader to Close.
package graph
