package conformance

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/internal/w3c"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/ntriples"
	"github.com/mneme-archive/mneme/rdf/turtle"
)

// syntax is one of our RDF formats as the tests use it.
type syntax struct {
	name      string
	newReader func(io.Reader, rdf.ParseOptions) rdf.Reader
	// triplesOnly formats cannot hold named graphs.
	triplesOnly bool
}

var (
	nTriples = syntax{"N-Triples", func(r io.Reader, o rdf.ParseOptions) rdf.Reader { return ntriples.NewReader(r, o) }, true}
	nQuads   = syntax{"N-Quads", func(r io.Reader, o rdf.ParseOptions) rdf.Reader { return ntriples.NewQuadReader(r, o) }, false}
	turtleS  = syntax{"Turtle", func(r io.Reader, o rdf.ParseOptions) rdf.Reader { return turtle.NewReader(r, o) }, true}
	trig     = syntax{"TriG", func(r io.Reader, o rdf.ParseOptions) rdf.Reader { return turtle.NewTriGReader(r, o) }, false}
)

// suite is one W3C test suite: its folder, the syntax of its actions and
// the syntax of its expected results.
type suite struct {
	dir            string
	action, result syntax
}

var suites = []suite{
	{"rdf-n-triples", nTriples, nTriples},
	{"rdf-n-quads", nQuads, nQuads},
	{"rdf-turtle", turtleS, nTriples},
	{"rdf-trig", trig, nQuads},
}

// knownFailures lists tests (by IRI fragment within a suite) that are
// expected to fail, each with the reason. They are counted as skipped.
var knownFailures = map[string]string{}

// tally counts the outcomes of one suite or round trip.
type tally struct{ passed, failed, skipped int }

// count records the outcome of test key: err is why it failed, or nil.
// A failure listed in knownFailures counts as skipped, with its reason.
func (c *tally) count(t *testing.T, key, kind string, err error) {
	t.Helper()
	reason := knownFailures[key]
	switch {
	case errors.Is(err, errNamedGraphs):
		c.skipped++
		return
	case err == nil && reason != "":
		c.failed++
		t.Errorf("%s: listed as a known failure (%s) but passes: remove it from knownFailures", key, reason)
	case err == nil:
		c.passed++
	case reason != "":
		c.skipped++
		t.Logf("SKIP %s (%s): known failure: %s; error: %v", key, kind, reason, err)
	default:
		c.failed++
		t.Errorf("FAIL %s (%s): %v", key, kind, err)
	}
}

func (c tally) String() string {
	return fmt.Sprintf("%d passed, %d failed, %d skipped", c.passed, c.failed, c.skipped)
}

func TestRDF11Suites(t *testing.T) {
	root := testenv.Path(t, "data", "rdf-tests", "rdf", "rdf11")
	for _, s := range suites {
		t.Run(s.dir, func(t *testing.T) {
			m, err := w3c.Load(root + "/" + s.dir + "/manifest.ttl")
			if err != nil {
				t.Fatal(err)
			}
			var counts tally
			trips := map[string]*tally{}
			for _, tc := range m.AllTests() {
				key := s.dir + "#" + tc.Name
				tripErrs, err := run(s, m, tc)
				counts.count(t, key, tc.TypeName(), err)
				for name, err := range tripErrs {
					if trips[name] == nil {
						trips[name] = &tally{}
					}
					trips[name].count(t, key+" via "+name, "round trip", err)
				}
			}
			report(t, "W3C "+s.dir, counts)
			for _, w := range writers {
				if c := trips[w.name]; c != nil {
					report(t, "W3C "+s.dir+" round trip via "+w.name, *c)
				}
			}
		})
	}
}

// report prints a count with t.Logf and on standard output, so that it
// shows without -v when go test runs in the package's folder (in package
// list mode go test shows a passing package's output only with -v). The
// label has two words so that the line is not taken for the closing
// "N passed, N failed" line of the whole run.
func report(t *testing.T, what string, c tally) {
	t.Logf("%s: %v", what, c)
	fmt.Printf("%s: %v\n", what, c)
}

// run runs one test and returns why it fails, or nil; for a positive
// test that passes it also returns the outcome of each round trip.
func run(s suite, m *w3c.Manifest, tc *w3c.Test) (trips map[string]error, err error) {
	action := tc.Action.Path()
	if action == "" {
		return nil, fmt.Errorf("mf:action %v is not a local file", tc.Action.Term)
	}
	got, err := parseFile(s.action, action, m.Base(tc.Action))
	name := tc.TypeName()
	switch {
	case strings.HasSuffix(name, "NegativeSyntax"), strings.HasSuffix(name, "NegativeEval"):
		if err == nil {
			return nil, fmt.Errorf("parsed %d quads, want a syntax error", len(got))
		}
		return nil, nil
	case strings.HasSuffix(name, "PositiveSyntax"):
		if err != nil {
			return nil, err
		}
		return roundTrips(got), nil
	case strings.HasSuffix(name, "Eval"):
		if err != nil {
			return nil, err
		}
		want, err := parseFile(s.result, tc.Result.Path(), m.Base(tc.Result))
		if err != nil {
			return nil, fmt.Errorf("expected result: %v", err)
		}
		if d := rdf.IsomorphismDiff(got, want); d != "" {
			return nil, fmt.Errorf("result differs from %s:\n%s", tc.Result.Path(), d)
		}
		return roundTrips(got), nil
	}
	return nil, fmt.Errorf("unknown test type %s", tc.Type)
}

func parseFile(s syntax, path, base string) ([]rdf.Quad, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return w3c.Collect(s.newReader(f, rdf.ParseOptions{Name: path, Base: base}))
}
