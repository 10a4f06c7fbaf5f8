package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/internal/w3c"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/jsonld"
	"github.com/mneme-archive/mneme/rdf/ntriples"
	"github.com/mneme-archive/mneme/sparql/results"
)

// queryData has the term kinds a client must get right: language tags,
// typed literals, escapes, blank nodes, a long literal.
const queryData = `<http://e.org/alice> <http://e.org/name> "Alice \"Al\" Smith"@en .
<http://e.org/alice> <http://e.org/age> "42"^^<http://www.w3.org/2001/XMLSchema#integer> .
<http://e.org/alice> <http://e.org/knows> <http://e.org/bob> .
<http://e.org/alice> <http://e.org/knows> _:carol .
<http://e.org/bob> <http://e.org/name> "Bob\nsecond line" .
<http://e.org/bob> <http://e.org/born> "1990-05-01"^^<http://www.w3.org/2001/XMLSchema#date> .
_:carol <http://e.org/name> "Carol ü 😀"@de-CH .
_:carol <http://e.org/score> "2.5E0"^^<http://www.w3.org/2001/XMLSchema#double> .
`

var clientQueries = []string{
	`SELECT ?who ?name ?age WHERE { ?who <http://e.org/name> ?name OPTIONAL { ?who <http://e.org/age> ?age } }`,
	`SELECT ?a ?b WHERE { ?a <http://e.org/knows> ?b } ORDER BY ?b`,
	`SELECT (COUNT(*) AS ?n) (MAX(?s) AS ?top) WHERE { ?x ?p ?o OPTIONAL { ?x <http://e.org/score> ?s } }`,
	`ASK { <http://e.org/alice> <http://e.org/knows> <http://e.org/bob> }`,
	`ASK { <http://e.org/bob> <http://e.org/knows> ?x }`,
	`CONSTRUCT { ?b <http://e.org/knownBy> ?a . ?b <http://e.org/label> ?n } WHERE { ?a <http://e.org/knows> ?b OPTIONAL { ?b <http://e.org/name> ?n } }`,
	`DESCRIBE <http://e.org/bob>`,
}

// rdflibPython finds a python3 that imports rdflib and SPARQLWrapper
// (Debian python3-rdflib); "" when there is none.
func rdflibPython() string {
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-c", "import rdflib, SPARQLWrapper").Run() == nil {
			return py
		}
	}
	return ""
}

// syncBuffer collects a server's stderr while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var servingRE = regexp.MustCompile(`at (http://\S+/sparql)`)

