package aah_test

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"golang.org/x/net/html"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/crawllog"
	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/crawler/warc"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/aah"
	"github.com/mneme-archive/mneme/rdf"
)

// page is an HTML page of a crawl: its URL and its text blocks.
type page struct {
	url    string
	blocks []string
	links  []string // absolute href targets of <a>, without fragment
}

// blockTags end a block of text.
var blockTags = map[string]bool{
	"p": true, "div": true, "li": true, "ul": true, "ol": true, "h1": true, "h2": true, "h3": true, "h4": true,
	"h5": true, "h6": true, "td": true, "th": true, "tr": true, "table": true, "article": true, "section": true,
	"header": true, "footer": true, "nav": true, "aside": true, "main": true, "blockquote": true, "pre": true,
	"br": true, "dd": true, "dt": true, "dl": true, "figcaption": true, "figure": true, "form": true, "body": true,
	"address": true, "hr": true, "label": true, "button": true, "option": true, "select": true,
}

// skipTags hold no visible text.
var skipTags = map[string]bool{"head": true, "script": true, "style": true, "noscript": true, "template": true, "svg": true, "textarea": true}

// parsePage reads the text blocks (whitespace collapsed) and the links of
// an HTML page fetched from base.
func parsePage(base string, body []byte) (page, error) {
	p := page{url: base}
	root, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return p, err
	}
	bu, err := url.Parse(base)
	if err != nil {
		return p, err
	}
	var cur strings.Builder
	flush := func() {
		if s := strings.Join(strings.Fields(cur.String()), " "); s != "" {
			p.blocks = append(p.blocks, s)
		}
		cur.Reset()
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			cur.WriteString(n.Data)
			return
		case html.ElementNode:
			if skipTags[n.Data] {
				return
			}
			if n.Data == "a" {
				for _, a := range n.Attr {
					if a.Key == "href" {
						if u, err := bu.Parse(strings.TrimSpace(a.Val)); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
							u.Fragment, u.RawFragment = "", ""
							p.links = append(p.links, u.String())
						}
					}
				}
			}
		}
		block := n.Type == html.ElementNode && blockTags[n.Data]
		if block {
			flush()
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if block {
			flush()
		}
	}
	walk(root)
	flush()
	return p, nil
}

// boilerplate returns the blocks found on at least half of the pages:
// menus, footers, sidebars, which the paper leaves out of the comparison.
func boilerplate(pages []page) map[string]bool {
	count := map[string]int{}
	for _, p := range pages {
		seen := map[string]bool{}
		for _, b := range p.blocks {
			if !seen[b] {
				seen[b] = true
				count[b]++
			}
		}
	}
	out := map[string]bool{}
	for b, n := range count {
		if 2*n >= len(pages) {
			out[b] = true
		}
	}
	return out
}

