package crawler

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"testing"
)

// TestSitemapsSeedSource crawls a site whose robots.txt declares a sitemap
// index (pointing to a gzipped sitemap) and which serves /sitemap.xml:
// with sitemaps on, the pages only the sitemaps list are crawled, as
// inferred hops from the seed; with sitemaps off they are not.
func TestSitemapsSeedSource(t *testing.T) {
	s := newSite(t, "", 3)
	urlset := func(paths ...string) []byte {
		var b bytes.Buffer
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, p := range paths {
			fmt.Fprintf(&b, "<url><loc> %s </loc><lastmod>2026-01-01</lastmod></url>", s.URL(p))
		}
		b.WriteString("</urlset>")
		return b.Bytes()
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(urlset("/hidden/1", "/hidden/2"))
	zw.Close()
	serve := func(typ string, body []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", typ)
			w.Write(body)
		}
	}
	page := serve("text/html", []byte("<html><body>listed only in a sitemap</body></html>"))
	s.Robots = "User-agent: *\nDisallow: /private/\nSitemap: " + s.URL("/maps/index.xml") + "\n"
	s.Lock()
	s.Override["/sitemap.xml"] = serve("application/xml", urlset("/orphan", "/p/1"))
	s.Override["/maps/index.xml"] = serve("text/xml", []byte(`<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>`+
		s.URL("/maps/a.xml.gz")+`</loc></sitemap></sitemapindex>`))
	s.Override["/maps/a.xml.gz"] = serve("application/gzip", gz.Bytes())
	for _, p := range []string{"/orphan", "/hidden/1", "/hidden/2"} {
		s.Override[p] = page
	}
	s.Unlock()
	for _, on := range []bool{true, false} {
		sp := testSpec(t, s.URL("/p/0"))
		sp.Politeness.Off, sp.Sitemaps, sp.Scope.SeedHosts = true, on, true
		crawl(t, sp, Deps{})
		hops := map[string]string{}
		for _, e := range readLog(t, sp.Output, "test") {
			hops[e.URI] = e.HopPath
		}
		want := map[string]string{
			"/sitemap.xml": "I", "/maps/index.xml": "I", "/maps/a.xml.gz": "II",
			"/orphan": "IL", "/hidden/1": "IIL", "/hidden/2": "IIL",
		}
		for p, h := range want {
			got, ok := hops[s.URL(p)]
			switch {
			case on && got != h:
				t.Errorf("sitemaps on: %s hop path %q (fetched %v), want %q", p, got, ok, h)
			case !on && ok:
				t.Errorf("sitemaps off: %s fetched", p)
			}
		}
		if on {
			verifyWARCs(t, sp.Output, "test")
		}
	}
}
