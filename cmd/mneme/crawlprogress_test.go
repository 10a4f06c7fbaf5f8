package main

import (
	"regexp"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler"
)

// TestCrawlProgressLine: the figures of this run (not earlier runs'),
// and an ETA only under a page limit.
func TestCrawlProgressLine(t *testing.T) {
	p := &crawlProgress{base: crawler.Status{Fetched: 100, Bytes: 1000, Errors: map[string]int64{"http 404": 2}}}
	p.began = time.Now().Add(-10 * time.Second)
	s := crawler.Status{Fetched: 130, Bytes: 2_501_000, Queued: 1234, InFlight: 3, Errors: map[string]int64{"http 404": 5, "timeout (-4)": 1}}
	plain := regexp.MustCompile(`^30 pages  \d+\.\d pages/s  1\.2k queued  3 in flight  4 errors  2\.4 MiB  \S+$`)
	if got := p.line(s); !plain.MatchString(got) {
		t.Errorf("no limit: %q", got)
	}
	p.limit = 260
	limited := regexp.MustCompile(`  [█░]{16}  50%  ETA \d+s$`) // 130 pages left at about 3 pages/s
	if got := p.line(s); !limited.MatchString(got) {
		t.Errorf("limit 260: %q", got)
	}
}
