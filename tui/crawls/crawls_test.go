package crawls_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/internal/tuitest"
	"github.com/mneme-archive/mneme/tui"
	"github.com/mneme-archive/mneme/tui/crawls"
	"github.com/mneme-archive/mneme/tui/detail"
)

func start(t *testing.T, owned bool) (*tui.App, *tuitest.Session, *tuitest.Control) {
	t.Helper()
	ctl := tuitest.NewControl(t, 12)
	app := tui.New(tuitest.Backend(t, 0), t.TempDir(), "fixture", tui.Crawls{Client: ctl.Client, Owned: owned, Interval: 50 * time.Millisecond})
	return app, tuitest.Start(t, app), ctl
}

// row waits for the crawl's row to show state (the table pads columns).
func row(t *testing.T, s *tuitest.Session, id, state string) {
	t.Helper()
	re := regexp.MustCompile(`(?m)^` + id + ` +` + state + ` `)
	deadline := time.Now().Add(20 * time.Second)
	for !re.MatchString(s.Screen()) {
		if time.Now().After(deadline) {
			t.Fatalf("no row %s %s; last screen:\n%s", id, state, s.Screen())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestLifecycle creates a crawl from a spec file, starts, pauses,
// resumes and stops it with the screen's keys, and checks the stop
// question and the quit confirmation while it runs here.
func TestLifecycle(t *testing.T) {
	app, s, ctl := start(t, true)
	s.Wait(t, "no crawls yet")
	s.Press("?")
	s.Wait(t, "Crawls keys")
	for _, want := range []string{"new crawl from a spec file", "start (a stopped crawl resumes)", "stop (asks first)", "next/previous screen"} {
		if !strings.Contains(s.Screen(), want) {
			t.Errorf("crawls help lacks %q:\n%s", want, s.Screen())
		}
	}
	s.Press("esc")
	s.Wait(t, "no crawls yet")
	s.Press("n")
	s.Wait(t, "spec file: ")
	s.Type(ctl.Spec(t, "c1"))
	s.Press("enter")
	s.Wait(t, "created crawl c1")
	row(t, s, "c1", "stopped")
	s.Press("s")
	row(t, s, "c1", "running") // held by the site's gate
	s.Wait(t, "%")
	s.Press("p")
	row(t, s, "c1", "paused")
	s.Press("r")
	row(t, s, "c1", "running")

	s.Press("ctrl+c")
	s.Wait(t, "Quit? a crawl is running and would stop (y/n)")
	s.Press("n")
	s.Press("x")
	s.Wait(t, "Stop crawl c1? (y/n)")
	s.Press("n")
	row(t, s, "c1", "running")
	ctl.Site.Open()
	s.Press("x", "y")
	row(t, s, "c1", "stopped")
	s.Finish(t)

	m := app.Screen(0).(*crawls.Model)
	if l := m.Crawls(); len(l) != 1 || l[0].ID != "c1" || l[0].Fetched < 2 {
		t.Errorf("crawls after the stop: %+v", l)
	}
	if m.Busy() != "" {
		t.Errorf("busy %q after the stop", m.Busy())
	}
}

// TestBadSpecAndOpenDetail shows a refused spec's error, then opens a
// crawl's detail with enter.
func TestBadSpecAndOpenDetail(t *testing.T) {
	app, s, ctl := start(t, false)
	s.Press("n")
	s.Type("/nonexistent/spec.yaml")
	s.Press("enter")
	s.Wait(t, "open /nonexistent/spec.yaml: no such")
	s.Press("n")
	s.Type(ctl.Spec(t, "c2"))
	s.Press("enter")
	row(t, s, "c2", "stopped")
	s.Press("s")
	row(t, s, "c2", "running")
	s.Press("ctrl+c") // attached to a server: quitting stops nothing
	s.TM.WaitFinished(t)
	if app.Confirming() {
		t.Error("asked before quitting though the crawls run in the server")
	}

	app, s, ctl = start(t, false)
	s.Press("n")
	s.Type(ctl.Spec(t, "c3"))
	s.Press("enter")
	row(t, s, "c3", "stopped")
	s.Press("/")
	s.Type("c3")
	s.Press("enter", "enter")
	s.Wait(t, "crawl c3 · stopped")
	s.Finish(t)
	if app.Active() != 1 || app.Screen(1).(*detail.Model).Crawl() != "c3" {
		t.Errorf("enter showed screen %d", app.Active())
	}
	if strings.Contains(s.Screen(), "✗") {
		t.Errorf("detail shows an error:\n%s", s.Screen())
	}
}
