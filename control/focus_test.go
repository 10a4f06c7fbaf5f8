package control

import (
	"context"
	"fmt"
	"math"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/analysis/focus/topicweb"
	"github.com/mneme-archive/mneme/control/api"
)

// TestFocusWeightsReorderQueue runs a focused crawl of the generated
// topical web, pauses it, and changes the weights through the API: the
// queued URLs take the scores the explanations give under the new
// weights, and their order changes.
func TestFocusWeightsReorderQueue(t *testing.T) {
	ctx := context.Background()
	w := topicweb.New(topicweb.Web{Pages: 2000, Topics: 5, Seed: 9})
	site := httptest.NewServer(w.Handler())
	defer site.Close()
	s := newServer(t)
	c := s.client()
	seeds := ""
	for _, i := range w.Seeds(0, 2) {
		seeds += fmt.Sprintf("  - %s\n", w.URL(site.URL, i))
	}
	spec := fmt.Sprintf("id: f\nworkers: 1\naah: false\nupdate: MAX\npoliteness: {off: true}\nrdf: {interval: 5ms}\nseeds:\n%sfocus:\n  examples:\n%s  weights: {document: 1, paragraph: 1, anchor: 1}\n", seeds, seeds)
	if _, err := c.Create(ctx, []byte(spec)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(ctx, "f", "start"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		st, err := c.Status(ctx, "f")
		if err != nil {
			t.Fatal(err)
		}
		if st.Fetched >= 30 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the crawl fetched %d pages in a minute", st.Fetched)
		}
	}
	if _, err := c.Do(ctx, "f", "pause"); err != nil {
		t.Fatal(err)
	}
	for st, _ := c.Status(ctx, "f"); st.InFlight > 0; st, _ = c.Status(ctx, "f") {
		time.Sleep(10 * time.Millisecond) // the URLs in flight finish and schedule their links
	}
	order := func() ([]string, map[string]float64) {
		q, err := c.Frontier(ctx, "f", 100)
		if err != nil {
			t.Fatal(err)
		}
		var urls []string
		scores := map[string]float64{}
		for _, u := range q {
			urls = append(urls, u.URL)
			scores[u.URL] = u.Score
		}
		return urls, scores
	}
	before, _ := order()
	if len(before) < 20 {
		t.Fatalf("%d URLs queued", len(before))
	}
	f, err := c.SetFocusWeights(ctx, "f", map[string]float64{"document": 0, "paragraph": 0, "anchor": 1})
	if err != nil {
		t.Fatal(err)
	}
	if f.Weights["anchor"] != 1 || f.Weights["document"] != 0 {
		t.Errorf("weights after the change: %v", f.Weights)
	}
	after, scores := order()
	// Compare the relative order of the URLs listed both times (links
	// awaiting the frontier's seen-set pass are listed only after the
	// change, which applies them first).
	inBefore := map[string]bool{}
	for _, u := range before {
		inBefore[u] = true
	}
	var common []string
	for _, u := range after {
		if inBefore[u] {
			common = append(common, u)
		}
	}
	var beforeCommon []string
	for _, u := range before {
		if slices.Contains(common, u) {
			beforeCommon = append(beforeCommon, u)
		}
	}
	if len(common) < 10 || slices.Equal(beforeCommon, common) {
		t.Fatalf("the order of the %d URLs queued before and after did not change with the weights", len(common))
	}
	for _, u := range after[:20] {
		e, err := c.Explain(ctx, "f", u)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, x := range e.Contributions {
			sum += x
		}
		if math.Abs(e.Current-scores[u]) > 1e-9 || math.Abs(sum-e.Current) > 1e-9 || math.Abs(e.Modules["anchor"]-e.Current) > 1e-9 {
			t.Errorf("%s: frontier score %v, explanation %+v (contributions sum %v)", u, scores[u], e, sum)
		}
	}
	if _, err := c.SetFocusWeights(ctx, "f", map[string]float64{"anchor": 0}); !isAPIError(err, 400) {
		t.Errorf("weights summing to 0: %v, want a 400", err)
	}
	if _, err := c.Explain(ctx, "f", "http://127.0.0.1:1/never"); !isAPIError(err, 404) {
		t.Errorf("explaining an unknown URL: %v, want a 404", err)
	}
	if _, err := c.Do(ctx, "f", "stop"); err != nil {
		t.Fatal(err)
	}
}

func isAPIError(err error, code int) bool {
	ae, ok := err.(*api.APIError)
	return ok && ae.Code == code
}
