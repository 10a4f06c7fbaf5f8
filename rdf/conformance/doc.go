// Package conformance runs the W3C RDF 1.1 test suites (N-Triples,
// N-Quads, Turtle, TriG) against mneme's readers and writers. It holds
// only tests; run them with
//
//	go test ./rdf/conformance -v
//
// Each suite prints "N passed, N failed, N skipped". Eval tests compare
// the parsed dataset with the expected one by isomorphism, and every eval
// test is also round-tripped through each writer that can hold its data.
// The suites are read from the shared test material (../shared beside the
// repository); the tests skip when it is absent.
package conformance
