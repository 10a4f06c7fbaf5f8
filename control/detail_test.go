package control

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/crawllog"
)

// TestFrontierLogAndWARCs reads a paused crawl's best queued URLs, then
// after the run its crawl.log tail and WARC files.
func TestFrontierLogAndWARCs(t *testing.T) {
	ctx := context.Background()
	a, b := newSite(t, 6), newSite(t, 3)
	s := newServer(t)
	c := s.client()
	if _, err := c.Create(ctx, specYAML("d1", a.URL("/p/0"))); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(ctx, "d1", "start"); err != nil {
		t.Fatal(err)
	}
	<-a.Hit
	if _, err := c.Do(ctx, "d1", "pause"); err != nil {
		t.Fatal(err)
	}
	var items []api.InjectItem
	for _, u := range []struct {
		path  string
		score float64
	}{{"/p/1", 0.2}, {"/p/2", 0.9}, {"/p/9", 0.5}} {
		items = append(items, api.InjectItem{URL: b.URL(u.path), Score: &u.score})
	}
	if _, err := c.Inject(ctx, "d1", items); err != nil {
		t.Fatal(err)
	}
	top, err := c.Frontier(ctx, "d1", 100)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSortedFunc(top, func(x, y api.Queued) int { return -cmpFloat(x.Score, y.Score) }) {
		t.Errorf("frontier not best first: %+v", top)
	}
	var fromB []string
	for _, q := range top {
		if strings.HasPrefix(q.URL, b.URL("")) {
			fromB = append(fromB, strings.TrimPrefix(q.URL, b.URL(""))+"@"+q.Queue)
		}
	}
	host := strings.TrimPrefix(b.URL(""), "http://")
	// The dispatcher may have been waiting for a worker when the pause
	// came: it then claims one more URL, the best one.
	want := []string{"/p/2@" + host, "/p/9@" + host, "/p/1@" + host}
	if !slices.Equal(fromB, want) && !slices.Equal(fromB, want[1:]) {
		t.Errorf("injected URLs in the frontier: %v, want %v", fromB, want)
	}
	if one, err := c.Frontier(ctx, "d1", 1); err != nil || len(one) != 1 || one[0] != top[0] {
		t.Errorf("frontier limit 1: %+v, %v; want %+v", one, err, top[0])
	}

	a.Open()
	b.Open()
	if _, err := c.Do(ctx, "d1", "stop"); err != nil {
		t.Fatal(err)
	}
	tail, err := c.Log(ctx, "d1", 2)
	lines := tail.Lines
	if err != nil || len(lines) != 2 {
		t.Fatalf("log tail of 2: %q, %v", lines, err)
	}
	whole, err := c.Log(ctx, "d1", 1000)
	all := whole.Lines
	if err != nil || len(all) < 3 || !slices.Equal(all[len(all)-2:], lines) {
		t.Fatalf("whole log %q (%v) does not end with the tail %q", all, err, lines)
	}
	if len(whole.Entries) != len(all) {
		t.Fatalf("%d log entries for %d lines", len(whole.Entries), len(all))
	}
	for i, l := range all {
		e, err := crawllog.Parse(l)
		if err != nil {
			t.Errorf("log line %q: %v", l, err)
		}
		if got := whole.Entries[i]; got.URI != e.URI || got.Status != e.Status || got.Size != e.Size || !got.Time.Equal(e.Time) {
			t.Errorf("log line %q sent as %+v", l, got)
		}
	}
	if !strings.Contains(strings.Join(all, "\n"), a.URL("/p/0")) {
		t.Errorf("log lacks the seed:\n%s", strings.Join(all, "\n"))
	}
	// Another server of the data folder, where the crawl is not open,
	// reads its figures from its crawl.log.
	closed, live, err := NewManager(s.data, crawler.Deps{}, "").Status("d1")
	if err != nil || live || closed.State != crawler.StateStopped || closed.Fetched != int64(len(all)) || closed.Bytes == 0 || len(closed.Recent) == 0 {
		t.Errorf("status of the crawl not open: live %v, %+v, %v; want %d fetched", live, closed, err, len(all))
	}
	files, err := c.WARCs(ctx, "d1")
	if err != nil || len(files) == 0 {
		t.Fatalf("warcs: %+v, %v", files, err)
	}
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".warc.gz") || f.Open || f.Size == 0 || f.Modified.IsZero() {
			t.Errorf("WARC file after stop: %+v", f)
		}
	}
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
