// Package analysistest puts a generated archive (analysis/gencorpus) in a
// store as the crawler would and analyses it through the control API, for
// the tests of the entity routes and of the TUI's entity screen.
package analysistest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/analysis/gencorpus"
	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// Load writes the corpus's crawls into st, each capture with its
// prov:generatedAtTime (the crawl's start plus i seconds for its i-th
// capture, as a crawl's captures follow its start), and returns those
// times by capture IRI.
func Load(t testing.TB, st *graph.Store, c *gencorpus.Corpus) map[string]time.Time {
	t.Helper()
	times := map[string]time.Time{}
	for k := range c.Crawls {
		b := st.NewBatch()
		g := rdf.IRI("urn:mneme:crawl:" + c.Crawls[k].ID)
		seen := map[string]bool{}
		for _, tx := range c.Crawls[k].Texts {
			if !seen[tx.Capture] {
				at := c.Crawls[k].Start.Add(time.Duration(len(seen)+1) * time.Second)
				b.Add(rdf.Quad{S: rdf.IRI(tx.Capture), P: rdf.IRI(ontology.ProvGeneratedAtTime),
					O: rdf.Literal(at.Format(time.RFC3339), rdf.XSDDateTime), G: g})
				seen[tx.Capture], times[tx.Capture] = true, at
			}
		}
		for _, q := range c.Quads(k) {
			b.Add(q)
		}
		if _, err := b.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return times
}

// Analyse runs the analysis of every crawl of the corpus, in order,
// through the control API, and waits for each to finish.
func Analyse(t testing.TB, cl *api.Client, c *gencorpus.Corpus) {
	t.Helper()
	ctx := context.Background()
	for _, cr := range c.Crawls {
		a, err := cl.Analyze(ctx, api.AnalysisRequest{Crawl: cr.ID})
		if err != nil {
			t.Fatal(err)
		}
		for a.State == "running" {
			time.Sleep(20 * time.Millisecond)
			if a, err = cl.Analysis(ctx, cr.ID); err != nil {
				t.Fatal(err)
			}
		}
		if a.State != "finished" {
			t.Fatalf("analysis of %s: %+v", cr.ID, a)
		}
	}
}

// Renamed is a small blog archive of two crawls a week apart in which an
// organisation changes its name: Northwind Trading in the posts of the
// first crawl, Southgate Holdings in the new posts of the second (the
// older posts still listed keep the old name), always next to the person
// who runs it, Maria Keller, praised in the first crawl and both praised
// and blamed in the second. Posts about football, with their own names,
// are the other half of each crawl.
func Renamed() *gencorpus.Corpus {
	start := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	c := &gencorpus.Corpus{Crawls: []gencorpus.Crawl{
		{ID: "blog-1", Start: start},
		{ID: "blog-2", Start: start.Add(7 * 24 * time.Hour)},
	}}
	topics := []string{"cargo", "harbor", "freight", "container", "shipping", "crane", "ferry", "warehouse"}
	post := func(k, i int, org, opinion string) *gencorpus.Text {
		iri := fmt.Sprintf("http://blog.example/post/%d/", i)
		return &gencorpus.Text{
			IRI: iri, Capture: fmt.Sprintf("urn:uuid:00000000-0000-4000-8000-%06d%06d", k, i), Author: "Ann Editor",
			Content: fmt.Sprintf("%s moved more %s through the harbor this week. Maria Keller, who runs %s, spoke about the %s and the new terminal. %s",
				org, topics[i%len(topics)], org, topics[(i+3)%len(topics)], opinion),
			Version: "new",
		}
	}
	sport := []string{"goal", "match", "stadium", "league", "coach", "season", "striker", "penalty"}
	football := func(k, i int) *gencorpus.Text {
		return &gencorpus.Text{
			IRI: fmt.Sprintf("http://blog.example/post/%d/", i), Capture: fmt.Sprintf("urn:uuid:00000000-0000-4000-8000-%06d%06d", k, i),
			Author: "Bo Writer", Version: "new",
			Content: fmt.Sprintf("Riverside United won the %s at the %s. Lena Brandt, the coach of Riverside United, talked about the %s.",
				sport[i%len(sport)], sport[(i+2)%len(sport)], sport[(i+5)%len(sport)]),
		}
	}
	praise := "Maria Keller did a wonderful, excellent job and everyone loves the great results."
	blame := "Maria Keller did a terrible, awful job and the results are a horrible disaster."
	for i := 1; i <= 8; i++ {
		c.Crawls[0].Texts = append(c.Crawls[0].Texts, post(1, i, "Northwind Trading", praise), football(1, 100+i))
	}
	for i := 1; i <= 3; i++ {
		t := *c.Crawls[0].Texts[2*(i-1)]
		t.Capture, t.Version = fmt.Sprintf("urn:uuid:00000000-0000-4000-8000-%06d%06d", 2, i), "unchanged"
		c.Crawls[1].Texts = append(c.Crawls[1].Texts, &t)
	}
	for i := 9; i <= 16; i++ {
		opinion := praise
		if i%2 == 0 {
			opinion = blame
		}
		c.Crawls[1].Texts = append(c.Crawls[1].Texts, post(2, i, "Southgate Holdings", opinion), football(2, 100+i))
	}
	return c
}
