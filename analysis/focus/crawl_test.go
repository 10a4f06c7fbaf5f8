package focus

import (
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/analysis/focus/topicweb"
	"github.com/mneme-archive/mneme/crawler"
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
