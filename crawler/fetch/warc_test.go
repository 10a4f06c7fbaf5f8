package fetch

import (
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler/warc"
)

// TestResultsPlugIntoWARC writes fetches through crawler/warc: a chunked,
// gzip-coded page keeps its digest, a page cut at the size limit is marked
// truncated and gets none.
func TestResultsPlugIntoWARC(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/big" {
			w.Write([]byte(strings.Repeat("big ", 100000)))
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		for range 50 {
			zw.Write([]byte("<p>chunk after chunk</p>\n"))
			zw.Flush()
			w.(http.Flusher).Flush() // forces chunked transfer coding
		}
		zw.Close()
	}))
	defer srv.Close()
	f := newFetcher(t, Config{MaxBodySize: 64 << 10})
	ww, err := warc.NewWriter(warc.Config{Dir: t.TempDir(), CrawlID: "fetch-test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/page", "/big"} {
		res := fetch(t, f, srv.URL+path)
		if res.Status != 200 {
			t.Fatalf("%s: status %d: %v", path, res.Status, res.Err)
		}
		if path == "/page" && !strings.Contains(readAll(t, res.Response.Reader()), "Transfer-Encoding: chunked\r\n") {
			t.Fatalf("%s: not chunked, the test proves nothing", path)
		}
		c, err := ww.WriteExchange(warc.Exchange{URL: res.URL.Href, Date: res.Start, IP: res.IP,
			Request: res.Request, Response: res.Response, Truncated: res.Truncated})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		want := res.Digest
		if res.Truncated != "" {
			want = ""
		}
		if c.PayloadDigest != want {
			t.Errorf("%s: WARC payload digest %q, fetch digest %q (truncated %q)", path, c.PayloadDigest, res.Digest, res.Truncated)
		}
	}
	if err := ww.Close(); err != nil {
		t.Fatal(err)
	}
}
