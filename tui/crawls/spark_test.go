package crawls

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/tui/screen"
)

// TestIncrementalSparkline feeds polls of an incremental crawl and a
// snapshot one: the first shows its pages per poll as a sparkline, the
// second a progress bar.
func TestIncrementalSparkline(t *testing.T) {
	m := New(Options{Client: &api.Client{Base: "http://127.0.0.1:1"}})
	m.Update(screen.SizeMsg{Width: 80, Height: 22})
	for _, fetched := range []int64{5, 15, 35, 35} {
		m.Update(listMsg{list: []api.Status{
			{ID: "inc", State: "running", Live: true, Incremental: true, Fetched: fetched},
			{ID: "snap", State: "running", Live: true, Succeeded: 3, Queued: 1, Fetched: fetched},
		}})
	}
	view := ansi.Strip(m.View())
	// 10, 20 and 0 pages in the three intervals, scaled to the largest.
	if !strings.Contains(view, "inc    running             ▅█▁  35") {
		t.Errorf("no sparkline ▅█▁ for the incremental crawl:\n%s", view)
	}
	if !strings.Contains(view, " 75%") {
		t.Errorf("no 75%% progress for the snapshot crawl (3 done, 1 queued):\n%s", view)
	}
}
