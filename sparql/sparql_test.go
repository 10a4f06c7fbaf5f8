package sparql_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
)

const ex = "http://example.org/"

// openStore returns a store holding quads.
func openStore(t *testing.T, quads []rdf.Quad) *graph.Store {
	t.Helper()
	s, err := graph.Open(t.TempDir(), graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	b := s.NewBatch()
	for _, q := range quads {
		b.Add(q)
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

func iri(s string) rdf.Term { return rdf.IRI(ex + s) }

// selectAll runs a SELECT and returns its rows as strings.
func selectAll(t *testing.T, v *graph.View, query string, opts sparql.Options) []string {
	t.Helper()
	q, err := sparql.Prepare(query, opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := q.Exec(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []string
	for r.Next() {
		var parts []string
		for _, term := range r.Row() {
			parts = append(parts, term.String())
		}
		out = append(out, strings.Join(parts, " "))
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// A query past its deadline stops with the context's error, and closing
// it leaves no goroutine behind.
func TestTimeout(t *testing.T) {
	var quads []rdf.Quad
	for i := range 300 {
		quads = append(quads, rdf.Quad{S: iri(fmt.Sprint("s", i)), P: iri("p"), O: rdf.Literal(fmt.Sprint(i), rdf.XSDInteger)})
	}
	s := openStore(t, quads)
	q, err := sparql.Prepare(`SELECT * { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f }`, sparql.Options{}) // 27 million rows
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	r, err := q.Exec(ctx, s.View)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for r.Next() {
		n++
	}
	t.Logf("stopped %v after the deadline, %d rows", time.Since(deadlineOf(ctx)), n)
	if !errors.Is(r.Err(), context.DeadlineExceeded) {
		t.Fatalf("after %d rows: err = %v, want context.DeadlineExceeded", n, r.Err())
	}
	if n >= 300*300*300 {
		t.Fatalf("the query ran to the end (%d rows)", n)
	}
	r.Close()
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%d goroutines before the query, %d after closing it", before, after)
	}
}

// The default graph is the union of all graphs unless configured
// otherwise; GRAPH ?g ranges over the named graphs only.
func TestDatasets(t *testing.T) {
	s := openStore(t, []rdf.Quad{
		{S: iri("a"), P: iri("p"), O: iri("b"), G: iri("crawl1")},
		{S: iri("a"), P: iri("p"), O: iri("b"), G: iri("crawl2")},
		{S: iri("c"), P: iri("p"), O: iri("d"), G: iri("crawl2")},
		{S: iri("e"), P: iri("p"), O: iri("f")},
	})
	union := selectAll(t, s.View, `SELECT ?s { ?s <http://example.org/p> ?o } ORDER BY ?s`, sparql.Options{})
	if want := []string{"<http://example.org/a>", "<http://example.org/c>", "<http://example.org/e>"}; strings.Join(union, ",") != strings.Join(want, ",") {
		t.Errorf("union default graph: got %v, want %v (each triple once)", union, want)
	}
	own := selectAll(t, s.View, `SELECT ?s { ?s ?p ?o }`, sparql.Options{DefaultGraph: sparql.StoreDefaultGraph})
	if len(own) != 1 || own[0] != "<http://example.org/e>" {
		t.Errorf("store default graph: got %v", own)
	}
	named := selectAll(t, s.View, `SELECT ?g (COUNT(*) AS ?n) { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ORDER BY ?g`, sparql.Options{})
	want := []string{
		`<http://example.org/crawl1> "1"^^<http://www.w3.org/2001/XMLSchema#integer>`,
		`<http://example.org/crawl2> "2"^^<http://www.w3.org/2001/XMLSchema#integer>`,
	}
	if strings.Join(named, "\n") != strings.Join(want, "\n") {
		t.Errorf("GRAPH ?g: got %v, want %v", named, want)
	}
	from := selectAll(t, s.View, `SELECT ?s FROM <http://example.org/crawl1> { ?s ?p ?o }`, sparql.Options{})
	if len(from) != 1 || from[0] != "<http://example.org/a>" {
		t.Errorf("FROM: got %v", from)
	}
}

// Explain shows the chosen join order with estimated and actual rows:
// the selective pattern (one subject of class C) runs first.
func TestExplain(t *testing.T) {
	var quads []rdf.Quad
	for i := range 200 {
		quads = append(quads, rdf.Quad{S: iri(fmt.Sprint("x", i)), P: iri("name"), O: rdf.String(fmt.Sprint("n", i))})
	}
	quads = append(quads, rdf.Quad{S: iri("x7"), P: iri("type"), O: iri("C")})
	s := openStore(t, quads)
	q, err := sparql.Prepare(`SELECT ?n { ?x <http://example.org/name> ?n . ?x <http://example.org/type> <http://example.org/C> }`, sparql.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := q.Explain(context.Background(), s.View, true)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	first := slicesIndex(lines, "<http://example.org/type>")
	second := slicesIndex(lines, "<http://example.org/name>")
	if first < 0 || second < 0 || first > second {
		t.Errorf("the type pattern should run first:\n%s", out)
	}
	if !strings.Contains(out, "est=1 rows=1 bind #2") {
		t.Errorf("the join step should show est=1 rows=1:\n%s", out)
	}
}

func slicesIndex(lines []string, sub string) int {
	for i, l := range lines {
		if strings.Contains(l, sub) {
			return i
		}
	}
	return -1
}

func deadlineOf(ctx context.Context) time.Time { d, _ := ctx.Deadline(); return d }
