package crawler

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"io"
	"strings"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/crawler/fetch"
	"github.com/mneme-archive/mneme/crawler/frontier"
)

// Sitemaps (sitemaps.org) are a seed source when the spec asks for them:
// each seed site's /sitemap.xml and the sitemaps its robots.txt declares
// are scheduled as inferred (I) hops from the seed, and the URLs a sitemap
// lists are its links (L), those of a sitemap index more sitemaps (I).
// They are fetched, archived and scoped like any other URL.

// maxSitemap bounds a gzipped sitemap's decompressed size (the protocol's
// limit is 50 MB).
const maxSitemap = 50 << 20

// sitemapCandidates are the sitemaps of a seed site: its /sitemap.xml and
// those declared (by robots.txt), found via the seed.
func (c *Crawl) sitemapCandidates(site string, declared []string, via string) []frontier.Candidate {
	if !c.spec.Sitemaps {
		return nil
	}
	var cands []frontier.Candidate
	sc := c.scope.Load()
	for _, raw := range append([]string{site + "/sitemap.xml"}, declared...) {
		u, err := c.canon.Parse(raw)
		if err != nil || !sc.Accepts(u, "I") {
			continue
		}
		cands = append(cands, frontier.Candidate{URL: u.Canonical, QueueKey: u.HostKey(), Hops: "I", Via: via, Score: 1, Update: c.update})
	}
	return cands
}

// seedSite returns the site (scheme://host[:port]) of u when it is a
// seed's, else "".
func (c *Crawl) seedSite(u canon.URL) string {
	for _, s := range c.seeds {
		if s.Scheme == u.Scheme && s.Host == u.Host && s.Port == u.Port {
			return siteOf(u)
		}
	}
	return ""
}

func siteOf(u canon.URL) string {
	site := u.Scheme + "://" + u.Host
	if u.Port != "" {
		site += ":" + u.Port
	}
	return site
}

// sitemapLinks reads a fetched sitemap; ok is false when the document is
// not one (a /sitemap.xml that is an HTML page, say).
func (c *Crawl) sitemapLinks(res *fetch.Result) (links []extract.Outlink, ok bool) {
	if res.Status < 200 || res.Status >= 300 || res.Body == nil {
		return nil, false
	}
	var r io.Reader = res.Body.Reader()
	head := make([]byte, 2)
	if n, _ := res.Body.ReadAt(head, 0); n == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(res.Body.Reader())
		if err != nil {
			return nil, false
		}
		r = io.LimitReader(zr, maxSitemap)
	}
	dec := xml.NewDecoder(r)
	dec.Strict = false
	var root string
	var inLoc bool
	var loc bytes.Buffer
	for {
		tok, err := dec.Token()
		if err != nil {
			if !errors.Is(err, io.EOF) && root == "" {
				return nil, false
			}
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = t.Name.Local
				if root != "urlset" && root != "sitemapindex" {
					return nil, false
				}
			}
			if t.Name.Local == "loc" {
				inLoc = true
				loc.Reset()
			}
		case xml.CharData:
			if inLoc {
				loc.Write(t)
			}
		case xml.EndElement:
			if t.Name.Local != "loc" || !inLoc {
				continue
			}
			inLoc = false
			u, err := c.canon.Resolve(res.URL, strings.TrimSpace(loc.String()))
			if err != nil {
				continue
			}
			hop := extract.Link
			if root == "sitemapindex" {
				hop = extract.Inferred
			}
			links = append(links, extract.Outlink{URL: u, Hop: hop, Context: "sitemap/loc"})
		}
	}
	return links, root != ""
}
