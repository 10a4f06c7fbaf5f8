package control

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
)

// linkFeed serves an Atom feed whose entries link to the given URLs.
func linkFeed(t *testing.T, links ...string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/atom+xml")
		fmt.Fprint(w, `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>links</title><id>x</id><updated>2026-03-14T00:00:00Z</updated>`)
		for i, l := range links {
			fmt.Fprintf(w, `<entry><id>e%d</id><title>entry %d</title><link href="http://%s/e/%d"/><updated>%s</updated>`+
				`<content type="html">see &lt;a href="%s"&gt;this&lt;/a&gt;</content></entry>`,
				i, i, r.Host, i, time.Now().UTC().Format(time.RFC3339), l)
		}
		fmt.Fprint(w, `</feed>`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func waitCampaign(t *testing.T, c *api.Client, id string) api.Campaign {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		st, err := c.CampaignStatus(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if !st.Live && st.State != "running" {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("campaign %s still %s after 60s", id, st.State)
		}
	}
}

// TestSocialLinkedCrawl: a campaign steered through the control API whose
// posts link to pages of a loopback site passes them to its linked crawl,
// which captures them; SPARQL joins each post to the capture of the page
// it links to.
func TestSocialLinkedCrawl(t *testing.T) {
	ctx := context.Background()
	a, b := newSite(t, 4), newSite(t, 8)
	s := newServer(t)
	c := s.client()
	if _, err := c.Create(ctx, specYAML("web", a.URL("/p/0"))); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(ctx, "web", "start"); err != nil {
		t.Fatal(err)
	}
	<-a.Hit // the crawl runs, held by site a's gate
	// Site b is not linked from site a: only the posts lead there.
	targets := []string{b.URL("/p/3"), b.URL("/p/5"), b.URL("/p/6")}
	feed := linkFeed(t, append(targets, b.URL("/p/3"))...)
	spec := fmt.Sprintf("id: posts\noptions: {linked-crawl: web}\npairs:\n  - {platform: feed, kind: list, query: %q}\n", feed.URL+"/atom")
	cs, err := c.CreateCampaign(ctx, []byte(spec))
	if err != nil || cs.ID != "posts" || cs.State != "created" {
		t.Fatalf("create: %+v, %v", cs, err)
	}
	if _, err := c.CampaignDo(ctx, "posts", "start"); err != nil {
		t.Fatal(err)
	}
	cs = waitCampaign(t, c, "posts")
	if cs.State != "done" || cs.Posts != 4 || cs.Requests != 1 || len(cs.Pairs) != 1 {
		t.Fatalf("campaign: %+v", cs)
	}
	a.Open()
	b.Open()
	var last api.Status
	err = c.Events(ctx, "web", func(st api.Status, end bool) error {
		if end {
			last = st
		}
		return nil
	})
	if err != nil || last.State != crawler.StateFinished {
		t.Fatalf("crawl: %+v, %v", last, err)
	}
	for _, u := range targets {
		if b.Hits(strings.TrimPrefix(u, b.URL(""))) == 0 {
			t.Errorf("%s, shared in posts, never fetched", u)
		}
	}
	q := fmt.Sprintf(`SELECT DISTINCT ?post ?page ?capture WHERE {
  GRAPH <urn:mneme:campaign:posts> { ?post <%s> ?page }
  GRAPH <urn:mneme:crawl:web> { ?capture <%s> ?page ; <%s> 200 } }`, ontology.SIOCLinksTo, ontology.URL, ontology.HTTPStatus)
	snap := s.m.deps.Store.Snapshot()
	defer snap.Close()
	pages := map[string]bool{}
	if err := sparql.Each(ctx, snap, q, func(row []rdf.Term) error { pages[row[1].Value] = true; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(pages) != len(targets) {
		t.Errorf("post → link → capture joins %d pages, want %d: %v", len(pages), len(targets), pages)
	}
}

// TestSocialAPI: create, a bad spec, status, add a pair, unknown ids,
// and the token.
func TestSocialAPI(t *testing.T) {
	ctx := context.Background()
	s := newServer(t)
	c := s.client()
	var ae *api.APIError
	if _, err := c.CreateCampaign(ctx, []byte("pairs: []\n")); !errors.As(err, &ae) || ae.Code != 400 || !strings.Contains(ae.Message, "at least one") {
		t.Errorf("empty campaign: %v", err)
	}
	feed := linkFeed(t, "http://127.0.0.1:1/x")
	cs, err := c.CreateCampaign(ctx, []byte(fmt.Sprintf("id: c1\npairs:\n  - {platform: feed, kind: list, query: %q}\n", feed.URL)))
	if err != nil || cs.ID != "c1" {
		t.Fatalf("create: %+v %v", cs, err)
	}
	if _, err := c.CreateCampaign(ctx, []byte(fmt.Sprintf("id: c1\npairs:\n  - {platform: feed, kind: list, query: %q}\n", feed.URL))); !errors.As(err, &ae) || ae.Code != 409 {
		t.Errorf("second c1: %v", err)
	}
	if cs, err = c.AddPair(ctx, "c1", api.NewPair{Platform: "feed", Kind: "list", Query: feed.URL + "/2"}); err != nil || len(cs.Pairs) != 2 {
		t.Fatalf("add pair: %+v %v", cs, err)
	}
	if _, err := c.AddPair(ctx, "c1", api.NewPair{Platform: "feed", Kind: "nope", Query: "x"}); !errors.As(err, &ae) || ae.Code != 400 {
		t.Errorf("bad pair: %v", err)
	}
	if _, err := c.CampaignDo(ctx, "c1", "pause"); !errors.As(err, &ae) || ae.Code != 409 {
		t.Errorf("pause of a campaign not running: %v", err)
	}
	if _, err := c.CampaignStatus(ctx, "nope"); !errors.As(err, &ae) || ae.Code != 404 {
		t.Errorf("unknown campaign: %v", err)
	}
	if _, err := c.CampaignDo(ctx, "c1", "start"); err != nil {
		t.Fatal(err)
	}
	cs = waitCampaign(t, c, "c1")
	if cs.State != "done" || cs.Posts != 2 || cs.Requests != 2 {
		t.Errorf("campaign: %+v", cs)
	}
	list, err := c.Campaigns(ctx)
	if err != nil || len(list) != 1 || list[0].Pairs[1].Posts != 1 {
		t.Errorf("list: %+v %v", list, err)
	}
	anon := &api.Client{Base: s.srv.URL}
	if _, err := anon.Campaigns(ctx); !errors.As(err, &ae) || ae.Code != 401 {
		t.Errorf("without the token: %v", err)
	}
}