// startServe runs mneme serve on a free loopback port and returns its
// endpoint URL; the server stops, and must exit 0, when the test ends.
func startServe(t *testing.T, store string, flags ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var errOut syncBuffer
	exited := make(chan int, 1)
	args := []string{"serve", "--addr", "127.0.0.1:0"}
	if store != "" {
		args = append(args, "--store", store)
	}
	args = append(args, flags...)
	go func() { exited <- run(ctx, args, strings.NewReader(""), io.Discard, &errOut) }()
	t.Cleanup(func() {
		cancel()
		if code := <-exited; code != 0 {
			t.Errorf("mneme serve exited %d: %s", code, errOut.String())
		}
	})
	for range 500 {
		if m := servingRE.FindStringSubmatch(errOut.String()); m != nil {
			return m[1]
		}
		select {
		case code := <-exited:
			t.Fatalf("mneme serve exited %d: %s", code, errOut.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("mneme serve did not start: %s", errOut.String())
	return ""
}

func loadStore(t *testing.T, data string) string {
	t.Helper()
	store := filepath.Join(t.TempDir(), "store")
	mustRun(t, "load", "--store", store, writeFile(t, "data.nt", data))
	return store
}

// clientTerm is a term as sparql_client.py prints it.
type clientTerm struct {
	Type, Value, Lang, Datatype string
}

func (c *clientTerm) term() rdf.Term {
	switch {
	case c == nil:
		return rdf.Term{}
	case c.Type == "uri":
		return rdf.IRI(c.Value)
	case c.Type == "bnode":
		return rdf.Blank("c" + c.Value)
	case c.Lang != "":
		return rdf.LangLiteral(c.Value, c.Lang)
	case c.Datatype == "":
		return rdf.Literal(c.Value, rdf.XSDString)
	}
	return rdf.Literal(c.Value, c.Datatype)
}

type clientAnswer struct {
	Vars    []string
	Rows    [][]*clientTerm
	Boolean *bool
	Triples [][3]*clientTerm
}

// TestThirdPartyClientsMatchCLI queries mneme serve with rdflib's
// SPARQLStore and with SPARQLWrapper, and compares every answer with
// mneme query's on the same store.
func TestThirdPartyClientsMatchCLI(t *testing.T) {
	py := rdflibPython()
	if py == "" {
		t.Skip("python3-rdflib is not installed (apt-get install python3-rdflib; .ci/install-sparql-client.sh)")
	}
	store := loadStore(t, queryData)
	// The CLI answers first: a store is open in one process at a time.
	cli := map[string]string{}
	for _, query := range clientQueries {
		format := "json"
		if isGraphQuery(query) {
			format = "ntriples"
		}
		cli[query] = mustRun(t, "query", "--store", store, "--format", format, query)
	}
	type request struct {
		Client string `json:"client"`
		Query  string `json:"query"`
	}
	var reqs []request
	for _, query := range clientQueries {
		reqs = append(reqs, request{"sparqlwrapper", query})
		if !isGraphQuery(query) { // rdflib 6's SPARQLStore asks graphs as RDF/XML only
			reqs = append(reqs, request{"rdflib", query})
		}
	}
	in, err := json.Marshal(reqs)
	if err != nil {
		t.Fatal(err)
	}
	endpoint := startServe(t, store)
	cmd := exec.Command(py, filepath.Join("testdata", "sparql_client.py"), endpoint)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sparql_client.py: %v\n%s", err, stderr.String())
	}
	var answers []clientAnswer
	if err := json.Unmarshal(out, &answers); err != nil || len(answers) != len(reqs) {
		t.Fatalf("sparql_client.py printed %d answers for %d requests (%v): %s", len(answers), len(reqs), err, out)
	}
	for i, r := range reqs {
		name := r.Client + ": " + r.Query
		if isGraphQuery(r.Query) {
			compareGraphs(t, name, cli[r.Query], answers[i])
		} else {
			compareResults(t, name, cli[r.Query], answers[i])
		}
	}
}

func isGraphQuery(q string) bool {
	return strings.HasPrefix(q, "CONSTRUCT") || strings.HasPrefix(q, "DESCRIBE")
}

func compareResults(t *testing.T, name, cli string, got clientAnswer) {
	t.Helper()
	want, err := results.ReadJSON(strings.NewReader(cli), "mneme query")
	if err != nil {
		t.Fatal(err)
	}
	res := &results.Results{Vars: got.Vars}
	if got.Boolean != nil {
		res.Ask, res.Boolean = true, *got.Boolean
	}
	for _, row := range got.Rows {
		terms := make([]rdf.Term, len(row))
		for i, c := range row {
			terms[i] = c.term()
		}
		res.Rows = append(res.Rows, terms)
	}
	if !want.Ask && len(want.Rows) == 0 {
		t.Fatalf("%s: mneme query found nothing; the test data must give each query answers", name)
	}
	if err := results.Equivalent(want, res, results.CompareOptions{ValueLiterals: true}); err != nil {
		t.Errorf("%s: %v", name, err)
	}
}

func compareGraphs(t *testing.T, name, cli string, got clientAnswer) {
	t.Helper()
	want, err := w3c.Collect(ntriples.NewReader(strings.NewReader(cli), rdf.ParseOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	var have []rdf.Quad
	for _, tr := range got.Triples {
		have = append(have, rdf.Quad{S: tr[0].term(), P: tr[1].term(), O: tr[2].term()})
	}
	if len(want) == 0 {
		t.Fatalf("%s: mneme query found nothing", name)
	}
	if !rdf.Isomorphic(want, have) {
		t.Errorf("%s: graphs differ\nmneme query:\n%s\nclient: %v", name, cli, have)
	}
}

// slowCLIQuery is a cross product that only ends by timeout.
const slowCLIQuery = `SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f }`

func TestQueryTimeout(t *testing.T) {
	store := loadStore(t, writeSyntheticNTText(3000))
	start := time.Now()
	code, out, errOut := mneme(t, "", "query", "--store", store, "--timeout", "200ms", slowCLIQuery)
	elapsed := time.Since(start)
	if code != 1 || !strings.Contains(errOut, "query timed out after 200ms") {
		t.Fatalf("exit %d, out %q, err %q; want exit 1 and a timeout message", code, out, errOut)
	}
	t.Logf("mneme query --timeout 200ms returned after %v (overshoot %v, store open included)", elapsed, elapsed-200*time.Millisecond)

	endpoint := startServe(t, store, "--timeout", "200ms")
	start = time.Now()
	resp, err := http.Get(endpoint + "?query=" + url.QueryEscape(slowCLIQuery))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	elapsed = time.Since(start)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "timed out") {
		t.Fatalf("serve: %s %q, want 503 timed out", resp.Status, body)
	}
	t.Logf("mneme serve --timeout 200ms answered 503 after %v (overshoot %v)", elapsed, elapsed-200*time.Millisecond)
	// startServe's cleanup then needs a clean shutdown, which waits for
	// every handler: the timed-out query must have let go of its snapshot.
}

// writeSyntheticNTText is n triples as N-Triples text.
func writeSyntheticNTText(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "<http://e.org/s%d> <http://e.org/p%d> \"v%d\" .\n", i/4, i%4, i)
	}
	return b.String()
}

func TestQueryOutputs(t *testing.T) {
	store := loadStore(t, queryData)
	table := mustRun(t, "query", "--store", store, "--format", "table",
		`SELECT ?who ?age WHERE { ?who <http://e.org/name> ?n OPTIONAL { ?who <http://e.org/age> ?age } } ORDER BY ?age`)
	lines := strings.Split(strings.TrimSuffix(table, "\n"), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "?who") || !strings.HasPrefix(lines[1], "---") || lines[5] != "(3 rows)" ||
		strings.Join(strings.Fields(lines[4]), " ") != "<http://e.org/alice> 42" {
		t.Errorf("table:\n%s", table)
	}
	col := strings.Index(lines[0], "?age")
	for _, l := range lines[2:5] {
		if len(l) > col && l[col-1] != ' ' {
			t.Errorf("column ?age not aligned at %d:\n%s", col, table)
		}
	}
	if out := mustRun(t, "query", "--store", store, "--format", "table", `ASK { ?s ?p ?o }`); out != "true\n" {
		t.Errorf("ASK table: %q", out)
	}
	q := writeFile(t, "q.rq", "SELECT ?n WHERE { <http://e.org/bob> <http://e.org/name> ?n }")
	if out := mustRun(t, "query", "--store", store, "--format", "csv", "@"+q); out != "n\r\n\"Bob\nsecond line\"\r\n" {
		t.Errorf("csv from @file: %q", out)
	}
	code, out, _ := mneme(t, "SELECT ?n WHERE { ?x <http://e.org/score> ?n }", "query", "--store", store, "-")
	if code != 0 || out != "?n\n2.5E0\n" {
		t.Errorf("tsv from stdin: exit %d, %q", code, out)
	}
	ttl := mustRun(t, "query", "--store", store, "PREFIX e: <http://e.org/> CONSTRUCT { ?a e:friend ?b } WHERE { ?a e:knows ?b }")
	// Alice's two friends come in the order of their IDs, and the blank
	// node's ID changes from load to load.
	if !strings.Contains(ttl, "@prefix e: <http://e.org/>") || !strings.Contains(ttl, "e:alice e:friend ") || !strings.Contains(ttl, " e:bob") {
		t.Errorf("CONSTRUCT as Turtle with the query's prefixes:\n%s", ttl)
	}
	// JSON-LD reads back as the graph N-Triples gives.
	const construct = "CONSTRUCT { ?a <http://e.org/friend> ?b . ?b <http://e.org/called> ?n } WHERE { ?a <http://e.org/knows> ?b . ?b <http://e.org/name> ?n }"
	nt, err := w3c.Collect(ntriples.NewReader(strings.NewReader(mustRun(t, "query", "--store", store, "--format", "ntriples", construct)), rdf.ParseOptions{}))
	if err != nil || len(nt) == 0 {
		t.Fatalf("CONSTRUCT as N-Triples: %d triples, %v", len(nt), err)
	}
	doc := mustRun(t, "query", "--store", store, "--format", "jsonld", construct)
	if ld, err := jsonld.Parse(strings.NewReader(doc)); err != nil || !rdf.Isomorphic(ld, nt) {
		t.Errorf("CONSTRUCT as JSON-LD (%v):\n%s", err, doc)
	}
	explain := mustRun(t, "query", "--store", store, "--explain",
		`SELECT * WHERE { ?a <http://e.org/knows> ?b . ?b <http://e.org/name> ?n }`)
	if !strings.Contains(explain, "est=") || !strings.Contains(explain, "rows=2") {
		t.Errorf("explain:\n%s", explain)
	}
}

func TestQueryErrors(t *testing.T) {
	store := loadStore(t, queryData)
	q := writeFile(t, "bad.rq", "SELECT *\nWHERE { ?s ?p }")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"query", "--store", store, "@" + q}, 1, "bad.rq:2:"},
		{[]string{"query", "--store", store, "SELECT * { SERVICE <http://e.org/s> { ?s ?p ?o } }"}, 1, "SERVICE"},
		{[]string{"query", "--store", filepath.Join(t.TempDir(), "none"), "ASK {}"}, 1, "store"},
		{[]string{"query", "ASK {}"}, 2, "--store"},
		{[]string{"query", "--store", store}, 2, "arg"},
		{[]string{"query", "--store", store, "--format", "turtle", "ASK {}"}, 2, "--format"},
		{[]string{"query", "--store", store, "--format", "csv", "CONSTRUCT WHERE { ?s ?p ?o }"}, 2, "--format"},
		{[]string{"serve", "--store", store, "--addr", "0.0.0.0:7878"}, 2, "--allow-remote"},
		{[]string{"serve", "--store", store, "--addr", "nonsense"}, 2, "--addr"},
	} {
		code, _, errOut := mneme(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("mneme %s: exit %d %q, want %d with %q", strings.Join(tc.args, " "), code, errOut, tc.code, tc.msg)
		}
	}
}
