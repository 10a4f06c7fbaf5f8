package conformance

import (
	"io"
	"testing"

	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/internal/w3c"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/ntriples"
)

// dropLast is a faulty reader: it loses the last quad of a document and
// ends silently at a syntax error.
type dropLast struct {
	r       rdf.Reader
	pending *rdf.Quad
}

func (d *dropLast) Next() (rdf.Quad, error) {
	for {
		q, err := d.r.Next()
		if err != nil {
			return rdf.Quad{}, io.EOF
		}
		q = q.Clone()
		prev := d.pending
		d.pending = &q
		if prev != nil {
			return *prev, nil
		}
	}
}

// TestHarnessCatchesFaults runs the Turtle suite with a faulty reader and
// a faulty writer and checks that the harness reports them, so that the
// passing counts of TestRDF11Suites mean something.
func TestHarnessCatchesFaults(t *testing.T) {
	m, err := w3c.Load(testenv.Path(t, "data", "rdf-tests", "rdf", "rdf11", "rdf-turtle", "manifest.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	faulty := suite{"rdf-turtle", syntax{"faulty Turtle", func(r io.Reader, o rdf.ParseOptions) rdf.Reader {
		return &dropLast{r: turtleS.newReader(r, o)}
	}, true}, nTriples}
	failed := map[string]int{}
	for _, tc := range m.AllTests() {
		if _, err := run(faulty, m, tc); err != nil {
			failed[tc.TypeName()]++
		}
	}
	if failed["TestTurtleNegativeSyntax"] != 94 || failed["TestTurtleEval"] == 0 || failed["TestTurtlePositiveSyntax"] != 0 {
		t.Errorf("faulty reader: failures by type %v, want all 94 negative and some eval tests", failed)
	}

	lossy := writer{"lossy N-Triples", func(w io.Writer) rdf.Writer { return &dropWriter{w: ntriples.NewWriter(w)} }, nTriples}
	quads := []rdf.Quad{
		{S: rdf.IRI("http://e.org/s"), P: rdf.IRI("http://e.org/p"), O: rdf.String("a")},
		{S: rdf.IRI("http://e.org/s"), P: rdf.IRI("http://e.org/p"), O: rdf.String("b")},
	}
	if err := roundTrip(lossy, quads); err == nil {
		t.Error("round trip through a lossy writer passed")
	}
}

// dropWriter writes every quad but the first.
type dropWriter struct {
	w    rdf.Writer
	seen bool
}

func (d *dropWriter) Write(q rdf.Quad) error {
	if !d.seen {
		d.seen = true
		return nil
	}
	return d.w.Write(q)
}

func (d *dropWriter) Close() error { return d.w.Close() }
