package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler/control"
	"github.com/mneme-archive/mneme/ontology"
)

// TestServeControlAPI runs a crawl through mneme serve --data and queries
// what it stored through the same server's SPARQL endpoint: one store,
// opened once, shared by both.
func TestServeControlAPI(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/a" && r.URL.Path != "/b" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><body><a href="/b">b</a></body></html>`)
	}))
	defer site.Close()
	data := t.TempDir()
	sparql := startServe(t, "", "--data", data)
	tok, err := os.ReadFile(filepath.Join(data, "token"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	anon := &control.Client{Base: strings.TrimSuffix(sparql, "/sparql")}
	var ae *control.APIError
	if _, err := anon.Create(ctx, []byte("seeds: ["+site.URL+"/a]")); !errors.As(err, &ae) || ae.Code != 401 {
		t.Fatalf("create without a token: %v, want 401", err)
	}
	c := &control.Client{Base: anon.Base, Token: strings.TrimSpace(string(tok))}
	spec := fmt.Sprintf("id: s1\npoliteness: {off: true}\nseeds: [%s/a]\n", site.URL)
	if _, err := c.Create(ctx, []byte(spec)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(ctx, "s1", "start"); err != nil {
		t.Fatal(err)
	}
	var last control.Status
	if err := c.Events(ctx, "s1", func(s control.Status, end bool) error { last = s; return nil }); err != nil {
		t.Fatal(err)
	}
	if last.State != "finished" || last.Fetched < 2 {
		t.Fatalf("crawl ended %+v", last)
	}
	q := url.Values{"query": {`SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s <` + ontology.URL + `> ?u } }`}}
	req, _ := http.NewRequest("GET", sparql+"?"+q.Encode(), nil)
	req.Header.Set("Accept", "text/csv")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var n int
	if _, err := fmt.Fscanf(resp.Body, "n\r\n%d", &n); err != nil || n < 2 {
		t.Errorf("captures in the store by SPARQL: %d, %v; want at least 2", n, err)
	}
}
