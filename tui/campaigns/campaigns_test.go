package campaigns_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mneme-archive/mneme/internal/tuitest"
	"github.com/mneme-archive/mneme/social/socialtest"
	"github.com/mneme-archive/mneme/tui"
)

// row waits for a row of the table matching re (the table pads columns).
func row(t *testing.T, s *tuitest.Session, re string) {
	t.Helper()
	r := regexp.MustCompile(`(?m)^` + re)
	for deadline := time.Now().Add(20 * time.Second); !r.MatchString(s.Screen()); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no row %s; last screen:\n%s", re, s.Screen())
		}
	}
}

// TestCampaignsScreen starts a campaign with the screen's key, follows it
// to its end, shows its pairs and adds a query, which a new start runs.
func TestCampaignsScreen(t *testing.T) {
	ctl := tuitest.NewControl(t, 3)
	f := socialtest.NewFeed(t, 30, 10, "")
	g := socialtest.NewFeed(t, 4, 10, "")
	spec := fmt.Sprintf("id: c1\nbudget: {requests: 50}\npairs:\n  - {platform: feed, kind: list, query: %q}\n  - {platform: feed, kind: hashtag, query: quake}\n", f.URL())
	if _, err := ctl.Client.CreateCampaign(context.Background(), []byte(spec)); err != nil {
		t.Fatal(err)
	}
	app := tui.New(tuitest.Backend(t, 0), t.TempDir(), "fixture", tui.Crawls{Client: ctl.Client, Interval: 50 * time.Millisecond})
	s := tuitest.Start(t, app)
	s.Press("7")
	s.Wait(t, "Social campaigns")
	s.TM.Send(tea.WindowSizeMsg{Width: 160, Height: 30}) // room for every column
	s.Wait(t, "last error")
	row(t, s, `c1 +created +0 +0 +0 +50 +∞ +2 `)
	s.Press("s")
	// 3 pages of the feed; the hashtag query, which feeds do not serve,
	// fails at once: its error is the campaign's last.
	row(t, s, `c1 +done +1 +30 +3 +47 +∞ +2 +feed`)
	s.Wait(t, "not supported") // the selected row's last error, whole
	s.Press("enter")
	row(t, s, `feed +list +`+regexp.QuoteMeta(f.URL())+` +1 +✓ +30 +3 *$`)
	row(t, s, `feed +hashtag +quake +1 +✓ +0 +0 +1 +feed: query kind`)
	s.Press("a")
	s.Wait(t, "add a query (platform kind query): ")
	s.Type("feed list " + g.URL())
	s.Press("enter")
	row(t, s, `feed +list +`+regexp.QuoteMeta(g.URL())+` +0 +0 +0 *$`)
	s.Press("s")
	row(t, s, `feed +list +`+regexp.QuoteMeta(g.URL())+` +1 +✓ +4 +1 *$`)
	s.Press("esc")
	row(t, s, `c1 +done +1 +34 +4 `)
	s.Finish(t)
}
