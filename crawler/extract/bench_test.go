package extract

import (
	"bytes"
	"context"
	"fmt"
	"github.com/mneme-archive/mneme/internal/testenv"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/fetch"
	"github.com/mneme-archive/mneme/internal/synthweb"
	"golang.org/x/net/html"
)

// benchPage builds a news-like page of about 45 KB with 100 links and 20
// embeds: navigation, paragraphs with inline links, images with srcset,
// scripts, stylesheets and a footer.
func benchPage() []byte { return benchPageN(0) }

// benchPageN varies the article links by n, as the pages of one site differ
// while their navigation, footer and assets repeat.
func benchPageN(n int) []byte {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Benchmark page</title>
<link rel="stylesheet" href="/static/site.css"><link rel="icon" href="/favicon.ico"><link rel="canonical" href="https://www.example.com/news/2025/story.html">
<script src="/static/app.js" defer></script><script>window.dataLayer=[];function track(){return "/x"}</script>
<style>.hero{background:url(/img/hero.jpg)} .logo{background-image:url("/img/logo.svg")}</style></head><body>
<header><nav><ul>`)
	for i := range 20 {
		fmt.Fprintf(&b, `<li class="nav-item"><a class="nav-link" href="/section/%d/">Section number %d</a></li>`, i, i)
	}
	b.WriteString(`</ul></nav></header><main><article><h1>A long article about something that happened</h1>`)
	words := strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore. ", 3)
	for i := range 50 {
		fmt.Fprintf(&b, `<p class="body-text">%s<a href="/news/2025/%02d/related-story-%d.html?ref=inline&amp;pos=%d">related story %d</a> %s</p>`,
			words, i%12+1, n*50+i, i, i, words[:120])
		if i%5 == 0 {
			fmt.Fprintf(&b, `<figure><img src="/img/photo%d.jpg" srcset="/img/photo%d-480.jpg 480w, /img/photo%d-960.jpg 960w" alt="Photo %d" loading="lazy"><figcaption>Caption for photo %d</figcaption></figure>`, i, i, i, i, i)
		}
	}
	b.WriteString(`</article><aside><h2>Most read</h2><ol>`)
	for i := range 10 {
		fmt.Fprintf(&b, `<li><a href="https://www.example.com/most-read/%d">Most read item %d with a longer title</a></li>`, i, i)
	}
	b.WriteString(`</ol></aside></main><footer><div class="links">`)
	for i := range 20 {
		fmt.Fprintf(&b, `<a href="//partner%d.example.org/">Partner %d</a> · `, i, i)
	}
	b.WriteString(`</div><p>© 2025 Example News. <a href="/privacy">Privacy</a> <a href="/terms">Terms</a></p></footer></body></html>`)
	return []byte(b.String())
}

func TestBenchPageShape(t *testing.T) {
	page := benchPage()
	out := extract(t, "https://www.example.com/news/2025/story.html", "text/html", string(page))
	links := 0
	for _, o := range out {
		if o.Hop == Link {
			links++
		}
	}
	if len(page) < 30<<10 || len(page) > 60<<10 || links < 95 || len(out)-links < 15 {
		t.Errorf("bench page: %d bytes, %d links, %d embeds", len(page), links, len(out)-links)
	}
}

// BenchmarkExtractHTML extracts from a stream of distinct pages of one site:
// half of each page's links are its own, the rest repeat site-wide.
func BenchmarkExtractHTML(b *testing.B) {
	x := New(Options{})
	base := mustURL(b, "https://www.example.com/news/2025/story.html")
	pages := make([][]byte, 256)
	for i := range pages {
		pages[i] = benchPageN(i)
	}
	for _, tk := range []struct {
		name     string
		tokenize func([]byte) tokenizer
	}{
		{"scanner", func(p []byte) tokenizer { return newScanner(p, maxToken) }},
		{"x-net-html", netTokenizer},
	} {
		b.Run(tk.name, func(b *testing.B) {
			b.SetBytes(int64(len(pages[0])))
			b.ReportAllocs()
			n := 0
			cpu := testenv.CPUTime()
			for b.Loop() {
				page := pages[n%len(pages)]
				n++
				if _, err := x.htmlWith(Document{URL: base, MediaType: "text/html", Text: page}, tk.tokenize); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((testenv.CPUTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/page")
		})
	}
}

// BenchmarkExtractSite extracts, as the application-aware helper does (no
// paragraphs), from pages of the crawl benchmark's generated site: 20–50 KB
// of text paragraphs, then a list of 50–100 links to other pages. Its
// content variant extracts as a focused crawl does: the paragraph around
// each link and the page's content text, in the same pass.
func BenchmarkExtractSite(b *testing.B) {
	site := synthweb.NewBigSite(synthweb.BigOptions{})
	type page struct {
		base canon.URL
		body []byte
	}
	pages := make([]page, 256)
	size := 0
	for k := range pages {
		i := k * 78
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest("GET", site.Path(i), nil))
		pages[k] = page{mustURL(b, "http://127.0.0.1:8080"+site.Path(i)), rec.Body.Bytes()}
		size += rec.Body.Len()
	}
	for _, content := range []bool{false, true} {
		name, x := "links", New(Options{MaxParagraph: -1})
		if content {
			name, x = "content", New(Options{})
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(size / len(pages)))
			b.ReportAllocs()
			n, links := 0, 0
			cpu := testenv.CPUTime()
			for b.Loop() {
				p := pages[n%len(pages)]
				n++
				doc := Document{URL: p.base, MediaType: "text/html", Text: p.body}
				var out []Outlink
				var err error
				if content {
					out, _, err = x.ExtractContent(doc)
				} else {
					out, err = x.Extract(doc)
				}
				if err != nil {
					b.Fatal(err)
				}
				links += len(out)
			}
			b.ReportMetric(float64((testenv.CPUTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/page")
			b.ReportMetric(float64(links)/float64(b.N), "links/page")
		})
	}
}

// BenchmarkParseTree is the floor of a tree-based extractor such as
// htmlquery, which starts with html.Parse before any XPath query runs.
func BenchmarkParseTree(b *testing.B) {
	page := benchPage()
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	cpu := testenv.CPUTime()
	for b.Loop() {
		if _, err := html.Parse(bytes.NewReader(page)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((testenv.CPUTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/page")
}

// BenchmarkFetchExtract fetches pages from a keep-alive server on 127.0.0.1
// and extracts their links, on parallel goroutines as crawl workers would:
// recording, digesting, charset detection and extraction included.
func BenchmarkFetchExtract(b *testing.B) {
	pages := make([][]byte, 256)
	for i := range pages {
		pages[i] = benchPageN(i)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(r.URL.Path, "/p%d", &n)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(pages[n%len(pages)])
	}))
	defer srv.Close()
	f, err := fetch.New(fetch.Config{UserAgent: "mneme-bench/0.1 (+https://example.org/crawler)", MaxIdleConnsPerHost: 64, TempDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	for _, extractLinks := range []bool{false, true} {
		name := "fetch"
		if extractLinks {
			name = "fetch+extract"
		}
		b.Run(name, func(b *testing.B) {
			x := New(Options{})
			var next atomic.Int64
			b.SetBytes(int64(len(pages[0])))
			b.ReportAllocs()
			start, cpu := time.Now(), testenv.CPUTime()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					u := mustURL(b, fmt.Sprintf("%s/p%d", srv.URL, next.Add(1)))
					res := f.Fetch(context.Background(), fetch.Request{URL: u})
					if res.Status != 200 {
						b.Error(res.Status, res.Err)
					}
					if extractLinks {
						out, err := x.Extract(Document{URL: u, MediaType: res.MediaType, Body: res.Text()})
						if err != nil || len(out) < 100 {
							b.Error(len(out), err)
						}
					}
					res.Close()
				}
			})
			// CPU time per page (client, server and GC together) says more
			// than wall time on a machine shared with other work.
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "pages/s")
			b.ReportMetric(float64((testenv.CPUTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/page")
		})
	}
}
