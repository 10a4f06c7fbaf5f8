package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/warc/warctest"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/sparql"
)

// wallSite serves n pages whose content changes with the wall clock, page
// i every (i%4+1)·300 ms; even pages send validators and answer 304.
type wallSite struct {
	n     int
	start time.Time
	mu    sync.Mutex
	hits  map[string]int
}

func (s *wallSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var i int
	if _, err := fmt.Sscanf(r.URL.Path, "/p/%d", &i); err != nil || i < 0 || i >= s.n {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	v := int(time.Since(s.start) / (time.Duration(i%4+1) * 300 * time.Millisecond))
	if i%2 == 0 {
		etag := fmt.Sprintf(`"%d"`, v)
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.Header().Set("Content-Type", "text/html")
	fmt.Fprintf(w, "<html><body><h1>Page %d, version %d</h1>", i, v)
	if i == 0 {
		for j := 1; j < s.n; j++ {
			fmt.Fprintf(w, "<a href=\"/p/%d\">page %d</a>\n", j, j)
		}
	}
	fmt.Fprint(w, "</body></html>")
}

// TestIncrementalCrawlSurvivesKill runs an incremental crawl of a site
// whose pages keep changing with a real mneme process, SIGKILLs it at
// random moments and resumes it, until its page limit ends it. Every URL
// is still scheduled for its next visit, and every URL's history (the
// docs' query) is one chain of revisions with a single first capture,
// except for the revisits a kill can make twice (in flight, or completed
// but not synced: workers + RDF batch per kill).
func TestIncrementalCrawlSurvivesKill(t *testing.T) {
	const pages, kills, workers, batch, limit = 10, 4, 4, 8, 400
	site := &wallSite{n: pages, start: time.Now(), hits: map[string]int{}}
	srv := httptest.NewServer(site)
	defer srv.Close()
	data := t.TempDir()
	spec := fmt.Sprintf(`workers: %d
robots: ignore
rdf: {batch: %d, interval: 50ms}
limits: {pages: %d}
incremental:
  policy: ar
  waits:
    - {initial: 1s, min: 200ms, max: 3s, default: 1s, changed-factor: 1.5, unchanged-factor: 1.5}
`, workers, batch, limit)
	// 20 to 60 more crawl.log lines, then a random moment.
	crashCrawl(t, data, "incr", spec, srv.URL+"/p/0", kills, func(rng *rand.Rand) int64 { return int64(20+rng.IntN(40)) * 100 })

	// Every URL is waiting for its next visit: none was lost or done.
	f, err := frontier.Open(crawler.Layout{Data: data}.Frontier("incr"), frontier.Options{Incremental: true})
	if err != nil {
		t.Fatal(err)
	}
	tot := f.Totals()
	f.Close()
	if tot.Waiting+tot.Queued != pages || tot.Failed+tot.Disregarded != 0 {
		t.Errorf("frontier after the crawl: %+v, want %d URLs waiting", tot, pages)
	}

	// mneme crawl status --queues reports the same: one queue (the site),
	// every URL waiting, and the header predictions of its even pages.
	code, report, errOut := mneme(t, "", "crawl", "status", "--data", data, "--queues", "incr")
	if code != 0 {
		t.Fatalf("crawl status: exit %d: %s", code, errOut)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	row := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(host) + `\s+(ready|snoozed)\s+0\s+10\s+0\s+\S+Z\s+\S+Z\s+-\s+(\d+)/(\d+) right$`)
	if !strings.Contains(report, "crawl incr: finished (page limit reached") || !row.MatchString(report) {
		t.Errorf("crawl status --queues:\n%s", report)
	}
	t.Logf("crawl status --queues:\n%s", report)

	st, _ := checkArchive(t, data, "incr")
	doc, err := os.ReadFile("../../docs/incremental.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(doc), "<!-- history-query -->\n```sparql\n")
	query, _, _ := strings.Cut(rest, "```")
	broken, captures := 0, 0
	for i := range pages {
		url := fmt.Sprintf("%s/p/%d", srv.URL, i)
		q, err := sparql.Prepare(strings.Replace(query, "<http://example.org/>", "<"+url+">", 1), sparql.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := q.Exec(context.Background(), st.Snapshot())
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		n := 0
		var prev string
		for r.Next() {
			row := r.Row()
			capture, change, revises := row[0].Value, row[2].Value, row[3].Value
			switch {
			case n == 0 && (change != ontology.StatusNew || revises != ""):
				t.Errorf("%s: first capture %s is %s and revises %q", url, capture, change, revises)
			case n > 0 && revises != prev:
				// A kill lost the completion of the capture before: the
				// URL was visited again from an older history.
				broken++
				if revises != "" && !seen[revises] {
					t.Errorf("%s: capture %s revises %s, not an earlier capture of the URL", url, capture, revises)
				}
			}
			seen[capture] = true
			prev = capture
			n++
		}
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
		r.Close()
		if n < 3 {
			t.Errorf("%s: %d captures", url, n)
		}
		captures += n
	}
	if bound := kills * (workers + batch); broken > bound {
		t.Errorf("%d captures do not revise the capture before them, more than the %d a kill can redo", broken, bound)
	}
	t.Logf("%d captures of %d URLs, %d revisions redone after kills; frontier %+v", captures, pages, broken, tot)
	files, err := filepath.Glob(filepath.Join(crawler.Layout{Data: data}.WARCs("incr"), "*.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	warctest.Check(t, files...)
}
