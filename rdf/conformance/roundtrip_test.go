package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/mneme-archive/mneme/internal/w3c"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/ntriples"
	"github.com/mneme-archive/mneme/rdf/turtle"
)

// writer is one of our serializers with the syntax that reads it back.
type writer struct {
	name      string
	newWriter func(io.Writer) rdf.Writer
	read      syntax
}

// writers are the serializers every eval test's data goes through. The
// Turtle and TriG writers get prefixes, so that prefixed names, and their
// escaping rules, are exercised too.
var writers = []writer{
	{"N-Triples", func(w io.Writer) rdf.Writer { return ntriples.NewWriter(w) }, nTriples},
	{"N-Quads", func(w io.Writer) rdf.Writer { return ntriples.NewQuadWriter(w) }, nQuads},
	{"Turtle", func(w io.Writer) rdf.Writer { return turtle.NewWriter(w, writeOpts) }, turtleS},
	{"TriG", func(w io.Writer) rdf.Writer { return turtle.NewTriGWriter(w, writeOpts) }, trig},
}

var writeOpts = rdf.WriteOptions{Prefixes: map[string]string{
	"ex":  "http://example.org/",
	"exs": "http://www.example.org/",
	"rdf": rdf.RDFNS,
	"xsd": rdf.XSDNS,
	"t":   "https://w3c.github.io/rdf-tests/rdf/rdf11/",
}}

// errNamedGraphs marks a round trip that cannot be run: the data has
// named graphs and the format holds triples only. It counts as skipped.
var errNamedGraphs = errors.New("the data has named graphs, which this format cannot hold")

// roundTrips writes quads with each writer that can hold them, reads the
// output back and checks that the result is isomorphic to quads. It
// returns the failures by writer name.
func roundTrips(quads []rdf.Quad) map[string]error {
	out := map[string]error{}
	named := false
	for _, q := range quads {
		named = named || !q.G.IsZero()
	}
	for _, w := range writers {
		if named && w.read.triplesOnly {
			out[w.name] = errNamedGraphs
			continue
		}
		out[w.name] = roundTrip(w, quads)
	}
	return out
}

func roundTrip(w writer, quads []rdf.Quad) error {
	var buf bytes.Buffer
	wr := w.newWriter(&buf)
	for _, q := range quads {
		if err := wr.Write(q); err != nil {
			return fmt.Errorf("write %v: %v", q, err)
		}
	}
	if err := wr.Close(); err != nil {
		return fmt.Errorf("close: %v", err)
	}
	back, err := w3c.Collect(w.read.newReader(&buf, rdf.ParseOptions{Name: w.name + " output"}))
	if err != nil {
		return fmt.Errorf("reading back: %v\n%s", err, buf.String())
	}
	if d := rdf.IsomorphismDiff(back, quads); d != "" {
		return fmt.Errorf("read back differs:\n%s\nwritten:\n%s", d, buf.String())
	}
	return nil
}
