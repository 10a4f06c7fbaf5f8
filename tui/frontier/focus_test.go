package frontier_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/analysis/focus/topicweb"
	"github.com/mneme-archive/mneme/internal/tuitest"
	"github.com/mneme-archive/mneme/tui"
)

// TestFocusSteering shows a paused focused crawl on the frontier screen:
// its harvest ratio and topic terms, why a URL has its score, and new
// weights typed in, which the crawl takes.
func TestFocusSteering(t *testing.T) {
	ctl := tuitest.NewControl(t, 3)
	w := topicweb.New(topicweb.Web{Pages: 1000, Topics: 4, Seed: 2})
	site := httptest.NewServer(w.Handler())
	defer site.Close()
	seed := w.URL(site.URL, 0)
	ctl.Run(t, "fx", fmt.Sprintf("id: fx\nworkers: 1\naah: false\npoliteness: {off: true}\nrdf: {interval: 5ms}\nseeds: [%s]\nfocus: {examples: [%s]}\n", seed, seed))
	ctx := context.Background()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		st, err := ctl.Client.Status(ctx, "fx")
		if err != nil {
			t.Fatal(err)
		}
		if st.Fetched >= 20 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("fetched %d pages in a minute", st.Fetched)
		}
	}
	if _, err := ctl.Client.Do(ctx, "fx", "pause"); err != nil {
		t.Fatal(err)
	}
	app := tui.New(tuitest.Backend(t, 0), t.TempDir(), "fixture", tui.Crawls{Client: ctl.Client, Owned: false, Interval: 50 * time.Millisecond})
	s := tuitest.Start(t, app)
	s.Wait(t, "fx")
	s.Press("f")
	s.Wait(t, "harvest ")
	s.Wait(t, "a inject · w weights")
	s.Press("e")
	waitRow(t, s, `why [0-9.]+ = [a-z]+ [0-9.]+ \(`)
	s.Press("w")
	s.Wait(t, "weights: anchor=0.3 document=0.4 entities=0.1 paragraph=0.2 site=0 social=0")
	for range 80 {
		s.Press("backspace")
	}
	s.Type("anchor=1 document=0 paragraph=0 entities=0")
	s.Press("enter")
	s.Wait(t, "weights anchor=1 document=0 entities=0 paragraph=0")
	s.Finish(t)
	f, err := ctl.Client.Focus(ctx, "fx")
	if err != nil {
		t.Fatal(err)
	}
	if f.Weights["anchor"] != 1 || f.Weights["document"] != 0 {
		t.Errorf("weights after the edit: %v", f.Weights)
	}
	if _, err := ctl.Client.Do(ctx, "fx", "stop"); err != nil {
		t.Fatal(err)
	}
}
