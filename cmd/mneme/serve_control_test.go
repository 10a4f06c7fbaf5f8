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

	"github.com/mneme-archive/mneme/control/api"
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
	anon := &api.Client{Base: strings.TrimSuffix(sparql, "/sparql")}
	var ae *api.APIError
	if _, err := anon.Create(context.Background(), []byte("seeds: ["+site.URL+"/a]")); !errors.As(err, &ae) || ae.Code != 401 {
		t.Fatalf("create without a token: %v, want 401", err)
	}
	if last := controlCrawl(t, sparql, data, site.URL+"/a"); last.Fetched < 2 {
		t.Fatalf("crawl ended %+v", last)
	}
	if n := sparqlCount(t, sparql, `SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s <`+ontology.URL+`> ?u } }`); n < 2 {
		t.Errorf("captures in the store by SPARQL: %d, want at least 2", n)
	}
}

// TestServeControlKB checks that the control API's crawls detect
// applications with the knowledge base given to mneme serve --kb: a site
// only that file's type names is crawled as that application, and its
// posts are stored as objects with the fields the file extracts; served
// without --kb, the same crawl stores no post.
func TestServeControlKB(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" && r.URL.Path != "/p1" && r.URL.Path != "/p2" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<html><head><meta name="generator" content="Quillpad 2"></head><body>
<a href="/p1">one</a> <a href="/p2">two</a><div class="qp-post"><h2 class="qp-title">Title of %s</h2>
<p class="qp-text">Text of %s</p></div></body></html>`, r.URL.Path, r.URL.Path)
	}))
	defer site.Close()
	kbFile := filepath.Join(t.TempDir(), "quillpad.yaml")
	if err := os.WriteFile(kbFile, []byte(`type: quillpad
name: Quillpad
category: blog
detect:
  - //meta[@name='generator'][starts-with(@content, 'Quillpad')]
levels:
  - name: post
    kind: terminal
    detect:
      - //div[@class='qp-post']
    navigate:
      - select: //a/@href
        target: post
    extract:
      - object: blog-post
        records: //div[@class='qp-post']
        fields:
          title: .//h2[@class='qp-title']
          content: .//p[@class='qp-text']
`), 0o644); err != nil {
		t.Fatal(err)
	}
	titles := `SELECT (COUNT(DISTINCT ?t) AS ?n) WHERE { GRAPH ?g { ?p <` + ontology.DCTermsTitle + `> ?t FILTER(STRSTARTS(?t, "Title of")) } }`
	data := t.TempDir()
	sparql := startServe(t, "", "--data", data, "--kb", kbFile)
	controlCrawl(t, sparql, data, site.URL+"/")
	if n := sparqlCount(t, sparql, titles); n != 3 {
		t.Errorf("post titles stored with --kb: %d, want 3", n)
	}
	plain := t.TempDir()
	sparql = startServe(t, "", "--data", plain)
	controlCrawl(t, sparql, plain, site.URL+"/")
	if n := sparqlCount(t, sparql, titles); n != 0 {
		t.Errorf("post titles stored with the built-in KB: %d, want 0", n)
	}
	if code, _, errOut := mneme(t, "", "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--kb", filepath.Join(t.TempDir(), "none.yaml")); code == 0 || !strings.Contains(errOut, "none.yaml") {
		t.Errorf("serve with a missing --kb file: exit %d, %q; want an error naming the file", code, errOut)
	}
}

// controlCrawl crawls seed through the control API of the mneme serve
// --data data at sparql, to its end, and returns its last status.
func controlCrawl(t *testing.T, sparql, data, seed string) api.Status {
	t.Helper()
	tok, err := os.ReadFile(filepath.Join(data, "token"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c := &api.Client{Base: strings.TrimSuffix(sparql, "/sparql"), Token: strings.TrimSpace(string(tok))}
	spec := fmt.Sprintf("id: s1\npoliteness: {off: true}\nseeds: [%s]\n", seed)
	if _, err := c.Create(ctx, []byte(spec)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(ctx, "s1", "start"); err != nil {
		t.Fatal(err)
	}
	var last api.Status
	if err := c.Events(ctx, "s1", func(s api.Status, end bool) error { last = s; return nil }); err != nil {
		t.Fatal(err)
	}
	if last.State != "finished" {
		t.Fatalf("crawl ended %+v", last)
	}
	return last
}

// sparqlCount runs a query selecting one number ?n at endpoint sparql.
func sparqlCount(t *testing.T, sparql, query string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", sparql+"?"+url.Values{"query": {query}}.Encode(), nil)
	req.Header.Set("Accept", "text/csv")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var n int
	if _, err := fmt.Fscanf(resp.Body, "n\r\n%d", &n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}
