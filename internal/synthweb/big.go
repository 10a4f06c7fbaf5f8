package synthweb

import (
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// BigOptions shape a generated site. Zero fields take the defaults.
type BigOptions struct {
	Pages    int // HTML pages; default 20,000
	MinLinks int // links to other pages per page, at least; default 50
	MaxLinks int // and at most; default 100
	MinBytes int // HTML size of a page, at least; default 20 KB
	MaxBytes int // and at most; default 50 KB
}

// Assets every page of a BigSite draws its embeds from.
const (
	bigStylesheets  = 4
	bigImages       = 60
	bigParagraphs   = 256
	bigParagraphMax = 1200 // bytes of the longest generated paragraph, at most
	bigTitles       = 1024
	bigFanout       = 4 // tree links that make every page reachable from the root
)

// BigSite is a generated site of N pages for throughput and crash tests:
// each page has 50–100 links to other pages (its children in a 4-ary tree
// rooted at /, so that all are reachable within log4 N hops, its parent,
// its neighbours and pseudo-random others), embeds two stylesheets, three
// images and a script from small shared pools, and is padded with text to
// 20–50 KB. Pages are assembled from precomputed text per request, so that
// the server is not what limits a crawl. The same options give the same
// bytes.
type BigSite struct {
	opts   BigOptions
	paras  []string
	titles []string
	assets int // distinct embedded files the pages reference
	pool   sync.Pool
}

// NewBigSite generates the text of a site shaped by o.
func NewBigSite(o BigOptions) *BigSite {
	if o.Pages <= 0 {
		o.Pages = 20000
	}
	if o.MinLinks <= 0 {
		o.MinLinks = 50
	}
	if o.MaxLinks < o.MinLinks {
		o.MaxLinks = max(o.MinLinks, 100)
	}
	if o.MinBytes <= 0 {
		o.MinBytes = 20 << 10
	}
	if o.MaxBytes < o.MinBytes {
		o.MaxBytes = max(o.MinBytes, 50<<10)
	}
	s := &BigSite{opts: o}
	g := textGen{rng("big", "text")}
	for range bigParagraphs {
		s.paras = append(s.paras, "<p>"+html.EscapeString(g.paragraph(4+g.r.IntN(5)))+"</p>\n")
	}
	for range bigTitles {
		s.titles = append(s.titles, html.EscapeString(g.title()))
	}
	// Small sites may not use every image and stylesheet of the pools.
	css, img := map[uint64]bool{}, map[uint64]bool{}
	for i := range o.Pages {
		for k := range 2 {
			css[(uint64(i)+uint64(k))%bigStylesheets] = true
		}
		for k := range 3 {
			img[mix(uint64(i), 100+uint64(k))%bigImages] = true
		}
	}
	s.assets = len(css) + len(img) + 2 // the script and the stylesheets' background image
	s.pool.New = func() any { b := make([]byte, 0, o.MaxBytes+8<<10); return &b }
	return s
}

// Options returns the options with the defaults filled in.
func (s *BigSite) Options() BigOptions { return s.opts }

// Path is the URL path of page i: "/" for page 0, else /s/DIR/I.html.
func (s *BigSite) Path(i int) string {
	if i == 0 {
		return "/"
	}
	return fmt.Sprintf("/s/%d/%d.html", i/1000, i)
}

// URLs is how many distinct URLs a complete crawl of the site fetches:
// the pages, the embedded files and robots.txt.
func (s *BigSite) URLs() int { return s.opts.Pages + s.assets + 1 }

// mix is SplitMix64: a cheap, well-spread hash of a page and a slot.
func mix(a, b uint64) uint64 {
	z := a*0x9e3779b97f4a7c15 + b + 0x632be59bd9b4e019
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Links returns the pages page i links to, in page order of appearance.
func (s *BigSite) Links(i int) []int {
	n, o := s.opts.Pages, s.opts
	count := o.MinLinks + int(mix(uint64(i), 1)%uint64(o.MaxLinks-o.MinLinks+1))
	out := make([]int, 0, count)
	for c := i*bigFanout + 1; c <= i*bigFanout+bigFanout && c < n; c++ {
		out = append(out, c)
	}
	if i > 0 {
		out = append(out, (i-1)/bigFanout, i-1)
	}
	if i+1 < n {
		out = append(out, i+1)
	}
	for k := uint64(2); len(out) < count; k++ {
		out = append(out, int(mix(uint64(i), k)%uint64(n)))
	}
	return out
}

func (s *BigSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case p == "/robots.txt":
		writeText(w, "text/plain; charset=utf-8", "User-agent: *\nDisallow:\n")
		return
	case strings.HasPrefix(p, "/static/"):
		serveAsset(w, r)
		return
	}
	i, ok := s.page(p)
	if !ok {
		writeStatus(w, http.StatusNotFound, "text/html; charset=utf-8", "<!DOCTYPE html><title>Not found</title><h1>Not found</h1>\n")
		return
	}
	bp := s.pool.Get().(*[]byte)
	b := s.render((*bp)[:0], i)
	h := w.Header()
	h["Content-Type"] = []string{"text/html; charset=utf-8"}
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	h["Last-Modified"] = []string{"Mon, 03 Jun 2024 10:00:00 GMT"}
	w.Write(b)
	*bp = b
	s.pool.Put(bp)
}

// page parses a page path.
func (s *BigSite) page(p string) (int, bool) {
	if p == "/" {
		return 0, true
	}
	rest, ok := strings.CutPrefix(p, "/s/")
	if !ok {
		return 0, false
	}
	dir, file, ok := strings.Cut(rest, "/")
	name, ok2 := strings.CutSuffix(file, ".html")
	i, err := strconv.Atoi(name)
	if !ok || !ok2 || err != nil || i <= 0 || i >= s.opts.Pages || dir != strconv.Itoa(i/1000) || name != strconv.Itoa(i) {
		return 0, false
	}
	return i, true
}

// render appends page i to b.
func (s *BigSite) render(b []byte, i int) []byte {
	o := s.opts
	title := s.titles[i%bigTitles]
	b = append(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"...)
	b = append(b, title...)
	b = append(b, " (page "...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, ")</title>\n"...)
	for k := range 2 { // keep in step with the asset count in NewBigSite
		b = append(b, "<link rel=\"stylesheet\" href=\"/static/css/site-"...)
		b = strconv.AppendUint(b, (uint64(i)+uint64(k))%bigStylesheets, 10)
		b = append(b, ".css\">\n"...)
	}
	b = append(b, "<script src=\"/static/js/app.js\" defer></script>\n</head>\n<body>\n<header><a href=\"/\">Fenwick Valley Archive</a></header>\n<main>\n<h1>"...)
	b = append(b, title...)
	b = append(b, "</h1>\n"...)
	for k := range 3 {
		b = append(b, "<img src=\"/static/img/"...)
		b = strconv.AppendUint(b, mix(uint64(i), 100+uint64(k))%bigImages, 10)
		b = append(b, ".png\" alt=\"\" width=\"24\" height=\"24\">\n"...)
	}
	links := s.Links(i)
	// Text first, up to the page's size less the link list that follows;
	// the last paragraph may pass it by less than bigParagraphMax.
	size := o.MinBytes + int(mix(uint64(i), 0)%uint64(max(o.MaxBytes-bigParagraphMax-o.MinBytes, 0)+1))
	rest := len(bigNavHead) + len(bigTail)
	for _, t := range links {
		rest += len(`<li><a href="`) + pathLen(t) + len(`">`) + len(s.titles[t%bigTitles]) + len("</a></li>\n")
	}
	for k := uint64(0); len(b)+rest < size; k++ {
		b = append(b, s.paras[mix(uint64(i), 1000+k)%bigParagraphs]...)
	}
	b = append(b, bigNavHead...)
	for _, t := range links {
		b = append(b, "<li><a href=\""...)
		if t == 0 {
			b = append(b, '/')
		} else {
			b = append(b, "/s/"...)
			b = strconv.AppendInt(b, int64(t/1000), 10)
			b = append(b, '/')
			b = strconv.AppendInt(b, int64(t), 10)
			b = append(b, ".html"...)
		}
		b = append(b, "\">"...)
		b = append(b, s.titles[t%bigTitles]...)
		b = append(b, "</a></li>\n"...)
	}
	return append(b, bigTail...)
}

const (
	bigNavHead = "<nav>\n<ul>\n"
	bigTail    = "</ul>\n</nav>\n</main>\n</body>\n</html>\n"
)

// pathLen is len(s.Path(t)) without formatting it.
func pathLen(t int) int {
	if t == 0 {
		return 1
	}
	return len("/s/") + digits(t/1000) + 1 + digits(t) + len(".html")
}

func digits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}
