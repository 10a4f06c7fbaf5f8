package detail_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/internal/tuitest"
	"github.com/mneme-archive/mneme/tui"
	"github.com/mneme-archive/mneme/tui/detail"
)

// TestDetailOfRunningCrawl opens a running crawl's detail from the
// crawls screen: its host queue, crawl.log lines (a 404 among them),
// its open WARC file; v moves the focus, / filters the log, x stops.
func TestDetailOfRunningCrawl(t *testing.T) {
	ctl := tuitest.NewControl(t, 4)
	ctl.Run(t, "d1", "id: d1\nworkers: 2\npoliteness: {off: true}\nrdf: {interval: 5ms}\nseeds: ["+ctl.Site.URL("/p/0")+", "+ctl.Site.URL("/missing")+"]\n")
	app := tui.New(tuitest.Backend(t, 0), t.TempDir(), "fixture", tui.Crawls{Client: ctl.Client, Owned: true, Interval: 50 * time.Millisecond})
	s := tuitest.Start(t, app)
	s.Wait(t, "d1")
	s.Press("enter")
	s.Wait(t, "crawl d1 · running")
	s.Wait(t, ctl.Site.Host()+"  busy") // the gate holds its one fetch
	s.Wait(t, "/missing")
	s.Wait(t, ".warc.gz.open")
	// The log's lines come with the screen's polls, a page's after the
	// 404s the crawl met first.
	s.Wait(t, "text/html")
	sc := s.Screen()
	for _, want := range []string{" host queues (1) ", "crawl.log (", "WARC files (1)", "errors: http 404", "404"} {
		if !strings.Contains(sc, want) {
			t.Errorf("detail lacks %q:\n%s", want, sc)
		}
	}
	s.Press("v")
	s.Wait(t, " crawl.log (")
	s.Press("/")
	s.Type("missing")
	s.Press("enter")
	s.Wait(t, "/ filter") // the filter prompt is gone
	s.Press("x")
	s.Wait(t, "Stop crawl d1? (y/n)")
	s.Press("y")
	s.Wait(t, "crawl d1 · stopped")
	s.Finish(t)

	m := app.Screen(1).(*detail.Model)
	if m.Crawl() != "d1" || m.Focus() != "crawl.log" {
		t.Errorf("crawl %q, focus %q", m.Crawl(), m.Focus())
	}
	if g := m.Grid(); g.Len() != 1 || g.Total() < 3 {
		t.Errorf("log filtered on \"missing\": %d of %d lines, want 1 of several", g.Len(), g.Total())
	}
}
