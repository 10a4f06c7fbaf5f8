// Package cayley makes mneme's quad store a Cayley quad store
// (github.com/cayleygraph/cayley graph.QuadStore), so that Cayley's query
// languages — Gizmo, GraphQL — and its tools read (and, opened read-write,
// write) an archive.
//
// Values map to RDF terms without loss: IRIs, blank nodes, plain,
// language-tagged and typed literals are themselves; Cayley's native
// values (Int, Float, Bool, Time) are typed literals in Cayley's canonical
// form. Named graphs are Cayley labels; the default graph is the nil
// label. Cayley admits any value in any position, so writes go through a
// generalised batch (graph.Store.NewGeneralisedBatch).
//
// Iterators are scans of the store's six orderings: a node in one
// direction, or several bound directions at once. The shape optimiser
// (shapes.go) turns Cayley's quad filters into range scans, and the
// nodes at one end of quads with constants (Has, In, Out) into a scan to
// list them and a seek to check one, and an intersection of such sets
// into one iterator. Sizes come from the store's
// statistics and estimates; Contains on quads checks a quad's column and
// never reads a range. The package is outside the core: nothing in
// graph, sparql or rdf imports Cayley.
package cayley
