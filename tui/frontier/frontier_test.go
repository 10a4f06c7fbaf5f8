package frontier_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/internal/tuitest"
	"github.com/mneme-archive/mneme/tui"
	"github.com/mneme-archive/mneme/tui/frontier"
)

// TestInjectRescoreBlacklist injects URLs into a paused crawl from the
// frontier screen, raises one's score, blacklists another, and checks
// what the frontier lists after each edit; bad scores are refused
// before any request.
func TestInjectRescoreBlacklist(t *testing.T) {
	ctl := tuitest.NewControl(t, 3)
	ctl.Run(t, "f1", "id: f1\nworkers: 1\npoliteness: {off: true}\nrdf: {interval: 5ms}\nseeds: ["+ctl.Site.URL("/p/0")+"]\n")
	// One worker, held by the gate once /p/0 is fetched, and the one URL
	// the dispatcher claims ahead for it (/x/ahead, injected below): nothing
	// else is claimed, so what is injected next stays queued.
	app := tui.New(tuitest.Backend(t, 0), t.TempDir(), "fixture", tui.Crawls{Client: ctl.Client, Owned: false, Interval: 50 * time.Millisecond})
	s := tuitest.Start(t, app)
	s.Wait(t, "f1")
	s.Press("f")
	s.Wait(t, "Frontier of f1")
	waitInFlight(t, ctl, 1)
	if _, err := ctl.Client.Inject(context.Background(), "f1", []api.InjectItem{{URL: ctl.Site.URL("/x/ahead")}}); err != nil {
		t.Fatal(err)
	}
	waitInFlight(t, ctl, 2)
	s.Press("p") // not a frontier key: nothing happens
	s.Press("a")
	s.Wait(t, "inject: ")
	s.Type(ctl.Site.URL("/x/a") + " " + ctl.Site.URL("/x/b") + " 0.5")
	s.Press("enter")
	s.Wait(t, "injected 2 URLs")
	s.Wait(t, "0.500  "+ctl.Site.Host())
	s.Press("/")
	s.Type("/x/b")
	s.Press("enter")
	s.Press("s")
	s.Wait(t, "score for "+ctl.Site.URL("/x/b")+": 0.5")
	s.Press("backspace", "backspace", "backspace")
	s.Type("1.5")
	s.Press("enter")
	s.Wait(t, `score "1.5": a number from 0 to 1 expected`)
	s.Press("s", "backspace", "backspace", "backspace")
	s.Type("0.9")
	s.Press("enter")
	s.Wait(t, "scored "+ctl.Site.URL("/x/b")+" 0.9")
	waitRow(t, s, `0\.900 .*/x/b`)
	s.Press("/", "esc") // clear the filter
	s.Wait(t, "/x/a")
	s.Press("/")
	s.Type("/x/a")
	s.Press("enter", "b")
	s.Wait(t, "Blacklist "+ctl.Site.URL("/x/a")+"? (y/n)")
	s.Press("y")
	s.Wait(t, "blacklisted "+ctl.Site.URL("/x/a"))
	s.Press("/", "esc")
	s.Wait(t, "1 best-scored queued URLs") // /x/b alone: the rest is fetched or in flight
	s.Finish(t)
	urls := app.Screen(2).(*frontier.Model).URLs()
	if len(urls) == 0 || !strings.HasSuffix(urls[0].URL, "/x/b") || urls[0].Score != 0.9 {
		t.Errorf("frontier after the edits: %+v", urls)
	}
}

func waitRow(t *testing.T, s *tuitest.Session, pattern string) {
	t.Helper()
	re := regexp.MustCompile(pattern)
	deadline := time.Now().Add(20 * time.Second)
	for !re.MatchString(s.Screen()) {
		if time.Now().After(deadline) {
			t.Fatalf("no row %s; last screen:\n%s", pattern, s.Screen())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitInFlight waits until the crawl holds n claimed URLs and none
// queued (a claimed URL shows in the status's recent fetches only once
// done, so the log is not it: the frontier's in-flight count is).
func waitInFlight(t *testing.T, ctl *tuitest.Control, n int64) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		st, err := ctl.Client.Status(context.Background(), "f1")
		if err != nil {
			t.Fatal(err)
		}
		if st.InFlight == n && st.Queued == 0 && st.Fetched >= 2 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the crawl never held %d URLs in flight with none queued: %+v", n, st)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
