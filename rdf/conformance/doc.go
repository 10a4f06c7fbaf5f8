// Package conformance runs the W3C RDF 1.1 test suites (N-Triples,
// N-Quads, Turtle, TriG) against mneme's readers and writers. It holds
// only tests; run them with
//
//	go test ./rdf/conformance -v
//
// Each suite prints "N passed, N failed, N skipped". Eval tests compare
// the parsed dataset with the expected one by isomorphism, and the data
// of every positive test (syntax or eval) is also round-tripped through
// each of our writers: written, read back and compared by isomorphism.
// Triples-only formats (N-Triples, Turtle) skip data with named graphs.
// The suites are read from the shared test material (../shared beside the
// repository); the tests skip when it is absent.
package conformance
