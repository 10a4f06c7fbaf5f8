package crawler

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/spec"
)

// stoppedCrawl runs a crawl of a 200-page site and stops it after 60 fetches.
func stoppedCrawl(t *testing.T) (*site, *spec.Spec, Deps) {
	t.Helper()
	site := newSite(t, "", 200)
	s := testSpec(t, site.URL("/p/0"))
	s.Politeness.Off = true
	s.WARC.MaxSize = 20000 // several files
	d := Deps{Store: openStore(t, s.Output)}
	var n atomic.Int64
	var c *Crawl
	d.OnFetch = func(Fetch) {
		if n.Add(1) == 60 {
			c.Stop()
		}
	}
	c, err := New(s, d)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := c.Status(); st.State != StateStopped || st.Fetched < 60 || st.Fetched > 100 {
		t.Fatalf("after Stop: %s (%s), %d fetched", st.State, st.Reason, st.Fetched)
	}
	d.OnFetch = nil
	return site, s, d
}

// TestStopAndResume stops a crawl and resumes it with Open: every page is
// captured exactly once over both runs, and fetched again only when Stop
// cut its fetch short.
func TestStopAndResume(t *testing.T) {
	site, s, d := stoppedCrawl(t)
	c, err := Open(s.Output, s.ID, d)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := c.Status(); st.State != StateFinished || st.Fetched != 203 {
		t.Errorf("after resume: %s (%s), %d fetched; want finished, 203 (200 pages, the image, robots.txt twice)", st.State, st.Reason, st.Fetched)
	}
	extra := 0
	for _, u := range site.URLs() {
		n := site.Hits(strings.TrimPrefix(u, site.URL("")))
		if n == 0 {
			t.Errorf("%s never fetched", u)
		}
		extra += max(n-1, 0)
	}
	if extra > s.Workers { // only fetches cut short by Stop are repeated
		t.Errorf("%d pages fetched again, more than the %d workers", extra, s.Workers)
	}
	rep, err := CheckArchive(context.Background(), s.Output, s.ID, d.Store)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) > 0 || rep.Captures != 203 {
		t.Errorf("archive: %d captures, problems %v", rep.Captures, rep.Problems)
	}
	verifyWARCs(t, s.Output, s.ID)
}

// TestResumeDropsCutCaptures damages the last WARC file as a crash in the
// middle of a write would (left open, its tail cut): Open repairs it and
// drops the captures that pointed into the cut part, so the RDF never
// names a missing record.
func TestResumeDropsCutCaptures(t *testing.T) {
	_, s, d := stoppedCrawl(t)
	files := warcFiles(t, s.Output, s.ID)
	last := files[len(files)-1]
	fi, err := os.Stat(last)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(last, fi.Size()-100); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(last, last+".open"); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	d.Log = &log
	c, err := Open(s.Output, s.ID, d)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !strings.Contains(log.String(), "dropped 1 captures whose WARC records were cut off") {
		t.Errorf("recovery log: %q", log.String())
	}
	rep, err := CheckArchive(context.Background(), s.Output, s.ID, d.Store)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) > 0 {
		t.Errorf("after recovery: %v", rep.Problems)
	}
	verifyWARCs(t, s.Output, s.ID)
}

// TestPauseResume pauses a crawl after 10 fetches: once the fetches under
// way are done nothing is fetched until Resume, and the crawl then ends
// normally.
func TestPauseResume(t *testing.T) {
	site := newSite(t, "", 60)
	s := testSpec(t, site.URL("/p/0"))
	s.Politeness.Off = true
	var n atomic.Int64
	var quiet atomic.Bool
	var c *Crawl
	states := make(chan string, 1)
	d := Deps{Store: openStore(t, s.Output), OnFetch: func(f Fetch) {
		if quiet.Load() {
			t.Errorf("%s fetched while paused", f.URL)
		}
		if n.Add(1) != 10 {
			return
		}
		c.Pause()
		go func() {
			for c.Status().InFlight > 0 {
				time.Sleep(time.Millisecond)
			}
			states <- c.Status().State
			quiet.Store(true)
			time.Sleep(100 * time.Millisecond) // room for a wrong claim
			quiet.Store(false)
			c.Resume()
		}()
	}}
	c, err := New(s, d)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := <-states; st != StatePaused {
		t.Errorf("state while paused: %s", st)
	}
	if st := c.Status(); st.State != StateFinished || st.Fetched != 62 {
		t.Errorf("after resume: %s, %d fetched; want finished, 62", st.State, st.Fetched)
	}
}
