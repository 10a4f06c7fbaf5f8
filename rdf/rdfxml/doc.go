// Package rdfxml reads RDF/XML (RDF 1.1 XML Syntax) into quads of the
// default graph.
//
// It is a streaming implementation of the grammar of the RDF 1.1 XML
// Syntax recommendation (§7) on top of encoding/xml: node and property
// elements, property attributes, rdf:type attributes, typed node
// elements, rdf:li, rdf:parseType="Resource", "Literal" and "Collection",
// rdf:nodeID, rdf:ID (including reification on property elements),
// rdf:datatype, xml:lang and xml:base (resolved with RFC 3986).
//
// Why not github.com/knakk/rdf, the Go library with an RDF/XML decoder:
// tried at v0.0.0-20190304171630-8521bf4c5042, it fails on nested
// rdf:Description elements with rdf:about, on typed node elements as
// objects, on absolute IRIs without "//" (urn:, mailto:), on
// rdf:parseType="Collection" of typed nodes, drops property attributes
// next to an rdf:type attribute and ignores xml:lang on rdf:RDF. Those
// are everyday RDF/XML, and working around them would mean parsing the
// grammar anyway, so the reader does that directly.
//
// Limits: documents must be UTF-8 (a different encoding declaration is an
// error); the "same rdf:ID twice" rule is not checked; the value of an
// rdf:parseType="Literal" element is written in exclusive canonical XML
// form, except that comments are dropped and namespace prefixes are
// taken from the nearest declaration of the namespace.
package rdfxml
