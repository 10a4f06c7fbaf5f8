// Package rdf is mneme's RDF 1.1 term model: IRIs, blank nodes, literals,
// triples and quads, their canonical N-Triples form, and the small
// interfaces (Reader, Writer) that every serialization format implements.
//
// The formats themselves live in sub-packages (ntriples, turtle, rdfxml)
// and are reached by file name or format name through rdfio.
package rdf
