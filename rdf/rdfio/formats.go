package rdfio

import (
	"io"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/jsonld"
	"github.com/mneme-archive/mneme/rdf/ntriples"
	"github.com/mneme-archive/mneme/rdf/rdfxml"
	"github.com/mneme-archive/mneme/rdf/turtle"
)

// Named formats, for callers that pick one explicitly.
var (
	NTriples = &Format{
		Name: "ntriples", Aliases: []string{"nt", "n-triples"}, Extensions: []string{".nt"},
		MediaType: "application/n-triples", LineBased: true,
		newReader: func(r io.Reader, o rdf.ParseOptions) rdf.Reader { return ntriples.NewReader(r, o) },
		newWriter: func(w io.Writer, _ rdf.WriteOptions) rdf.Writer { return ntriples.NewWriter(w) },
	}
	NQuads = &Format{
		Name: "nquads", Aliases: []string{"nq", "n-quads"}, Extensions: []string{".nq"},
		MediaType: "application/n-quads", Quads: true, LineBased: true,
		newReader: func(r io.Reader, o rdf.ParseOptions) rdf.Reader { return ntriples.NewQuadReader(r, o) },
		newWriter: func(w io.Writer, _ rdf.WriteOptions) rdf.Writer { return ntriples.NewQuadWriter(w) },
	}
	Turtle = &Format{
		Name: "turtle", Aliases: []string{"ttl"}, Extensions: []string{".ttl"},
		MediaType: "text/turtle",
		newReader: func(r io.Reader, o rdf.ParseOptions) rdf.Reader { return turtle.NewReader(r, o) },
		newWriter: func(w io.Writer, o rdf.WriteOptions) rdf.Writer { return turtle.NewWriter(w, o) },
	}
	TriG = &Format{
		Name: "trig", Extensions: []string{".trig"},
		MediaType: "application/trig", Quads: true,
		newReader: func(r io.Reader, o rdf.ParseOptions) rdf.Reader { return turtle.NewTriGReader(r, o) },
		newWriter: func(w io.Writer, o rdf.WriteOptions) rdf.Writer { return turtle.NewTriGWriter(w, o) },
	}
	RDFXML = &Format{
		Name: "rdfxml", Aliases: []string{"rdf/xml", "xml"}, Extensions: []string{".rdf", ".owl", ".xml"},
		MediaType: "application/rdf+xml",
		newReader: func(r io.Reader, o rdf.ParseOptions) rdf.Reader { return rdfxml.NewReader(r, o) },
	}
	// JSONLD is written only, for graph answers (CONSTRUCT, DESCRIBE);
	// without an extension, files are never taken for it.
	JSONLD = &Format{
		Name: "jsonld", Aliases: []string{"json-ld"},
		MediaType: jsonld.MediaType,
		newWriter: func(w io.Writer, _ rdf.WriteOptions) rdf.Writer { return jsonld.NewWriter(w) },
	}
)

var formats = []*Format{NTriples, NQuads, Turtle, TriG, RDFXML, JSONLD}