// bigrams adds to set the word 2-grams of the blocks not in skip, words
// being lower-cased runs of letters and digits; a 2-gram does not span
// two blocks.
func bigrams(set map[string]bool, blocks []string, skip map[string]bool) {
	for _, b := range blocks {
		if skip[b] {
			continue
		}
		words := strings.FieldsFunc(strings.ToLower(b), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		for i := 1; i < len(words); i++ {
			set[words[i-1]+" "+words[i]] = true
		}
	}
}

// coverage is the share of want's keys that got has, with up to five
// missing ones as examples.
func coverage(want, got map[string]bool) (float64, []string) {
	if len(want) == 0 {
		return 0, nil
	}
	hit := 0
	var missing []string
	for k := range want {
		if got[k] {
			hit++
		} else if len(missing) < 5 {
			missing = append(missing, k)
		}
	}
	return float64(hit) / float64(len(want)), missing
}

// external returns the link targets of the pages on hosts other than host.
func external(pages []page, host string) map[string]bool {
	out := map[string]bool{}
	for _, p := range pages {
		for _, l := range p.links {
			if u, err := url.Parse(l); err == nil && u.Host != host {
				out[l] = true
			}
		}
	}
	return out
}

// aahCrawl is the outcome of a crawl with the application-aware helper.
type aahCrawl struct {
	id       string
	data     string
	store    *graph.Store
	helper   *aah.Helper
	log      []crawllog.Entry
	requests int // HTTP requests made (crawl.log lines with a status)
	pages    []page
	took     time.Duration
}

// crawlWithAAH crawls from the seeds with the helper and the built-in KB,
// politeness off, and reads back its crawl.log and the HTML pages of its
// WARC files. The crawl must end within limit.
func crawlWithAAH(t *testing.T, limit time.Duration, seeds ...string) *aahCrawl {
	t.Helper()
	data := t.TempDir()
	l := crawler.Layout{Data: data}
	st, err := l.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	k, err := kb.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var logBuf bytes.Buffer
	h := aah.New(kb.NewDetector(k, nil), aah.Options{Log: &logBuf})
	s := spec.Default()
	s.ID, s.Output, s.Seeds = "aah-test", data, seeds
	s.UserAgent = "mneme-test/1.0 (+https://github.com/mneme-archive/mneme)"
	s.Politeness.Off = true
	c, err := crawler.New(s, crawler.Deps{Store: st, Analyzer: h, Log: &logBuf})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	start := time.Now()
	err = c.Run(ctx)
	r := &aahCrawl{id: s.ID, data: data, store: st, helper: h, took: time.Since(start)}
	if err != nil {
		t.Fatalf("crawl of %s did not end within %s: %v\n%s", seeds, limit, err, logBuf.String())
	}
	if st := c.Status(); st.State != crawler.StateFinished {
		t.Fatalf("crawl of %s %s, not finished, after %s", seeds, st.State, r.took)
	}
	t.Logf("helper log:\n%s", logBuf.String())
	r.log = readCrawlLog(t, l.CrawlLog(s.ID))
	for _, e := range r.log {
		if e.Status > 0 {
			r.requests++
		}
	}
	r.pages = warcPages(t, l.WARCs(s.ID))
	return r
}

func readCrawlLog(t *testing.T, path string) []crawllog.Entry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []crawllog.Entry
	r := crawllog.NewReader(f, path)
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
}

// warcPages reads the HTML responses of the WARC files in dir.
func warcPages(t *testing.T, dir string) []page {
	t.Helper()
	var out []page
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(d.Name(), ".warc") {
			return err
		}
		recs, err := warc.ReadFile(path)
		if err != nil {
			return err
		}
		for _, r := range recs {
			if r.Type() != "response" {
				continue
			}
			resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(r.Block)), nil)
			if err != nil {
				return err
			}
			if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
				continue
			}
			body, err := decoded(resp)
			if err != nil {
				return err
			}
			p, err := parsePage(r.Header.Get("WARC-Target-URI"), body)
			if err != nil {
				return err
			}
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// decoded reads a response body as sent, undoing its content coding.
func decoded(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	var r io.Reader = resp.Body
	switch resp.Header.Get("Content-Encoding") {
	case "gzip":
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, err
		}
		r = zr
	case "deflate":
		r = flate.NewReader(resp.Body)
	}
	return io.ReadAll(r)
}

// subjects holds a graph's statements: subject → predicate → objects.
type subjects map[string]map[string][]rdf.Term

func (s subjects) one(subj, pred string) string {
	if vs := s[subj][pred]; len(vs) > 0 {
		return vs[0].Value
	}
	return ""
}

// typed returns the subjects with rdf:type class.
func (s subjects) typed(class string) []string {
	var out []string
	for subj, ps := range s {
		for _, o := range ps[rdf.RDFType] {
			if o.Value == class {
				out = append(out, subj)
			}
		}
	}
	return out
}

// readGraph loads the crawl's graph (distinct statements).
func readGraph(t *testing.T, st *graph.Store, id string) subjects {
	t.Helper()
	gid, err := st.LookupTerms([]rdf.Term{rdf.IRI(crawlrdf.CrawlIRI(id))})
	if err != nil {
		t.Fatal(err)
	}
	if gid[0] == graph.Any {
		t.Fatalf("no graph %s in the store", crawlrdf.CrawlIRI(id))
	}
	it, err := st.Scan(context.Background(), graph.Pattern{G: gid[0]}, graph.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	out := subjects{}
	term := func(id graph.ID) rdf.Term {
		tm, err := st.Term(id)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	for it.Next() {
		q := it.Quad()
		s, p, o := term(q.S), term(q.P), term(q.O)
		if out[s.Value] == nil {
			out[s.Value] = map[string][]rdf.Term{}
		}
		out[s.Value][p.Value] = append(out[s.Value][p.Value], o)
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
