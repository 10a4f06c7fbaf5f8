package endpoint

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/w3c"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/jsonld"
	"github.com/mneme-archive/mneme/rdf/rdfio"
	"github.com/mneme-archive/mneme/sparql"
	"github.com/mneme-archive/mneme/sparql/results"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

const ex = "http://example.org/"

// tempStore opens an empty store that closes when the test ends.
func tempStore(t *testing.T) *graph.Store {
	t.Helper()
	s, err := graph.Open(t.TempDir(), graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// newStore makes a store with people, their ages, friendships and
// enough filler triples that a three-way cross product runs for minutes.
func newStore(t *testing.T) *graph.Store {
	t.Helper()
	s := tempStore(t)
	b := s.NewBatch()
	for i := range 5 {
		p := rdf.IRI(fmt.Sprintf("%sperson/%d", ex, i))
		b.Add(rdf.Quad{S: p, P: rdf.IRI(ex + "name"), O: rdf.LangLiteral(fmt.Sprintf("Person \"%d\", the %dth", i, i), "en")})
		b.Add(rdf.Quad{S: p, P: rdf.IRI(ex + "age"), O: rdf.Literal(fmt.Sprint(20+i), rdf.XSDInteger)})
		b.Add(rdf.Quad{S: p, P: rdf.IRI(ex + "knows"), O: rdf.IRI(fmt.Sprintf("%sperson/%d", ex, (i+1)%5))})
	}
	b.Add(rdf.Quad{S: rdf.Blank("b1"), P: rdf.IRI(ex + "note"), O: rdf.Literal("tab\there, line\nbreak", rdf.XSDString)})
	for i := range 3000 {
		b.Add(rdf.Quad{S: rdf.IRI(fmt.Sprintf("%sfiller/%d", ex, i)), P: rdf.IRI(ex + "filler"), O: rdf.Literal(fmt.Sprint(i), rdf.XSDInteger)})
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// slowQuery is a cross product of 27 billion rows: it only ends by
// timeout or cancellation.
const slowQuery = `SELECT (COUNT(*) AS ?n) WHERE { ?a <http://example.org/filler> ?x . ?b <http://example.org/filler> ?y . ?c <http://example.org/filler> ?z }`

const selectQuery = `PREFIX ex: <http://example.org/>
SELECT ?p ?name ?age ?note WHERE { { ?p ex:name ?name ; ex:age ?age } UNION { ?p ex:note ?note } }`

// local runs a query through the library, as the reference answer.
func local(t *testing.T, s *graph.Store, query string) *results.Results {
	t.Helper()
	q, err := sparql.Prepare(query, sparql.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := q.Exec(context.Background(), s.View)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	out := &results.Results{Vars: res.Vars}
	if res.Form == syntax.Ask {
		out.Ask, out.Boolean = true, res.Boolean()
		return out
	}
	for res.Next() {
		out.Rows = append(out.Rows, append([]rdf.Term(nil), res.Row()...))
	}
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func do(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

func get(t *testing.T, srv *httptest.Server, params url.Values, accept string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/sparql?"+params.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	return do(t, req)
}

func serve(t *testing.T, s *graph.Store, cfg Config) (*Handler, *httptest.Server) {
	h := New(s, cfg)
	mux := http.NewServeMux()
	mux.Handle("/sparql", h)
	mux.Handle("/{$}", Page("/sparql"))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return h, srv
}

func TestSelectEveryFormatAndMethod(t *testing.T) {
	s := newStore(t)
	_, srv := serve(t, s, Config{})
	want := local(t, s, selectQuery)
	if len(want.Rows) != 6 {
		t.Fatalf("reference answer has %d rows, want 6", len(want.Rows))
	}
	requests := map[string]func(accept string) *http.Request{
		"GET": func(accept string) *http.Request {
			r, _ := http.NewRequest(http.MethodGet, srv.URL+"/sparql?query="+url.QueryEscape(selectQuery), nil)
			r.Header.Set("Accept", accept)
			return r
		},
		"POST form": func(accept string) *http.Request {
			r, _ := http.NewRequest(http.MethodPost, srv.URL+"/sparql", strings.NewReader(url.Values{"query": {selectQuery}}.Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.Header.Set("Accept", accept)
			return r
		},
		"POST direct": func(accept string) *http.Request {
			r, _ := http.NewRequest(http.MethodPost, srv.URL+"/sparql", strings.NewReader(selectQuery))
			r.Header.Set("Content-Type", "application/sparql-query")
			r.Header.Set("Accept", accept)
			return r
		},
	}
	for name, mk := range requests {
		for _, f := range []results.Format{results.JSON, results.XML, results.CSV, results.TSV} {
			resp, body := do(t, mk(f.MediaType()))
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s %s: %s: %s", name, f, resp.Status, body)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, f.MediaType()) {
				t.Errorf("%s %s: Content-Type %q", name, f, ct)
			}
			got, err := results.Read(strings.NewReader(body), f, name)
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", name, f, err, body)
			}
			w := want
			if f == results.CSV { // CSV keeps only lexical forms: compare with CSV of the reference
				var buf bytes.Buffer
				if err := results.Write(&buf, results.CSV, want); err != nil {
					t.Fatal(err)
				}
				if w, err = results.ReadCSV(&buf, "want"); err != nil {
					t.Fatal(err)
				}
			}
			if err := results.Equivalent(w, got, results.CompareOptions{}); err != nil {
				t.Errorf("%s %s: %v", name, f, err)
			}
		}
	}
}

func TestAskAndConstruct(t *testing.T) {
	s := newStore(t)
	_, srv := serve(t, s, Config{})
	for q, want := range map[string]string{
		`ASK { <http://example.org/person/1> <http://example.org/age> 21 }`: "true",
		`ASK { <http://example.org/person/1> <http://example.org/age> 22 }`: "false",
	} {
		resp, body := get(t, srv, url.Values{"query": {q}}, "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %s", resp.Status, body)
		}
		got, err := results.ReadJSON(strings.NewReader(body), "ask")
		if err != nil {
			t.Fatal(err)
		}
		if !got.Ask || fmt.Sprint(got.Boolean) != want {
			t.Errorf("%s: got %s", q, body)
		}
	}

	construct := `PREFIX ex: <http://example.org/>
CONSTRUCT { ?b ex:knownBy ?a . ?a ex:label ?n } WHERE { ?a ex:knows ?b ; ex:name ?n }`
	var want []rdf.Quad
	for i := range 5 {
		a := rdf.IRI(fmt.Sprintf("%sperson/%d", ex, i))
		want = append(want,
			rdf.Quad{S: rdf.IRI(fmt.Sprintf("%sperson/%d", ex, (i+1)%5)), P: rdf.IRI(ex + "knownBy"), O: a},
			rdf.Quad{S: a, P: rdf.IRI(ex + "label"), O: rdf.LangLiteral(fmt.Sprintf("Person \"%d\", the %dth", i, i), "en")})
	}
	for _, tc := range []struct {
		accept, format string
		parse          *rdfio.Format // nil: JSON-LD
	}{
		{"", "", rdfio.Turtle},
		{"application/n-triples", "", rdfio.NTriples},
		{"text/turtle;q=0.5, application/n-triples;q=0.9", "", rdfio.NTriples},
		{"application/sparql-results+json", "turtle", rdfio.Turtle},
		{"application/ld+json", "", nil},
		{"application/json", "", nil},
		{"text/turtle", "jsonld", nil},
	} {
		params := url.Values{"query": {construct}}
		if tc.format != "" {
			params.Set("format", tc.format)
		}
		resp, body := get(t, srv, params, tc.accept)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%+v: %s: %s", tc, resp.Status, body)
		}
		ctype := jsonld.MediaType
		if tc.parse != nil {
			ctype = tc.parse.MediaType
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, ctype) {
			t.Errorf("%+v: Content-Type %q", tc, ct)
		}
		var got []rdf.Quad
		var err error
		if tc.parse == nil {
			got, err = jsonld.Parse(strings.NewReader(body))
		} else {
			got, err = w3c.Collect(tc.parse.NewReader(strings.NewReader(body), rdf.ParseOptions{}))
		}
		if err != nil {
			t.Fatalf("%+v: %v\n%s", tc, err, body)
		}
		if !rdf.Isomorphic(want, got) {
			t.Errorf("%+v: graph differs:\n%s\n%s", tc, body, rdf.IsomorphismDiff(got, want))
		}
		// Turtle abbreviates with the query's own prefixes.
		if tc.parse == rdfio.Turtle && (!strings.Contains(body, "@prefix ex: <http://example.org/>") || !strings.Contains(body, "ex:knownBy")) {
			t.Errorf("%+v: Turtle without the query's prefix ex:\n%s", tc, body)
		}
	}
}

func TestErrors(t *testing.T) {
	s := newStore(t)
	_, srv := serve(t, s, Config{})
	for _, tc := range []struct {
		method, ctype, body string
		params              url.Values
		accept              string
		status              int
		msg                 string
	}{
		{method: "GET", params: url.Values{"query": {"SELECT * WHERE {\n  ?s ?p ?o ."}}, status: 400, msg: "syntax error at line 2, column"},
		{method: "GET", params: url.Values{}, status: 400, msg: "no query"},
		{method: "GET", params: url.Values{"query": {"ASK {}", "ASK {}"}}, status: 400, msg: "exactly one"},
		{method: "GET", params: url.Values{"query": {"ASK {}"}, "timeout": {"soon"}}, status: 400, msg: "timeout"},
		{method: "GET", params: url.Values{"query": {"ASK {}"}, "default-graph-uri": {"g1"}}, status: 400, msg: "absolute IRI"},
		{method: "GET", params: url.Values{"update": {"CLEAR ALL"}}, status: 403, msg: "read-only"},
		{method: "POST", ctype: "application/sparql-update", body: "CLEAR ALL", status: 403, msg: "read-only"},
		{method: "POST", ctype: "text/plain", body: "ASK {}", status: 415, msg: "Content-Type"},
		{method: "POST", ctype: "application/sparql-query", body: strings.Repeat("#", maxQueryBytes+1), status: 400, msg: "too large"},
		{method: "POST", ctype: "application/sparql-query", body: "ASK {}", params: url.Values{"query": {"ASK {}"}}, status: 400, msg: "another in the URL"},
		{method: "PUT", params: url.Values{"query": {"ASK {}"}}, status: 405, msg: "GET or POST"},
		{method: "GET", params: url.Values{"query": {"SELECT * { SERVICE <http://example.org/sparql> { ?s ?p ?o } }"}}, status: 501, msg: "SERVICE"},
		{method: "GET", params: url.Values{"query": {"CONSTRUCT WHERE { ?s ?p ?o }"}}, accept: "application/rdf+xml", status: 406, msg: "text/turtle"},
		{method: "GET", params: url.Values{"query": {"ASK {}"}}, accept: "text/html", status: 406, msg: "application/sparql-results+json"},
	} {
		req, err := http.NewRequest(tc.method, srv.URL+"/sparql?"+tc.params.Encode(), strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		if tc.ctype != "" {
			req.Header.Set("Content-Type", tc.ctype)
		}
		if tc.accept != "" {
			req.Header.Set("Accept", tc.accept)
		}
		resp, body := do(t, req)
		if resp.StatusCode != tc.status || !strings.Contains(body, tc.msg) {
			t.Errorf("%s %v %.40q: got %s %q, want %d with %q", tc.method, tc.params, tc.body, resp.Status, body, tc.status, tc.msg)
		}
	}
}

func TestPage(t *testing.T) {
	_, srv := serve(t, newStore(t), Config{})
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/", nil)
	resp, body := do(t, req)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(body, `action="/sparql"`) {
		t.Errorf("page: %s %q", resp.Status, body)
	}
}

func TestMaxRows(t *testing.T) {
	s := newStore(t)
	_, srv := serve(t, s, Config{MaxRows: 4})
	resp, body := get(t, srv, url.Values{"query": {selectQuery}}, "text/tab-separated-values")
	got, err := results.ReadTSV(strings.NewReader(body), "tsv")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != 4 || resp.Header.Get("X-SPARQL-MaxRows") != "4" {
		t.Errorf("got %d rows, X-SPARQL-MaxRows %q; want 4 rows, header 4", len(got.Rows), resp.Header.Get("X-SPARQL-MaxRows"))
	}
}

// waitIdle waits until no query holds a slot, failing after a generous
// bound: a query that never lets go leaks its goroutine and snapshot.
func waitIdle(t *testing.T, h *Handler) {
	t.Helper()
	for i := 0; len(h.slots) > 0; i++ {
		if i > 500 {
			t.Fatalf("%d queries still running", len(h.slots))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestTimeout(t *testing.T) {
	s := newStore(t)
	h, srv := serve(t, s, Config{Timeout: time.Minute})
	start := time.Now()
	resp, body := get(t, srv, url.Values{"query": {slowQuery}, "timeout": {"0.2"}}, "")
	elapsed := time.Since(start)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "timed out after 200ms") {
		t.Fatalf("got %s %q, want 503 timed out", resp.Status, body)
	}
	t.Logf("timeout 200ms answered after %v (overshoot %v)", elapsed, elapsed-200*time.Millisecond)
	waitIdle(t, h)
}

func TestConcurrencyLimitAndClientGone(t *testing.T) {
	s := newStore(t)
	h, srv := serve(t, s, Config{MaxConcurrent: 1, Timeout: time.Minute})
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/sparql?query="+url.QueryEscape(slowQuery), nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	for len(h.slots) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	resp, body := get(t, srv, url.Values{"query": {"ASK {}"}}, "")
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "retry later") {
		t.Errorf("second query: got %s %q (Retry-After %q), want 503 with Retry-After", resp.Status, body, resp.Header.Get("Retry-After"))
	}
	cancel() // the client goes away: the query must stop and free its slot
	if err := <-done; err == nil {
		t.Error("cancelled request returned no error")
	}
	waitIdle(t, h)
	resp, body = get(t, srv, url.Values{"query": {"ASK {}"}}, "")
	if resp.StatusCode != http.StatusOK {
		t.Errorf("after the cancelled query: %s %q", resp.Status, body)
	}
	http.DefaultClient.CloseIdleConnections()
	for i := 0; runtime.NumGoroutine() > before+2; i++ {
		if i > 250 {
			t.Fatalf("goroutines: %d before, %d after", before, runtime.NumGoroutine())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestNegotiate(t *testing.T) {
	for _, tc := range []struct {
		accept string
		want   string // canonical media type, "" for none
	}{
		{"", "application/sparql-results+json"},
		{"*/*", "application/sparql-results+json"},
		{"*", "application/sparql-results+json"},
		{"text/csv", "text/csv"},
		{"application/sparql-results+xml, application/rdf+xml", "application/sparql-results+xml"},
		{"application/sparql-results+json;q=0.5, text/tab-separated-values", "text/tab-separated-values"},
		{"text/*;q=0.9, application/sparql-results+json;q=0.2", "text/csv"},
		{"text/*, text/csv;q=0", "text/tab-separated-values"},
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "application/sparql-results+xml"},
		{"image/png", ""},
	} {
		got := ""
		if f := negotiate(solutionFormats, tc.accept); f != nil {
			got = f.accepts[0]
		}
		if got != tc.want {
			t.Errorf("Accept %q: got %q, want %q", tc.accept, got, tc.want)
		}
	}
	if f := byName(graphFormats, []string{"xml", "text/plain"}); f == nil || f.accepts[0] != rdfio.NTriples.MediaType {
		t.Errorf("format=xml&format=text/plain for a graph: got %v, want N-Triples", f)
	}
	if f := byName(solutionFormats, []string{"rdf"}); f != nil {
		t.Errorf("format=rdf for solutions: got %v, want none", f)
	}
}
