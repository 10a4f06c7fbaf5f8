package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler"
)

// hostileSite is a web server that attacks crawlers, one case a path:
// an endless redirect chain, a redirect loop, a gzip bomb, an endless
// body, a page of 100,000 links, a calendar trap, a 50 MB robots.txt,
// URLs that flap between 503 and 429 before answering, a 503 with a
// Retry-After of 30 days, a 1 MB response header and a body trickling in.
// It counts the requests per case.
type hostileSite struct {
	bomb []byte // gzip of 100 MB of zeros
	mu   sync.Mutex
	hits map[string]int
}

func newHostileSite(t *testing.T) *hostileSite {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for range 100 {
		zw.Write(zeros)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return &hostileSite{bomb: b.Bytes(), hits: map[string]int{}}
}

func (s *hostileSite) count(kind string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[kind]
}

func (s *hostileSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	kind, rest, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	s.mu.Lock()
	s.hits[kind]++
	n := s.hits[p]
	s.hits[p]++
	s.mu.Unlock()
	html := func(body string) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body>"+body+"</body></html>")
	}
	switch kind {
	case "":
		var links strings.Builder
		for _, l := range []string{"/redir/0", "/loop/a", "/bomb/x", "/endless/x", "/links/x", "/cal/2026/1",
			"/flap/1", "/flap/2", "/flap/3", "/forever/x", "/headers/x", "/trickle/x"} {
			fmt.Fprintf(&links, "<a href=%q>%s</a>\n", l, l)
		}
		html(links.String())
	case "robots.txt":
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		line := []byte("# " + strings.Repeat("x", 1021) + "\n")
		for range 50 << 10 { // 50 MB
			if _, err := w.Write(line); err != nil {
				return
			}
		}
	case "redir": // /redir/N -> /redir/N+1, without end
		i, _ := strconv.Atoi(rest)
		http.Redirect(w, r, fmt.Sprintf("/redir/%d", i+1), http.StatusFound)
	case "loop":
		next := map[string]string{"a": "/loop/b", "b": "/loop/a"}[rest]
		http.Redirect(w, r, next, http.StatusFound)
	case "bomb":
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(s.bomb)
	case "endless":
		w.Header().Set("Content-Type", "text/html")
		chunk := bytes.Repeat([]byte("<p>more</p>\n"), 1<<12)
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	case "links": // 50,000 links out of scope, 50,000 to itself
		var b strings.Builder
		for i := range 50000 {
			fmt.Fprintf(&b, "<a href=\"http://127.0.0.2:9/out/%d\">o</a><a href=\"/links/x#%d\">s</a>\n", i, i)
		}
		html(b.String())
	case "cal": // /cal/Y/M links to the next month, for ever
		var y, m int
		fmt.Sscanf(rest, "%d/%d", &y, &m)
		if m++; m > 12 {
			y, m = y+1, 1
		}
		html(fmt.Sprintf("<a href=\"/cal/%d/%d\">next month</a>", y, m))
	case "flap": // 503, then 429, then the page
		switch n {
		case 0:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
		case 1:
			w.WriteHeader(http.StatusTooManyRequests)
		default:
			html("at last")
		}
	case "forever":
		w.Header().Set("Retry-After", strconv.Itoa(30*24*3600))
		w.WriteHeader(http.StatusServiceUnavailable)
	case "headers":
		w.Header().Set("X-Big", strings.Repeat("h", 1<<20))
		html("big head")
	case "trickle":
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusOK)
		for {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	default:
		http.NotFound(w, r)
	}
}

// TestCrawlHostileSite crawls the hostile site with a real mneme process
// and politeness off (with the spec's short retry waits and a 2 s
// minimum-rate window): the crawl finishes, within 2 minutes, with a peak
// RSS under 1 GB and a crawl.log under 10 MB, and each attack is bounded
// as the crawler's rules say.
func TestCrawlHostileSite(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls a hostile site (about 20 s)")
	}
	site := newHostileSite(t)
	srv := httptest.NewServer(site)
	defer srv.Close()
	data := t.TempDir()
	specFile := filepath.Join(t.TempDir(), "spec.yaml")
	spec := "workers: 4\npoliteness:\n  max-retries: 3\n  max-retry-delay: 1s\nfetch:\n  min-rate-window: 2s\n"
	if err := os.WriteFile(specFile, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cmd, out := startMneme(t, "crawl", "--spec", specFile, "--data", data, "--id", "hostile", "--politeness", "off", srv.URL+"/")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("crawl: %v\n%s", err, out)
		}
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("the crawl did not finish within 2 minutes:\n%s", out)
	}
	took := time.Since(start)
	if !strings.Contains(out.String(), "crawl hostile finished:") {
		t.Fatalf("the crawl did not finish:\n%s", out)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // kilobytes on Linux
	fi, err := os.Stat(crawler.Layout{Data: data}.CrawlLog("hostile"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for k, n := range site.hits {
		if !strings.HasPrefix(k, "/") {
			kinds[k] = n
		}
	}
	t.Logf("finished in %v, peak RSS %d MB, crawl.log %d bytes; requests per case %v", took.Round(time.Millisecond), rss>>20, fi.Size(), kinds)
	if rss > 1<<30 {
		t.Errorf("peak RSS %d MB, over 1 GB", rss>>20)
	}
	if fi.Size() > 10<<20 {
		t.Errorf("crawl.log is %d bytes, over 10 MB", fi.Size())
	}
	log, err := os.ReadFile(crawler.Layout{Data: data}.CrawlLog("hostile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind     string
		min, max int
	}{
		{"redir", 2, 21},  // max-hops 20 counts the redirects; max-redirects 20
		{"loop", 2, 2},    // each URL once
		{"cal", 2, 20},    // max-hops 20
		{"links", 1, 1},   // its 50,000 fragments are itself, its other links out of scope
		{"flap", 9, 9},    // each of 3 URLs: 503, 429, then the page
		{"forever", 4, 4}, // the first try and max-retries 3, each within max-retry-delay
		{"bomb", 1, 1}, {"endless", 1, 1}, {"headers", 1, 4}, {"trickle", 1, 1},
	} {
		if n := site.count(c.kind); n < c.min || n > c.max {
			t.Errorf("/%s/…: %d requests, want %d to %d", c.kind, n, c.min, c.max)
		}
	}
	for _, want := range []string{
		srv.URL + "/flap/3 L " + srv.URL + "/ text/html", // captured at last
		"lenTrunc",  // the endless body, cut at the size limit
		"timeTrunc", // the trickling body, cut under the minimum rate
	} {
		if !bytes.Contains(log, []byte(want)) {
			t.Errorf("crawl.log lacks %q", want)
		}
	}
}
