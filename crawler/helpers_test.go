package crawler

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/mneme-archive/mneme/crawler/crawllog"
	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/crawler/warc/warctest"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/sitetest"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// site is the shared test site in its rich shape: pages /p/0 … /p/N-1,
// page i linking to 2i+1 and 2i+2 and to /p/0, with an image on every page.
type site = sitetest.Site

// newSite serves a site of n pages on 127.0.0.1 (or host, another loopback
// address, so that two sites are two politeness queues).
func newSite(t *testing.T, host string, n int) *site {
	t.Helper()
	return sitetest.Serve(t, sitetest.Options{Pages: n, Host: host, Rich: true})
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
