package crawler

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// TestCrawlSite crawls a 60-page site with politeness off and checks the
// outputs agree: every page captured once, in WARC, crawl.log and RDF; links
// with anchor text; a duplicate payload stored as a revisit; the crawl
// activity closed.
func TestCrawlSite(t *testing.T) {
	site := newSite(t, "", 60)
	same := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("the same payload at two URLs"))
	}
	site.Override["/dup/a"], site.Override["/dup/b"] = same, same
	s := testSpec(t, site.URL("/p/0"), site.URL("/dup/a"), site.URL("/dup/b"))
	s.Politeness.Off = true
	s.Workers = 1 // /dup/a is stored before /dup/b is fetched
	st := openStore(t, s.Output)
	status := crawl(t, s, Deps{Store: st})

	want := append(site.URLs(), site.URL("/dup/a"), site.URL("/dup/b"), site.URL("/robots.txt"))
	slices.Sort(want)
	got := capturedURLs(t, st, s.ID)
	if !slices.Equal(got, want) {
		t.Fatalf("captured %d URLs, want %d:\n got %v\nwant %v", len(got), len(want), got, want)
	}
	if status.State != StateFinished || status.Fetched != int64(len(want)) {
		t.Errorf("status %s (%s), %d fetched; want finished, %d", status.State, status.Reason, status.Fetched, len(want))
	}
	for _, u := range want {
		if n := site.Hits(strings.TrimPrefix(u, site.URL(""))); n != 1 {
			t.Errorf("%s fetched %d times", u, n)
		}
	}

	// crawl.log: one line per capture, the revisit annotated.
	log := readLog(t, s.Output, s.ID)
	if len(log) != len(want) {
		t.Errorf("crawl.log has %d lines, want %d", len(log), len(want))
	}
	dups := 0
	for _, e := range log {
		if hasAnnotation(e.Annotations, annotDuplicate) {
			dups++
		}
	}
	if dups != 1 || status.Revisits != 1 {
		t.Errorf("%d duplicate lines, %d revisits counted; want 1", dups, status.Revisits)
	}

	// WARC: a response or revisit per capture, each where RDF says.
	rep, err := CheckArchive(context.Background(), s.Output, s.ID, st)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) > 0 || rep.Captures != len(want) || rep.Records != len(want) {
		t.Errorf("archive check: %d captures, %d records (want %d), problems %v", rep.Captures, rep.Records, len(want), rep.Problems)
	}
	dupOf := objects(t, st, s.ID, ontology.DuplicateOf)
	if len(dupOf) != 1 {
		t.Errorf("%d captures are duplicates, want 1", len(dupOf))
	}

	// Links: page 0 links to pages 1 and 2, and /p/1 is linked to with
	// the anchor text "page 1".
	captureOf := map[string]string{}
	for capt, u := range objects(t, st, s.ID, ontology.URL) {
		captureOf[u[0]] = capt
	}
	if to := objects(t, st, s.ID, ontology.LinksTo)[captureOf[site.URL("/p/0")]]; !slices.Contains(to, site.URL("/p/1")) || !slices.Contains(to, site.URL("/p/2")) {
		t.Errorf("/p/0 links to %v, want /p/1 and /p/2 among them", to)
	}
	if texts := objects(t, st, s.ID, ontology.LinkText)[site.URL("/p/1")]; !slices.Contains(texts, "page 1") {
		t.Errorf("/p/1 is linked to with the texts %v, want \"page 1\" among them", texts)
	}
	// mneme:via: the capture of /p/1 names the capture of /p/0.
	if via := objects(t, st, s.ID, ontology.Via)[captureOf[site.URL("/p/1")]]; len(via) != 1 || via[0] != captureOf[site.URL("/p/0")] {
		t.Errorf("via of /p/1's capture: %v, want [%s]", via, captureOf[site.URL("/p/0")])
	}
	if ended := objects(t, st, s.ID, ontology.ProvEndedAtTime)[crawlrdf.CrawlIRI(s.ID)]; len(ended) != 1 {
		t.Errorf("crawl not ended in RDF: %v", ended)
	}
	verifyWARCs(t, s.Output, s.ID)
}

// dataLinks is a site-specific analyzer: on /app/ it follows only the
// data-next attribute the standard extractor ignores (the page's ordinary
// links are recorded, not followed) and says what the page holds; on
// other pages it is the standard extractor.
type dataLinks struct {
	c   *canon.Canonicalizer
	std *extract.Standard
}

func (d dataLinks) Analyze(p Page) (Analysis, error) {
	found, err := d.std.Extract(extract.Document{URL: p.URL, MediaType: p.MediaType, Body: bytes.NewReader(p.Body)})
	if err != nil || p.URL.Path != "/app/" {
		return Analysis{Links: found, Follow: found}, err
	}
	_, rest, _ := strings.Cut(string(p.Body), `data-next="`)
	ref, _, _ := strings.Cut(rest, `"`)
	u, err := d.c.Resolve(p.URL, ref)
	if err != nil {
		return Analysis{}, err
	}
	next := extract.Outlink{URL: u, Hop: extract.Link, Context: "div/@data-next"}
	return Analysis{
		Links: append(found, next), Follow: []extract.Outlink{next}, Annotation: "app:test/home",
		Quads: func(capture, g rdf.Term) []rdf.Quad {
			return []rdf.Quad{{S: rdf.IRI(p.URL.Href + "#post"), P: rdf.IRI(ontology.ProvWasDerivedFrom), O: capture, G: g}}
		},
	}, nil
}

// TestAnalyzer follows the links the analyzer chooses, records those it
// found, and stores the statements it makes about the page, derived from
// its capture in the crawl's graph.
func TestAnalyzer(t *testing.T) {
	site := newSite(t, "", 1)
	site.Override["/app/"] = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<div data-next="/app/next"></div><a href="/app/plain">plain</a>`)
	}
	site.Override["/app/next"] = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<a href="/app/after">standard link</a>`)
	}
	s := testSpec(t, site.URL("/app/"))
	s.Politeness.Off = true
	cn := canon.New(canon.Options{})
	st := openStore(t, s.Output)
	crawl(t, s, Deps{Store: st, Analyzer: dataLinks{cn, extract.New(extract.Options{})}})
	for path, want := range map[string]int{"/app/next": 1, "/app/plain": 0, "/app/after": 1} {
		if got := site.Hits(path); got != want {
			t.Errorf("%s fetched %d times, want %d", path, got, want)
		}
	}
	captureOf := map[string]string{}
	for capt, u := range objects(t, st, s.ID, ontology.URL) {
		captureOf[u[0]] = capt
	}
	home := captureOf[site.URL("/app/")]
	if got := objects(t, st, s.ID, ontology.ProvWasDerivedFrom)[site.URL("/app/")+"#post"]; len(got) != 1 || got[0] != home {
		t.Errorf("object of /app/ derived from %v, want its capture %s", got, home)
	}
	targets := objects(t, st, s.ID, ontology.LinksTo)[home]
	slices.Sort(targets)
	if want := []string{site.URL("/app/next"), site.URL("/app/plain")}; !slices.Equal(targets, want) {
		t.Errorf("links of /app/'s capture: %v, want %v", targets, want)
	}
	annotated := false
	for _, e := range readLog(t, s.Output, s.ID) {
		if e.URI == site.URL("/app/") {
			annotated = slices.Contains(e.Annotations, "app:test/home")
		}
	}
	if !annotated {
		t.Error("crawl.log line of /app/ lacks the analyzer's annotation")
	}
}
