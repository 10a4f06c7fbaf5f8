package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// treeSite serves pages /p/0 … /p/n-1 on 127.0.0.1, page i linking to 2i+1
// and 2i+2, so all are reachable from /p/0.
func treeSite(t *testing.T, n int) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var i int
		if _, err := fmt.Sscanf(r.URL.Path, "/p/%d", &i); err != nil || i < 0 || i >= n {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><body><h1>Page %d</h1>", i)
		for _, j := range []int{2*i + 1, 2*i + 2} {
			if j < n {
				fmt.Fprintf(w, "<a href=\"/p/%d\">page %d</a>\n", j, j)
			}
		}
		fmt.Fprint(w, "</body></html>")
	}))
	t.Cleanup(srv.Close)
	return srv
}

var summaryRE = regexp.MustCompile(`^crawl (\S+) (finished|stopped): (\d+) pages, (\d+) bytes, [0-9.]+ s, [0-9.]+ pages/s( \(\d+ pages in all runs\))?\n$`)

// TestCrawlCommand crawls a local site and checks the one-line summary;
// resuming the finished crawl is refused.
func TestCrawlCommand(t *testing.T) {
	srv := treeSite(t, 40)
	data := t.TempDir()
	code, out, errOut := mneme(t, "", "crawl", "--data", data, "--id", "cli", "--politeness", "off", srv.URL+"/p/0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := summaryRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("summary %q does not match %s", out, summaryRE)
	}
	// 40 pages and robots.txt (a 404).
	if m[1] != "cli" || m[2] != "finished" || m[3] != "41" {
		t.Errorf("summary %q: want crawl cli finished with 41 pages", out)
	}
	code, _, errOut = mneme(t, "", "crawl", "resume", "--data", data, "cli")
	if code != 1 || !strings.Contains(errOut, "already finished") {
		t.Errorf("resume of a finished crawl: exit %d, %q", code, errOut)
	}
	code, _, errOut = mneme(t, "", "crawl", "--data", data, "--id", "cli", "--politeness", "off", srv.URL+"/p/0")
	if code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("second crawl with the same id: exit %d, %q", code, errOut)
	}
}

// TestCrawlPolitenessOffNeedsLoopback refuses --politeness off for a seed
// that is not on a loopback address, before anything is fetched.
func TestCrawlPolitenessOffNeedsLoopback(t *testing.T) {
	data := t.TempDir()
	code, _, errOut := mneme(t, "", "crawl", "--data", data, "--politeness", "off", "http://127.0.0.1:1/", "http://example.org/")
	if code != 1 || !strings.Contains(errOut, "politeness off is only allowed when every seed is on a loopback address; seeds[1] is on example.org") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = mneme(t, "", "crawl", "--data", data, "--politeness", "sometimes", "http://127.0.0.1:1/")
	if code != 2 {
		t.Errorf("--politeness sometimes: exit %d, want 2 (%q)", code, errOut)
	}
}
