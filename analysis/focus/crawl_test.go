package focus

import (
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/analysis/focus/topicweb"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/sparql"
)

// mostRelevant is the archivist's question: the 100 most relevant pages
// of a crawl.
const mostRelevant = `PREFIX mneme: <https://w3id.org/mneme#>
SELECT ?url ?relevance ?similarity WHERE {
  GRAPH <urn:mneme:crawl:focused> {
    ?capture mneme:relevance ?relevance ;
             mneme:topicSimilarity ?similarity ;
             mneme:url ?url .
  }
}
ORDER BY DESC(?relevance)
LIMIT 100`

// TestFocusedCrawlRelevanceInSPARQL crawls the generated topical web with
// a focus on one topic and asks SPARQL for the most relevant pages: they
// are the topic's, in decreasing relevance, and the topic is in the store.
func TestFocusedCrawlRelevanceInSPARQL(t *testing.T) {
	w := topicweb.New(topicweb.Web{Pages: 1500, Topics: 5, Seed: 5})
	srv := httptest.NewServer(w.Handler())
	defer srv.Close()
	s := spec.Default()
	s.ID = "focused"
	s.UserAgent = "mneme-test/1.0 (+https://example.org/contact)"
	s.Output = t.TempDir()
	s.Workers = 2
	s.AAH = false
	s.Politeness.Off = true
	s.Update = "AVG"
	s.Limits.Pages = 120
	s.RDF.Interval = spec.Duration(5e6)
	for _, i := range w.Seeds(1, 3) {
		s.Seeds = append(s.Seeds, w.URL(srv.URL, i))
	}
	s.Focus = &spec.Focus{Languages: []string{"en"}, Examples: s.Seeds}
	st, err := crawler.Layout{Data: s.Output}.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := crawler.New(s, crawler.Deps{Store: st, Focus: Open})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	q, err := sparql.Prepare(mostRelevant, sparql.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := q.Exec(context.Background(), st.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rows, onTopic, last := 0, 0, 2.0
	for r.Next() {
		row := r.Row()
		rel, err := strconv.ParseFloat(row[1].Value, 64)
		if err != nil {
			t.Fatal(err)
		}
		if rel > last {
			t.Errorf("row %d: relevance %v after %v: not in decreasing order", rows, rel, last)
		}
		last = rel
		rows++
		path := strings.TrimPrefix(row[0].Value, srv.URL)
		if i := w.PageOf(path); i >= 0 && w.Topic(i) == 1 && rows <= 50 {
			onTopic++
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if rows != 100 {
		t.Fatalf("%d rows, want 100 (the crawl fetched %d pages)", rows, s.Limits.Pages)
	}
	if onTopic < 45 {
		t.Errorf("%d of the 50 most relevant pages are of the topic", onTopic)
	}
	// The topic is stored with the crawl.
	q2, _ := sparql.Prepare(`PREFIX mneme: <https://w3id.org/mneme#>
SELECT (COUNT(?t) AS ?n) WHERE { GRAPH <urn:mneme:crawl:focused> { <urn:mneme:crawl:focused> mneme:focusTopic ?topic . ?topic mneme:hasTerm ?t . ?t mneme:termWeight ?w } }`, sparql.Options{})
	r2, err := q2.Exec(context.Background(), st.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if !r2.Next() || r2.Row()[0].Value == "0" {
		t.Errorf("no topic terms stored: %v", r2.Err())
	}
}

// TestLinksToAnalysedPagesDropped: the links to pages analysed already
// are not analysed, the links of other kinds to them are, and the set of
// pages stays bounded.
func TestLinksToAnalysedPagesDropped(t *testing.T) {
	cn := canon.New(canon.Options{})
	parse := func(s string) canon.URL {
		u, err := cn.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	fc := &Crawl{}
	fc.analysed.add(parse("http://a.test/done").Canonical)
	follow := []extract.Outlink{
		{URL: parse("http://a.test/done"), Hop: extract.Link},
		{URL: parse("http://a.test/new"), Hop: extract.Link, Text: "new"},
		{URL: parse("http://a.test/done"), Hop: extract.Embed},
		{URL: parse("http://a.test/./done#top"), Hop: extract.Link},
	}
	links, at := fc.toAnalyse(follow)
	if len(links) != 2 || links[0].Text != "new" || links[1].Hop != extract.Embed || len(at) != 2 || at[0] != 1 || at[1] != 2 {
		t.Fatalf("links %+v at %v: want the new link and the embed, at 1 and 2", links, at)
	}
	for i := range pageSetMax - 1 { // with a.test/done: full
		fc.analysed.add("http://b.test/" + strconv.Itoa(i))
	}
	if len(fc.analysed.m) != pageSetMax {
		t.Fatalf("%d pages, want %d", len(fc.analysed.m), pageSetMax)
	}
	fc.analysed.add("http://c.test/")
	if len(fc.analysed.m) != 1 || !fc.analysed.has("http://c.test/") || fc.analysed.has("http://a.test/done") {
		t.Errorf("full set: %d pages after one more, want it emptied and holding that one", len(fc.analysed.m))
	}
}
