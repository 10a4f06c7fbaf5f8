package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/analysis"
	"github.com/mneme-archive/mneme/analysis/gencorpus"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/sitetest"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
)

// corpusFolder makes a data folder whose store holds the crawls of a
// generated corpus.
func corpusFolder(t *testing.T, c *gencorpus.Corpus) string {
	t.Helper()
	data := t.TempDir()
	st, err := crawler.Layout{Data: data}.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := c.Write(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	return data
}

// analysisDump returns the quads of the analysis graphs of a data folder,
// sorted.
func analysisDump(t *testing.T, data string, ids ...string) string {
	t.Helper()
	st, err := graph.Open(crawler.Layout{Data: data}.Store(), graph.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var lines []string
	for _, id := range ids {
		q, err := sparql.Prepare(`SELECT ?s ?p ?o WHERE { GRAPH <`+analysis.GraphIRI(id)+`> { ?s ?p ?o } }`, sparql.Options{})
		if err != nil {
			t.Fatal(err)
		}
		v := st.Snapshot()
		res, err := q.Exec(context.Background(), v)
		if err != nil {
			t.Fatal(err)
		}
		for res.Next() {
			r := res.Row()
			lines = append(lines, rdf.Quad{S: r[0], P: r[1], O: r[2], G: rdf.IRI(analysis.GraphIRI(id))}.String())
		}
		if err := res.Err(); err != nil {
			t.Fatal(err)
		}
		res.Close()
		v.Close()
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestAnalyzeSurvivesKill SIGKILLs mneme analyze at random moments of its
// run, runs it again each time, and compares the analysis graphs with
// those of uninterrupted runs on a copy of the same archive: identical.
func TestAnalyzeSurvivesKill(t *testing.T) {
	c := gencorpus.Generate(gencorpus.Config{Seed: 11, Crawls: 2, PostsPerCrawl: 120})
	ref, crashed := corpusFolder(t, c), corpusFolder(t, c)
	ids := []string{c.Crawls[0].ID, c.Crawls[1].ID}
	var full time.Duration
	for _, id := range ids {
		t0 := time.Now()
		cmd, out := startMneme(t, "analyze", "--data", ref, "--crawl", id, "--batch", "2")
		if err := cmd.Wait(); err != nil {
			t.Fatalf("analyze %s: %v\n%s", id, err, out)
		}
		full = max(full, time.Since(t0))
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("random seed %d; an uninterrupted run takes up to %s", seed, full)
	rng := rand.New(rand.NewPCG(seed, 3))
	killed := 0
	for _, id := range ids {
		for range 3 {
			cmd, out := startMneme(t, "analyze", "--data", crashed, "--crawl", id, "--batch", "2")
			exited := make(chan struct{})
			go func() { cmd.Wait(); close(exited) }()
			select {
			case <-exited:
				t.Logf("run of %s ended before its kill: %s", id, out)
				continue
			case <-time.After(time.Duration(rng.Int64N(int64(full)))):
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			<-exited
			if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				killed++
			}
		}
		cmd, out := startMneme(t, "analyze", "--data", crashed, "--crawl", id, "--batch", "2")
		if err := cmd.Wait(); err != nil {
			t.Fatalf("final analyze %s: %v\n%s", id, err, out)
		}
	}
	if killed == 0 {
		t.Fatal("no run was killed while it ran")
	}
	a, b := analysisDump(t, ref, ids...), analysisDump(t, crashed, ids...)
	if a == "" || a != b {
		la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
		t.Fatalf("after %d kills the analysis graphs differ from uninterrupted runs' (%d and %d quads)", killed, len(lb), len(la))
	}
	t.Logf("%d kills; analysis graphs identical (%d quads)", killed, strings.Count(a, "\n")+1)
}

// TestAnalyzeUsage checks the command line's errors.
func TestAnalyzeUsage(t *testing.T) {
	if code, _, _ := mneme(t, "", "analyze"); code != 2 {
		t.Errorf("analyze without --crawl: exit %d, want 2", code)
	}
	data := t.TempDir()
	if code, _, errOut := mneme(t, "", "analyze", "--data", data, "--crawl", "nothing"); code != 1 || !strings.Contains(errOut, "no such crawl") {
		t.Errorf("analyze of an unknown crawl: exit %d, %q", code, errOut)
	}
	bad := data + "/entities.yaml"
	if err := os.WriteFile(bad, []byte("entities:\n  - name: A\n  - name: B\n    type: planet\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := mneme(t, "", "analyze", "--data", data, "--crawl", "x", "--entities", bad); code != 1 || !strings.Contains(errOut, "entities.yaml:3") {
		t.Errorf("bad entities file: exit %d, %q, want its line named", code, errOut)
	}
}

// TestAnalyzePlainPages crawls a site of no known application and
// analyses the main text of its pages, read back from the WARC files,
// one of them with bytes that are not UTF-8 although it says it is.
func TestAnalyzePlainPages(t *testing.T) {
	site := sitetest.Serve(t, sitetest.Options{Pages: 3})
	site.Override = map[string]http.HandlerFunc{"/p/1": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>News</title></head><body><nav><a href="/p/0">home</a><a href="/p/2">more</a></nav>
<article><h1>Harbour news</h1><p>Maria Keller met Peter Novak in Lisbon to discuss the new cargo terminal.</p>
<p>Keller called the plan a wonderful success.</p></article></body></html>`)
	}, "/p/2": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><head><title>Caf\xe9</title></head><body><article><h1>Caf\xe9 news</h1>"+
			"<p>Anna Moreau opened a caf\xe9 in Lyon near the harbour, she said on the radio.</p>"+
			"<p>Moreau\xff\xfe called it a d\xe9j\xe0 vu of her youth in the old town.</p></article></body></html>")
	}}
	data := t.TempDir()
	if code, _, errOut := mneme(t, "", "crawl", "--data", data, "--id", "plain", "--politeness", "off", site.URL("/p/0")); code != 0 {
		t.Fatalf("crawl: exit %d: %s", code, errOut)
	}
	if code, out, errOut := mneme(t, "", "analyze", "--data", data, "--crawl", "plain"); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	} else {
		t.Log(strings.TrimSpace(out))
		if want := site.URL("/p/2") + ": invalid UTF-8 replaced by U+FFFD"; !strings.Contains(errOut, want) {
			t.Errorf("the log does not say %q:\n%s", want, errOut)
		}
	}
	st, err := graph.Open(crawler.Layout{Data: data}.Store(), graph.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	q, err := sparql.Prepare(`SELECT ?surface ?start WHERE { GRAPH <`+analysis.GraphIRI("plain")+`> {
  ?m <https://w3id.org/mneme#mentionOf> <urn:mneme:entity:maria_keller> ;
     <https://w3id.org/mneme#inObject> <`+site.URL("/p/1")+`> ;
     <https://w3id.org/mneme#surfaceForm> ?surface ; <https://w3id.org/mneme#startOffset> ?start } } ORDER BY ?start`, sparql.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := st.Snapshot()
	defer v.Close()
	res, err := q.Exec(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var got []string
	for res.Next() {
		got = append(got, res.Row()[0].Value)
	}
	if strings.Join(got, ",") != "Maria Keller,Keller" {
		t.Errorf("mentions of Maria Keller in the page: %q, want her full name and \"Keller\"", got)
	}
	// The page with invalid bytes: analysed, the reason in the graph.
	q, err = sparql.Prepare(`SELECT ?reason ?surface WHERE { GRAPH <`+analysis.GraphIRI("plain")+`> {
  <`+site.URL("/p/2")+`> <https://w3id.org/mneme#skipReason> ?reason .
  ?m <https://w3id.org/mneme#mentionOf> <urn:mneme:entity:anna_moreau> ; <https://w3id.org/mneme#inObject> <`+site.URL("/p/2")+`> ;
     <https://w3id.org/mneme#surfaceForm> ?surface } }`, sparql.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res2, err := q.Exec(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	defer res2.Close()
	var bad []string
	for res2.Next() {
		bad = append(bad, res2.Row()[0].Value+" / "+res2.Row()[1].Value)
	}
	if len(bad) == 0 || !strings.Contains(bad[0], "invalid UTF-8") {
		t.Errorf("the page with invalid UTF-8: %q, want its reason and mentions of Anna Moreau", bad)
	}
}
