package backend_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/tuitest"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/endpoint"
	"github.com/mneme-archive/mneme/sparql/parse"
	"github.com/mneme-archive/mneme/sparql/results"
	"github.com/mneme-archive/mneme/tui/backend"
)

const (
	selectCaptures = `SELECT ?c ?u WHERE { ?c <https://w3id.org/mneme#url> ?u } ORDER BY ?c`
	askPost        = `ASK { ?p a <http://rdfs.org/sioc/ns#Post> }`
	constructTitle = `CONSTRUCT { ?p <urn:title> ?t } WHERE { ?p <http://purl.org/dc/terms/title> ?t }`
	slowCount      = `SELECT (COUNT(*) AS ?n) { ?a <urn:example:p> ?x . ?b <urn:example:p> ?y . ?c <urn:example:p> ?z }`
)

func read(t *testing.T, b backend.Backend, q string) *results.Results {
	t.Helper()
	rows, err := b.Query(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	r := &results.Results{Vars: rows.Vars()}
	r.Boolean, r.Ask = rows.Boolean()
	for rows.Next() {
		r.Rows = append(r.Rows, append([]rdf.Term(nil), rows.Row()...))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestEmbeddedForms(t *testing.T) {
	b := tuitest.Backend(t, 0)
	sel := read(t, b, selectCaptures)
	if len(sel.Rows) != 4 || sel.Rows[0][0].Value != "urn:uuid:c1" || sel.Rows[0][1].Value != "http://blog.example/" {
		t.Errorf("SELECT: %v", sel.Rows)
	}
	if ask := read(t, b, askPost); !ask.Ask || !ask.Boolean || len(ask.Rows) != 0 {
		t.Errorf("ASK: %+v", ask)
	}
	con := read(t, b, constructTitle)
	if strings.Join(con.Vars, " ") != "subject predicate object" || len(con.Rows) != 2 || con.Rows[0][1].Value != "urn:title" {
		t.Errorf("CONSTRUCT: %v %v", con.Vars, con.Rows)
	}
	_, err := b.Query(context.Background(), "SELECT ?x WHERE {\n  ?x ?y \n}")
	var se *parse.Error
	if !errors.As(err, &se) || se.Line != 3 || se.Col != 1 {
		t.Errorf("syntax error %v, want one at 3:1", err)
	}
}

func TestEmbeddedCloseCancelsRunningQueries(t *testing.T) {
	b, err := tuitest.OpenEmbedded(tuitest.Store(t, 2000))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := b.Query(context.Background(), slowCount)
	if err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() {
		for rows.Next() {
		}
		ended <- rows.Err()
		rows.Close()
	}()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Errorf("the running query ended with %v, want context.Canceled", err)
	}
	if _, err := b.Query(context.Background(), askPost); err == nil {
		t.Error("a query after Close succeeded")
	}
}

func TestOpenEmbeddedMissingStore(t *testing.T) {
	_, err := tuitest.OpenEmbedded(t.TempDir() + "/nothing")
	if err == nil || !strings.Contains(err.Error(), "mneme demo") {
		t.Errorf("error %v, want advice to run mneme demo", err)
	}
}

// endpointServer serves the fixture archive on loopback through the real
// SPARQL endpoint (sparql/endpoint) at /sparql, counting the requests. It
// reads its own copy of the archive, so that the embedded backend the
// test compares with keeps its store to itself.
func endpointServer(t *testing.T, hits *atomic.Int32) string {
	st, err := graph.Open(tuitest.Store(t, 0), graph.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	h := endpoint.New(st, endpoint.Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	mux := http.NewServeMux()
	mux.Handle("/sparql", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		h.ServeHTTP(w, r)
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() {
		srv.Close()
		st.Close()
	})
	return fmt.Sprintf("http://%s", ln.Addr())
}

func TestHTTPMatchesEmbedded(t *testing.T) {
	local := tuitest.Backend(t, 0)
	var hits atomic.Int32
	remote, err := backend.NewHTTP(endpointServer(t, &hits))
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	if !strings.HasSuffix(remote.Name(), "/sparql") {
		t.Errorf("endpoint %q, want the server's /sparql", remote.Name())
	}
	for _, q := range []string{selectCaptures, askPost, constructTitle} {
		want, got := read(t, local, q), read(t, remote, q)
		if want.Ask != got.Ask || want.Boolean != got.Boolean {
			t.Errorf("%s: ASK %v/%v over HTTP, %v/%v locally", q, got.Ask, got.Boolean, want.Ask, want.Boolean)
		}
		if err := results.Equivalent(want, got, results.CompareOptions{Ordered: true}); err != nil {
			t.Errorf("%s over HTTP: %v", q, err)
		}
	}

	// A syntax error is found before anything is sent, with its position.
	before := hits.Load()
	_, err = remote.Query(context.Background(), "SELECT * WHERE { ?s ?p }")
	var se *parse.Error
	if !errors.As(err, &se) || se.Line != 1 || se.Col != 24 {
		t.Errorf("syntax error %v, want one at 1:24", err)
	}
	if hits.Load() != before {
		t.Error("a query with a syntax error was sent")
	}
	// The server's refusal comes back with its status and message: the
	// endpoint answers from its own store only.
	_, err = remote.Query(context.Background(), "SELECT * WHERE { SERVICE <http://127.0.0.1:1/> { ?s ?p ?o } }")
	if err == nil || !strings.Contains(err.Error(), "501 Not Implemented") || !strings.Contains(err.Error(), "SERVICE") {
		t.Errorf("server error %v, want its status and message", err)
	}
}

func TestNewHTTPRejectsBadURLs(t *testing.T) {
	for _, u := range []string{"127.0.0.1:7878", "ftp://host/", "http://", "://"} {
		if _, err := backend.NewHTTP(u); err == nil {
			t.Errorf("%q accepted", u)
		}
	}
	h, err := backend.NewHTTP("http://127.0.0.1:7878/custom/endpoint")
	if err != nil || h.Name() != "http://127.0.0.1:7878/custom/endpoint" {
		t.Errorf("an endpoint URL with a path: %v %v", h, err)
	}
}
