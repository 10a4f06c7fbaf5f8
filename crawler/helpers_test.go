package crawler

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/mneme-archive/mneme/crawler/crawllog"
	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/crawler/warc/warctest"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// site is a generated test site: pages /p/0 … /p/N-1, page i linking to
// 2i+1 and 2i+2 (a binary tree, so every page is reachable from /p/0) and to
// /p/0, with an image on every page. Handlers can be overridden by path.
type site struct {
	n        int
	robots   string // robots.txt body; "" answers 404
	mu       sync.Mutex
	hits     map[string]int
	override map[string]http.HandlerFunc
	srv      *httptest.Server
}

// newSite serves a site of n pages on 127.0.0.1 (or host, another loopback
// address, so that two sites are two politeness queues).
func newSite(t *testing.T, host string, n int) *site {
	t.Helper()
	s := &site{n: n, hits: map[string]int{}, override: map[string]http.HandlerFunc{}}
	if host == "" {
		host = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", host+":0")
	if err != nil {
		t.Skipf("cannot listen on %s: %v", host, err)
	}
	s.srv = httptest.NewUnstartedServer(s)
	s.srv.Listener.Close()
	s.srv.Listener = ln
	s.srv.Start()
	t.Cleanup(s.srv.Close)
	return s
}

func (s *site) url(path string) string { return s.srv.URL + path }

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.RequestURI()]++
	h := s.override[r.URL.Path]
	s.mu.Unlock()
	if h != nil {
		h(w, r)
		return
	}
	switch {
	case r.URL.Path == "/robots.txt":
		if s.robots == "" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, s.robots)
	case r.URL.Path == "/logo.png":
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG fake image bytes"))
	case strings.HasPrefix(r.URL.Path, "/p/"):
		var i int
		if _, err := fmt.Sscanf(r.URL.Path, "/p/%d", &i); err != nil || i < 0 || i >= s.n {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><head><title>Page %d</title></head><body><img src=\"/logo.png\"><p>", i)
		for _, j := range []int{2*i + 1, 2*i + 2} {
			if j < s.n {
				fmt.Fprintf(w, "<a href=\"/p/%d\">page %d</a> ", j, j)
			}
		}
		fmt.Fprintf(w, "<a href=\"/p/0\">home</a></p></body></html>")
	default:
		http.NotFound(w, r)
	}
}

func (s *site) hitCount(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// pages lists the URLs of the site's pages and image.
func (s *site) pages() []string {
	urls := []string{s.url("/logo.png")}
	for i := range s.n {
		urls = append(urls, s.url(fmt.Sprintf("/p/%d", i)))
	}
	sort.Strings(urls)
	return urls
}

// testSpec is a spec for a crawl of seeds into a fresh data folder.
func testSpec(t *testing.T, seeds ...string) *spec.Spec {
	s := spec.Default()
	s.ID = "test"
	s.Seeds = seeds
	s.UserAgent = "mneme-test/1.0 (+https://example.org/contact)"
	s.Output = t.TempDir()
	s.Workers = 4
	s.RDF.Interval = spec.Duration(5e6)
	return s
}

// openStore opens the store of a data folder.
func openStore(t *testing.T, data string) *graph.Store {
	t.Helper()
	dir := Layout{Data: data}.Store()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := graph.Open(dir, graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// crawl runs a new crawl of s to its end and returns its final status.
func crawl(t *testing.T, s *spec.Spec, d Deps) Status {
	t.Helper()
	if d.Store == nil {
		d.Store = openStore(t, s.Output)
	}
	c, err := New(s, d)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c.Status()
}

// objects returns the values of the objects of predicate p in the crawl's
// graph, per subject value.
func objects(t *testing.T, st *graph.Store, id, p string) map[string][]string {
	t.Helper()
	ids, err := st.LookupTerms([]rdf.Term{rdf.IRI(p), rdf.IRI(crawlrdf.CrawlIRI(id))})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	if ids[0] == graph.Any || ids[1] == graph.Any {
		return out
	}
	it, err := st.Scan(context.Background(), graph.Pattern{P: ids[0], G: ids[1]}, graph.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for it.Next() {
		q := it.Quad()
		s, err := st.Term(q.S)
		if err != nil {
			t.Fatal(err)
		}
		o, err := st.Term(q.O)
		if err != nil {
			t.Fatal(err)
		}
		out[s.Value] = append(out[s.Value], o.Value)
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// capturedURLs lists the URLs of the crawl's captures with an HTTP status,
// one entry per capture, sorted.
func capturedURLs(t *testing.T, st *graph.Store, id string) []string {
	t.Helper()
	status := objects(t, st, id, ontology.HTTPStatus)
	var urls []string
	for capt, u := range objects(t, st, id, ontology.URL) {
		if len(status[capt]) > 0 {
			urls = append(urls, u...)
		}
	}
	sort.Strings(urls)
	return urls
}

// readLog reads a crawl's crawl.log.
func readLog(t *testing.T, data, id string) []crawllog.Entry {
	t.Helper()
	f, err := os.Open(Layout{Data: data}.CrawlLog(id))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var es []crawllog.Entry
	r := crawllog.NewReader(f, "crawl.log")
	for {
		e, err := r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return es
			}
			t.Fatal(err)
		}
		es = append(es, e)
	}
}

// warcFiles lists a crawl's WARC files.
func warcFiles(t *testing.T, data, id string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(Layout{Data: data}.WARCs(id), "*.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no WARC files written")
	}
	return paths
}

// verifyWARCs runs the independent verifier on every WARC file of a crawl.
func verifyWARCs(t *testing.T, data, id string) {
	t.Helper()
	warctest.Check(t, warcFiles(t, data, id)...)
}
