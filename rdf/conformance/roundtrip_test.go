package conformance

import (
	"bytes"
	"fmt"
	"io"

	"github.com/mneme-archive/mneme/internal/w3c"
	"github.com/mneme-archive/mneme/rdf"
)

// writer is one of our serializers with the syntax that reads it back.
type writer struct {
	name      string
	newWriter func(io.Writer) rdf.Writer
	read      syntax
}

// writers are the serializers every eval test's data goes through.
var writers = []writer{}

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
