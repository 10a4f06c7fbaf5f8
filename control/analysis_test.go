package control

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/analysis"
	"github.com/mneme-archive/mneme/analysis/gencorpus"
	"github.com/mneme-archive/mneme/control/api"
)

// TestAnalysisJob runs an analysis through the API: started with POST,
// followed with GET until it finishes, its figures those of the graph it
// wrote; unknown crawls, bad entity files and bad bodies are refused.
func TestAnalysisJob(t *testing.T) {
	s := newServer(t)
	c := gencorpus.Generate(gencorpus.Config{Seed: 5, Crawls: 2, PostsPerCrawl: 20})
	st := s.m.deps.Store
	if err := c.Write(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	cl := s.client()
	ctx := context.Background()
	var last api.Analysis
	for _, cr := range c.Crawls {
		a, err := cl.Analyze(ctx, api.AnalysisRequest{Crawl: cr.ID, Entities: "entities:\n  - name: Example Org\n    type: organization\n"})
		if err != nil {
			t.Fatal(err)
		}
		if a.Crawl != cr.ID || a.Graph != analysis.GraphIRI(cr.ID) {
			t.Errorf("started: %+v", a)
		}
		// The job ends by itself; each poll is answered at once.
		for a.State == "running" {
			time.Sleep(20 * time.Millisecond)
			if a, err = cl.Analysis(ctx, cr.ID); err != nil {
				t.Fatal(err)
			}
		}
		if a.State != "finished" || a.Stage != "done" {
			t.Fatalf("analysis of %s: %+v", cr.ID, a)
		}
		if a.Texts != len(cr.Texts) || a.Mentions == 0 || a.Entities == 0 {
			t.Errorf("analysis of %s: %d texts (want %d), %d mentions, %d entities", cr.ID, a.Texts, len(cr.Texts), a.Mentions, a.Entities)
		}
		last = a
	}
	if last.Previous != c.Crawls[0].ID || last.Versions["New"] == 0 {
		t.Errorf("the second analysis compared against %q with versions %v", last.Previous, last.Versions)
	}
	list, err := cl.Analyses(ctx)
	if err != nil || len(list) != 2 {
		t.Errorf("analyses: %v, %v", list, err)
	}
	for _, tc := range []struct {
		req  api.AnalysisRequest
		code int
	}{
		{api.AnalysisRequest{Crawl: "no-such-crawl"}, http.StatusNotFound},
		{api.AnalysisRequest{Crawl: "../x"}, http.StatusBadRequest},
		{api.AnalysisRequest{Crawl: c.Crawls[0].ID, Entities: "entities:\n  - name: X\n    type: planet\n"}, http.StatusBadRequest},
	} {
		_, err := cl.Analyze(ctx, tc.req)
		var ae *api.APIError
		if !errors.As(err, &ae) || ae.Code != tc.code {
			t.Errorf("%+v: %v, want %d", tc.req, err, tc.code)
		}
	}
	if _, err := cl.Analysis(ctx, "never"); err == nil {
		t.Error("the analysis of a crawl never analysed was answered")
	}
}
