package extract

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

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
	for _, bc := range []struct {
		name  string
		cache int
	}{{"cache", 0}, {"nocache", -1}} {
		b.Run(bc.name, func(b *testing.B) {
			x := New(Options{CacheSize: bc.cache})
			base := mustURL(b, "https://www.example.com/news/2025/story.html")
			pages := make([][]byte, 256)
			for i := range pages {
				pages[i] = benchPageN(i)
			}
			b.SetBytes(int64(len(pages[0])))
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				page := pages[n%len(pages)]
				n++
				if _, err := x.Extract(Document{URL: base, MediaType: "text/html", Body: bytes.NewReader(page)}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseTree is the floor of a tree-based extractor such as
// htmlquery, which starts with html.Parse before any XPath query runs.
func BenchmarkParseTree(b *testing.B) {
	page := benchPage()
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := html.Parse(bytes.NewReader(page)); err != nil {
			b.Fatal(err)
		}
	}
}
