package control

import (
	"os"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/internal/synthweb"
)

// TestAAHCrawls crawls the synthetic blog (WordPress markup) through the
// Manager: by default with the application-aware helper, as mneme crawl
// does (pages annotated with the application and level, no tag archive
// fetched), and with the generic extractor when the spec says aah: false.
func TestAAHCrawls(t *testing.T) {
	d, err := synthweb.StartDemo()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	s := newServer(t)
	for _, tc := range []struct {
		id, extra string
		aah       bool
	}{{"with", "limits: {pages: 400}\n", true}, {"without", "aah: false\nlimits: {pages: 120}\n", false}} {
		if _, err := s.m.Create(append(specYAML(tc.id, d.Blog+"/"), tc.extra...)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.m.Start(tc.id); err != nil {
			t.Fatal(err)
		}
		s.m.mu.Lock()
		e := s.m.open[tc.id]
		s.m.mu.Unlock()
		<-e.done
		log, err := os.ReadFile(crawler.Layout{Data: s.data}.CrawlLog(tc.id))
		if err != nil {
			t.Fatal(err)
		}
		posts := strings.Count(string(log), " app:wordpress/post")
		tags := strings.Count(string(log), "/tag/")
		t.Logf("crawl %s: %d post pages annotated, %d tag archive lines", tc.id, posts, tags)
		if tc.aah && (posts < 40 || tags > 0) {
			t.Errorf("crawl %s (AAH on by default): %d post pages annotated, %d tag archive lines; want the 48 posts and no tag archive", tc.id, posts, tags)
		}
		if !tc.aah && (posts > 0 || tags == 0) {
			t.Errorf("crawl %s (aah: false): %d post pages annotated, %d tag archive lines; want none annotated and the tag archives fetched", tc.id, posts, tags)
		}
	}
}
