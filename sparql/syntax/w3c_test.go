package syntax_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/internal/w3c"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// TestW3CSyntax runs the W3C SPARQL syntax tests (positive ones must parse
// and translate, negative ones must be rejected) and parses the query of
// every query-evaluation test, printing the counts per category.
func TestW3CSyntax(t *testing.T) {
	root := testenv.Path(t, "data", "rdf-tests", "sparql")
	categories := []struct{ name, manifest string }{
		{"sparql10 syntax", "sparql10/manifest-syntax.ttl"},
		{"sparql10 evaluation queries", "sparql10/manifest-evaluation.ttl"},
		{"sparql11 query (syntax and evaluation queries)", "sparql11/manifest-sparql11-query.ttl"},
		{"sparql11 syntax-fed", "sparql11/syntax-fed/manifest.ttl"},
	}
	for _, c := range categories {
		t.Run(c.name, func(t *testing.T) {
			m, err := w3c.Load(filepath.Join(root, c.manifest))
			if err != nil {
				t.Fatal(err)
			}
			var passed, failed, skipped int
			for _, tc := range m.AllTests() {
				switch runSyntaxTest(t, tc) {
				case resultPass:
					passed++
				case resultFail:
					failed++
				default:
					skipped++
				}
			}
			fmt.Printf("%s: %d passed, %d failed, %d skipped\n", c.name, passed, failed, skipped)
			if passed == 0 {
				t.Errorf("no test of %s ran", c.manifest)
			}
		})
	}
}

type result int

const (
	resultSkip result = iota
	resultPass
	resultFail
)

// runSyntaxTest runs one manifest entry and reports failures through t.
func runSyntaxTest(t *testing.T, tc *w3c.Test) result {
	t.Helper()
	if tc.Approval == w3c.DAWGT+"NotApproved" {
		return resultSkip
	}
	var file w3c.Node
	negative := false
	switch name := tc.TypeName(); {
	case strings.HasPrefix(name, "PositiveSyntaxTest"):
		file = tc.Action
	case strings.HasPrefix(name, "NegativeSyntaxTest"):
		file, negative = tc.Action, true
	default:
		// Evaluation and result-format tests: their query must parse.
		file = tc.Action.Get(w3c.QT + "query")
	}
	path := file.Path()
	if path == "" {
		return resultSkip
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%s: %v", tc.IRI(), err)
		return resultFail
	}
	q, err := syntax.Parse(string(src), syntax.Options{Base: tc.Manifest.Base(file)})
	switch {
	case negative && err == nil:
		t.Errorf("%s (%s): negative syntax test parsed without error", tc.Name, path)
		return resultFail
	case negative:
		return resultPass
	case err != nil:
		t.Errorf("%s (%s): %v", tc.Name, path, err)
		return resultFail
	}
	if s := algebra.String(algebra.Translate(q).Op); s == "" {
		t.Errorf("%s (%s): empty algebra", tc.Name, path)
		return resultFail
	}
	return resultPass
}
