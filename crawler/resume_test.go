package crawler

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mneme-archive/mneme/crawler/spec"
)

// stoppedCrawl runs a crawl of a 200-page site and stops it after 60 fetches.
func stoppedCrawl(t *testing.T) (*site, *spec.Spec, Deps) {
	t.Helper()
	site := newSite(t, "", 200)
	s := testSpec(t, site.url("/p/0"))
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
// fetched exactly once over both runs.
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
	for _, u := range site.pages() {
		if n := site.hitCount(strings.TrimPrefix(u, site.srv.URL)); n != 1 {
			t.Errorf("%s fetched %d times", u, n)
		}
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
