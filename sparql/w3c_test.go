package sparql_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/internal/w3c"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/rdfio"
	"github.com/mneme-archive/mneme/sparql"
	"github.com/mneme-archive/mneme/sparql/results"
	"github.com/mneme-archive/mneme/sparql/results/resultstest"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

type outcome int

const (
	pass outcome = iota
	fail
	skip
)

// tally counts outcomes per category (the test's directory).
type tally struct {
	counts  map[string]*[3]int
	skipped []string
}

func (t *tally) add(cat string, o outcome) {
	if t.counts[cat] == nil {
		t.counts[cat] = &[3]int{}
	}
	t.counts[cat][o]++
}

func (t *tally) print(suite string) (total [3]int) {
	cats := make([]string, 0, len(t.counts))
	for c := range t.counts {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	for _, c := range cats {
		n := t.counts[c]
		fmt.Printf("%s %s: %d passed, %d failed, %d skipped\n", suite, c, n[pass], n[fail], n[skip])
		for i := range total {
			total[i] += n[i]
		}
	}
	fmt.Printf("%s total: %d passed, %d failed, %d skipped\n", suite, total[pass], total[fail], total[skip])
	for _, s := range t.skipped {
		fmt.Printf("  skipped %s\n", s)
	}
	return total
}

// TestW3C runs the W3C SPARQL 1.0 (data-r2) and SPARQL 1.1 query
// evaluation and syntax tests against a real store, one fresh store per
// evaluation test, and prints the counts per category.
func TestW3C(t *testing.T) { runW3C(t, 0) }

// TestW3CSpilling runs the evaluation tests again with a memory bound of
// one row, so that every ORDER BY, DISTINCT and GROUP BY spills to disk
// and every hash join falls back to index lookups: the answers must not
// change.
func TestW3CSpilling(t *testing.T) { runW3C(t, 1) }

func runW3C(t *testing.T, maxRows int) {
	root := testenv.Path(t, "data", "rdf-tests", "sparql")
	suites := []struct{ name, manifest string }{
		{"sparql10", "sparql10/manifest-evaluation.ttl"},
		{"sparql10", "sparql10/manifest-syntax.ttl"},
		{"sparql11", "sparql11/manifest-sparql11-query.ttl"},
		{"sparql11", "sparql11/manifest-sparql11-results.ttl"},
	}
	tallies := map[string]*tally{}
	for _, s := range suites {
		m, err := w3c.Load(filepath.Join(root, s.manifest))
		if err != nil {
			t.Fatal(err)
		}
		ty := tallies[s.name]
		if ty == nil {
			ty = &tally{counts: map[string]*[3]int{}}
			tallies[s.name] = ty
		}
		for _, tc := range m.AllTests() {
			cat := filepath.Base(filepath.Dir(tc.Manifest.Path))
			o, reason := runTest(t, tc, maxRows)
			ty.add(cat, o)
			if o == skip {
				ty.skipped = append(ty.skipped, fmt.Sprintf("%s/%s: %s", cat, tc.Name, reason))
			}
		}
	}
	for _, name := range []string{"sparql10", "sparql11"} {
		total := tallies[name].print(name)
		if total[pass] == 0 {
			t.Errorf("%s: no test passed", name)
		}
	}
}

func runTest(t *testing.T, tc *w3c.Test, maxRows int) (outcome, string) {
	t.Helper()
	if tc.Approval == w3c.DAWGT+"NotApproved" || tc.Approval == w3c.DAWGT+"Withdrawn" {
		return skip, "not approved (" + tc.Approval + ")"
	}
	name := tc.TypeName()
	switch {
	case strings.HasPrefix(name, "PositiveSyntaxTest"), strings.HasPrefix(name, "NegativeSyntaxTest"):
		return syntaxTest(t, tc, strings.HasPrefix(name, "Negative"))
	case name == "QueryEvaluationTest", name == "CSVResultFormatTest":
		return evalTest(t, tc, maxRows)
	}
	return skip, "test type " + name
}

func syntaxTest(t *testing.T, tc *w3c.Test, negative bool) (outcome, string) {
	src, err := os.ReadFile(tc.Action.Path())
	if err != nil {
		t.Errorf("%s: %v", tc.Name, err)
		return fail, ""
	}
	_, err = sparql.Prepare(string(src), sparql.Options{Base: tc.Manifest.Base(tc.Action)})
	switch {
	case negative && err == nil:
		t.Errorf("%s: negative syntax test accepted", tc.Name)
		return fail, ""
	case !negative && err != nil:
		t.Errorf("%s: %v", tc.Name, err)
		return fail, ""
	}
	return pass, ""
}

// localPath maps an IRI the suite uses (under the assumed test base, or
// a file: IRI) to the local file.
func localPath(m *w3c.Manifest, iri string) string {
	if m.AssumedTestBase != "" && strings.HasPrefix(iri, m.AssumedTestBase) {
		return filepath.Join(filepath.Dir(m.Path), strings.TrimPrefix(iri, m.AssumedTestBase))
	}
	return w3c.Node{Term: rdf.IRI(iri)}.Path()
}

func evalTest(t *testing.T, tc *w3c.Test, maxRows int) (outcome, string) {
	qnode := tc.Action.Get(w3c.QT + "query")
	src, err := os.ReadFile(qnode.Path())
	if err != nil {
		t.Errorf("%s: %v", tc.Name, err)
		return fail, ""
	}
	base := tc.Manifest.Base(qnode)
	// Each test's store and spill files go as soon as it ends: t.TempDir
	// would keep ~950 stores until the whole suite ends.
	dir, err := os.MkdirTemp("", "mneme-w3c-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	q, err := sparql.Prepare(string(src), sparql.Options{Base: base, DefaultGraph: sparql.StoreDefaultGraph, MaxRows: maxRows, TempDir: dir})
	if err != nil {
		t.Errorf("%s: %v", tc.Name, err)
		return fail, ""
	}
	sq, _ := syntax.Parse(string(src), syntax.Options{Base: base})
	store, err := graph.Open(filepath.Join(dir, "store"), graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	b := store.NewBatch()
	files := 0
	// Each file's blank nodes are its own: the same label in two files
	// (or one file loaded into two graphs) names different nodes.
	relabel := func(t rdf.Term) rdf.Term {
		if t.IsBlank() {
			return rdf.Blank(fmt.Sprintf("f%d_%s", files, t.Value))
		}
		return t
	}
	load := func(path, base string, g rdf.Term) error {
		files++
		in, err := rdfio.Open(path, nil, rdf.ParseOptions{Base: base})
		if err != nil {
			return err
		}
		defer in.Close()
		for {
			quad, err := in.Next()
			if err != nil {
				if err.Error() == "EOF" {
					return nil
				}
				return err
			}
			quad.S, quad.O, quad.G = relabel(quad.S), relabel(quad.O), g
			b.Add(quad)
		}
	}
	for _, d := range tc.Action.All(w3c.QT + "data") {
		if err := load(d.Path(), tc.Manifest.Base(d), rdf.Term{}); err != nil {
			t.Errorf("%s: data: %v", tc.Name, err)
			return fail, ""
		}
	}
	for _, d := range tc.Action.All(w3c.QT + "graphData") {
		if err := load(d.Path(), tc.Manifest.Base(d), rdf.IRI(tc.Manifest.Base(d))); err != nil {
			t.Errorf("%s: graph data: %v", tc.Name, err)
			return fail, ""
		}
	}
	for _, iri := range append(append([]string(nil), sq.From...), sq.FromNamed...) {
		if err := load(localPath(tc.Manifest, iri), iri, rdf.IRI(iri)); err != nil {
			t.Errorf("%s: FROM <%s>: %v", tc.Name, iri, err)
			return fail, ""
		}
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	snap := store.Snapshot()
	defer snap.Close()
	res, err := q.Exec(context.Background(), snap)
	if err != nil {
		t.Errorf("%s: %v", tc.Name, err)
		return fail, ""
	}
	defer res.Close()
	if err := compare(tc, q, sq, res); err != nil {
		t.Errorf("%s (%s): %v", tc.Name, qnode.Path(), err)
		return fail, ""
	}
	return pass, ""
}

func compare(tc *w3c.Test, q *sparql.Query, sq *syntax.Query, res *sparql.Result) error {
	want := tc.Result.Path()
	switch q.Form() {
	case syntax.Construct, syntax.Describe:
		var got []rdf.Quad
		for res.Next() {
			got = append(got, res.Triple().In(rdf.Term{}))
		}
		if err := res.Err(); err != nil {
			return err
		}
		in, err := rdfio.Open(want, nil, rdf.ParseOptions{Base: tc.Manifest.Base(tc.Result)})
		if err != nil {
			return err
		}
		defer in.Close()
		exp, err := w3c.Collect(in)
		if err != nil {
			return err
		}
		if !rdf.Isomorphic(exp, got) {
			return fmt.Errorf("graphs differ: want %d triples, got %d:\n%s", len(exp), len(got), quadsString(got))
		}
		return nil
	}
	exp, f, err := readExpected(tc, want)
	if err != nil {
		return err
	}
	got := &results.Results{Vars: res.Vars}
	if q.Form() == syntax.Ask {
		got.Ask, got.Boolean = true, res.Boolean()
	} else {
		for res.Next() {
			got.Rows = append(got.Rows, append([]rdf.Term(nil), res.Row()...))
		}
		if err := res.Err(); err != nil {
			return err
		}
	}
	if f == results.CSV {
		got = results.CSVTerms(got)
	}
	err = resultstest.Equivalent(exp, got, resultstest.CompareOptions{Ordered: len(sq.OrderBy) > 0, ValueLiterals: true})
	if err != nil && os.Getenv("W3C_DEBUG") == tc.Name {
		var b strings.Builder
		_ = results.Write(&b, results.TSV, exp)
		b.WriteString("--- got\n")
		_ = results.Write(&b, results.TSV, got)
		err = fmt.Errorf("%w\n%s", err, b.String())
	}
	return err
}

// readExpected reads an expected result set: a results document, or a
// result set in RDF.
func readExpected(tc *w3c.Test, path string) (*results.Results, results.Format, error) {
	switch filepath.Ext(path) {
	case ".ttl", ".rdf", ".nt":
		r, err := readResultGraph(path, tc.Manifest.Base(tc.Result))
		return r, results.XML, err
	}
	f, err := results.ParseFormat(filepath.Ext(path))
	if err != nil {
		return nil, f, err
	}
	file, err := os.Open(path)
	if err != nil {
		return nil, f, err
	}
	defer file.Close()
	r, err := results.Read(file, f, path)
	return r, f, err
}

func quadsString(qs []rdf.Quad) string {
	var b strings.Builder
	for _, q := range qs {
		b.WriteString(q.String())
		b.WriteByte('\n')
	}
	return b.String()
}
