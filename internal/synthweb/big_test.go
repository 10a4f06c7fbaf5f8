package synthweb

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/extract"
)

// TestBigSiteCrawl crawls a generated site breadth first with the
// crawler's extractor and checks that every page is reachable, that
// pages have the promised sizes and link counts, and that the crawl
// fetches exactly URLs() URLs.
func TestBigSiteCrawl(t *testing.T) {
	const pages = 1500
	s := NewBigSite(BigOptions{Pages: pages})
	o := s.Options()
	for _, p := range s.paras {
		if len(p) > bigParagraphMax {
			t.Fatalf("paragraph of %d bytes, more than bigParagraphMax", len(p))
		}
	}
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := ServeOn(ln, s)
	defer srv.Close()

	c := canon.New(canon.Options{})
	ex := extract.New(extract.Options{Canonicalizer: c})
	root, err := c.Parse(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	robots, _ := c.Parse(srv.URL + "/robots.txt")
	seen := map[string]bool{root.Canonical: true, robots.Canonical: true}
	queue := []canon.URL{robots, root}
	pagesSeen := 0
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		p := fetch(t, u.Href)
		if p.status != http.StatusOK {
			t.Fatalf("%s: status %d", u.Href, p.status)
		}
		mt, _, _ := strings.Cut(p.header.Get("Content-Type"), ";")
		if mt == "text/html" {
			pagesSeen++
			if len(p.body) < o.MinBytes || len(p.body) > o.MaxBytes {
				t.Errorf("%s: %d bytes, want %d to %d", u.Href, len(p.body), o.MinBytes, o.MaxBytes)
			}
			if n := bytes.Count(p.body, []byte("<a href=")) - 1; n < o.MinLinks || n > o.MaxLinks { // less the header's link home
				t.Errorf("%s: %d links, want %d to %d", u.Href, n, o.MinLinks, o.MaxLinks)
			}
		}
		links, err := ex.Extract(extract.Document{URL: u, MediaType: mt, Body: bytes.NewReader(p.body)})
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range links {
			if !seen[l.URL.Canonical] {
				seen[l.URL.Canonical] = true
				queue = append(queue, l.URL)
			}
		}
	}
	if pagesSeen != pages || len(seen) != s.URLs() {
		t.Errorf("crawl found %d pages and %d URLs, want %d and %d", pagesSeen, len(seen), pages, s.URLs())
	}
}

func TestBigSitePaths(t *testing.T) {
	s := NewBigSite(BigOptions{Pages: 3000})
	get := func(p string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
		return rec
	}
	for _, i := range []int{0, 1, 999, 1000, 2999} {
		if rec := get(s.Path(i)); rec.Code != http.StatusOK {
			t.Errorf("page %d at %s: status %d", i, s.Path(i), rec.Code)
		}
	}
	for _, p := range []string{"/s/0/0.html", "/s/1/5.html", "/s/0/05.html", "/s/3/3000.html", "/s/0/-1.html", "/index.html", "/s/0/"} {
		if rec := get(p); rec.Code != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, rec.Code)
		}
	}
	// The same options give the same bytes, whatever was served before.
	again := NewBigSite(BigOptions{Pages: 3000})
	for _, i := range []int{7, 1234} {
		a, b := get(s.Path(i)), httptest.NewRecorder()
		again.ServeHTTP(b, httptest.NewRequest(http.MethodGet, s.Path(i), nil))
		if !bytes.Equal(a.Body.Bytes(), b.Body.Bytes()) {
			t.Errorf("page %d differs between two sites of the same options", i)
		}
	}
}

// BenchmarkBigSiteRender measures the server side of a page, which must
// stay far below a crawler's cost per page.
func BenchmarkBigSiteRender(b *testing.B) {
	s := NewBigSite(BigOptions{})
	buf := make([]byte, 0, 64<<10)
	var n int
	for i := 0; b.Loop(); i++ {
		buf = s.render(buf[:0], i%s.opts.Pages)
		n += len(buf)
	}
	b.SetBytes(int64(n / b.N))
}
