package sim

import (
	"context"
	"testing"

	"github.com/mneme-archive/mneme/analysis/focus/topicweb"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/spec"
)

// TestFocusedBeatsBreadthFirst replays a small topical web: a best-first
// crawl on the focus scores harvests more relevant pages than a
// breadth-first one from the same seeds.
func TestFocusedBeatsBreadthFirst(t *testing.T) {
	w := topicweb.New(topicweb.Web{Pages: 3000, Topics: 6, Seed: 11})
	var seeds []string
	for _, i := range w.Seeds(2, 3) {
		seeds = append(seeds, w.URL("http://topicweb.test", i))
	}
	run := func(m Mode) Result {
		res, err := Run(context.Background(), Config{Graph: w, Seeds: seeds, Mode: m, Pages: 250, Update: frontier.UpdateAvg,
			Focus: &spec.Focus{Languages: []string{"en"}, Examples: seeds}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Pages != 250 {
			t.Fatalf("%s crawled %d pages, want 250", m, res.Pages)
		}
		return res
	}
	bfs, focused := run(BreadthFirst), run(Adaptive)
	t.Logf("harvest ratio: breadth-first %.3f, focused %.3f", bfs.Ratio, focused.Ratio)
	if focused.Ratio <= bfs.Ratio {
		t.Errorf("focused harvest %.3f not above breadth-first %.3f", focused.Ratio, bfs.Ratio)
	}
}
