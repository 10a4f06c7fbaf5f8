package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler"
)

// TestQueryAndStatusDuringCrawl runs mneme crawl in its own process on a
// site whose last page answers only when the test lets it, and while the
// crawl holds the data folder asks mneme query --store and mneme crawl
// status: both answer through the server the crawl runs, the query with
// the captures committed so far. Once the crawl ends its note is gone
// and the store opens directly again.
func TestQueryAndStatusDuringCrawl(t *testing.T) {
	release := make(chan struct{})
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/p/0":
			fmt.Fprint(w, `<html><body><a href="/p/1">one</a> <a href="/p/2">two</a> <a href="/p/3">three</a></body></html>`)
		case "/p/1", "/p/2":
			fmt.Fprint(w, `<html><body>a page</body></html>`)
		case "/p/3":
			select {
			case <-release:
			case <-r.Context().Done():
			}
			fmt.Fprint(w, `<html><body>at last</body></html>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer site.Close()
	released := false
	defer func() {
		if !released {
			close(release)
		}
	}()

	data := t.TempDir()
	store := crawler.Layout{Data: data}.Store()
	crawl, out := startMneme(t, "crawl", "--data", data, "--id", "live", "--politeness", "off", "--robots", "ignore", "--no-aah", site.URL+"/p/0")
	exited := make(chan error, 1)
	go func() { exited <- crawl.Wait() }()
	defer func() {
		if crawl.ProcessState == nil {
			_ = crawl.Process.Kill()
			<-exited
		}
	}()
	note := filepath.Join(store, servedURLFile)
	waitFor(t, exited, out, "the crawl's note", func() bool { _, err := os.Stat(note); return err == nil })

	// The three pages before /p/3 are captured and committed while
	// /p/3 holds the crawl.
	const count = "SELECT (COUNT(DISTINCT ?u) AS ?n) WHERE { ?c <https://w3id.org/mneme#url> ?u }"
	var errOut string
	waitFor(t, exited, out, "three captures in a query", func() bool {
		var code int
		var got string
		code, got, errOut = mneme(t, "", "query", "--store", store, "--format", "csv", count)
		n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(got, "n\r\n")))
		return code == 0 && n == 3
	})
	if !strings.Contains(errOut, "held by another mneme process") {
		t.Errorf("query during the crawl: stderr %q", errOut)
	}
	code, status, errOut := mneme(t, "", "crawl", "status", "--data", data, "live")
	if code != 0 || !strings.HasPrefix(status, "crawl live: running") || !strings.Contains(status, "3 visits succeeded") ||
		!strings.Contains(errOut, "held by another mneme process") {
		t.Errorf("crawl status during the crawl: exit %d, %q, stderr %q", code, status, errOut)
	}

	close(release)
	released = true
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("mneme crawl: %v\n%s", err, out)
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("mneme crawl did not end:\n%s", out)
	}
	if _, err := os.Stat(note); !os.IsNotExist(err) {
		t.Errorf("the crawl's note outlives it: %v", err)
	}
	code, got, errOut := mneme(t, "", "query", "--store", store, "--format", "csv", count)
	if code != 0 || got != "n\r\n4\r\n" || errOut != "" {
		t.Errorf("query after the crawl: exit %d, %q, stderr %q", code, got, errOut)
	}
}

// waitFor polls cond until it holds, failing the test if the process
// whose exit exited reports ends first (its output in out) or a minute
// passes.
func waitFor(t *testing.T, exited chan error, out fmt.Stringer, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after a minute:\n%s", what, out)
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("mneme exited (%v) before %s:\n%s", err, what, out)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
