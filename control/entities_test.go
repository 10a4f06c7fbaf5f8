package control

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/analysis/gencorpus"
	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/internal/analysistest"
)

// TestEntityRoutes analyses a small archive in which an organisation is
// renamed and its head turns controversial, and checks the entity routes
// against what the archive holds: popularity per crawl against the texts
// naming the person, mentions against their texts, captures and capture
// times, the proposed rename from both sides, neighbours against the
// names the texts put together.
func TestEntityRoutes(t *testing.T) {
	s := newServer(t)
	c := analysistest.Renamed()
	times := analysistest.Load(t, s.m.deps.Store, c)
	cl := s.client()
	analysistest.Analyse(t, cl, c)
	ctx := context.Background()

	hits, err := cl.FindEntities(ctx, "KELLER", 10)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(hits, func(h api.EntityHit) bool { return h.ID == "maria_keller" && h.Kind == "person" }) {
		t.Fatalf("find keller: %+v", hits)
	}
	for _, h := range hits {
		e, err := cl.Entity(ctx, h.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		names := strings.ToLower(e.Label + " " + strings.Join(e.Aliases, " "))
		if !strings.Contains(names, "keller") {
			t.Errorf("find keller gave %s, named %q", h.ID, names)
		}
	}
	all, err := cl.FindEntities(ctx, "", 100)
	if err != nil || len(all) < 4 || !slices.IsSortedFunc(all, func(a, b api.EntityHit) int { return int(b.Popularity - a.Popularity) }) {
		t.Errorf("every entity, the most popular first: %+v %v", all, err)
	}

	e, err := cl.Entity(ctx, "maria_keller", 5)
	if err != nil {
		t.Fatal(err)
	}
	if e.Label != "Maria Keller" || len(e.Measures) != len(c.Crawls) {
		t.Fatalf("maria_keller: %+v", e)
	}
	var sum int64
	for k, m := range e.Measures {
		texts := 0
		for _, tx := range c.Crawls[k].Texts {
			if strings.Contains(tx.Content, "Maria Keller") {
				texts++
			}
		}
		if m.Crawl != c.Crawls[k].ID || !m.Time.Equal(c.Crawls[k].Start) || m.Popularity != int64(texts) {
			t.Errorf("measures %d: %+v, want crawl %s at %v with popularity %d", k, m, c.Crawls[k].ID, c.Crawls[k].Start, texts)
		}
		sum += m.Mentions
	}
	if e.Measures[1].Controversiality <= e.Measures[0].Controversiality {
		t.Errorf("controversiality %v then %v: blamed and praised in the second crawl", e.Measures[0].Controversiality, e.Measures[1].Controversiality)
	}
	if e.MentionsAll != sum || len(e.Mentions) != 5 {
		t.Errorf("%d mentions of %d (the measures count %d), want 5 shown", len(e.Mentions), e.MentionsAll, sum)
	}
	for i, m := range e.Mentions {
		k := slices.IndexFunc(c.Crawls, func(cr gencorpus.Crawl) bool { return cr.ID == m.Crawl })
		if k < 0 {
			t.Fatalf("mention in crawl %q", m.Crawl)
		}
		j := slices.IndexFunc(c.Crawls[k].Texts, func(tx *gencorpus.Text) bool { return tx.IRI == m.Object })
		switch {
		case j < 0:
			t.Errorf("mention %+v: no such text in %s", m, m.Crawl)
		case c.Crawls[k].Texts[j].Capture != m.Capture || m.URL != m.Object || !m.Time.Equal(times[m.Capture]):
			t.Errorf("mention %+v: want capture %s of %s at %v", m, c.Crawls[k].Texts[j].Capture, m.Object, times[m.Capture])
		case !strings.Contains(m.Sentence, m.Surface) || !strings.Contains(c.Crawls[k].Texts[j].Content, m.Sentence):
			t.Errorf("mention %+v: not its text's sentence", m)
		case i > 0 && m.Time.After(e.Mentions[i-1].Time):
			t.Errorf("mentions not latest first: %v after %v", m.Time, e.Mentions[i-1].Time)
		}
	}
	if len(e.NameChanges) != 0 {
		t.Errorf("maria_keller takes part in name changes %+v", e.NameChanges)
	}
	var near []string
	for _, n := range e.Neighbours {
		near = append(near, n.ID)
	}
	if !slices.Contains(near, "northwind_trading") || !slices.Contains(near, "southgate_holdings") || slices.Contains(near, "lena_brandt") {
		t.Errorf("neighbours of maria_keller: %v", near)
	}

	for _, id := range []string{"northwind_trading", "southgate_holdings"} {
		e, err := cl.Entity(ctx, id, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(e.NameChanges) != 1 {
			t.Fatalf("%s: name changes %+v", id, e.NameChanges)
		}
		nc := e.NameChanges[0]
		if nc.Former != (api.Named{ID: "northwind_trading", Label: "Northwind Trading"}) || nc.Later != (api.Named{ID: "southgate_holdings", Label: "Southgate Holdings"}) ||
			nc.Crawl != "blog-2" || nc.Previous != "blog-1" || nc.Score <= 0 || len(nc.Evidence) == 0 {
			t.Errorf("%s: name change %+v", id, nc)
		}
	}

	for path, code := range map[string]int{
		"/api/entities/nobody":                  http.StatusNotFound,
		"/api/entities/a%20b":                   http.StatusBadRequest,
		"/api/entities/maria_keller?mentions=0": http.StatusBadRequest,
		"/api/entities?limit=x":                 http.StatusBadRequest,
	} {
		req, _ := http.NewRequest("GET", s.srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+s.token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != code {
			t.Errorf("%s: %d, want %d", path, resp.StatusCode, code)
		}
	}
	var ae *api.APIError
	if _, err := cl.Entity(ctx, "nobody", 1); !errors.As(err, &ae) || !strings.Contains(ae.Message, "urn:mneme:entity:nobody") {
		t.Errorf("an unknown entity: %v", err)
	}
}
