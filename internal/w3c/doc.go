// Package w3c loads W3C test manifests (the Turtle files of the RDF and
// SPARQL test suites) into tests whose actions and results can be read
// generically, following mf:include, for the conformance tests.
package w3c
