package canon

import "testing"

// Each benchmark runs Parse or Resolve as the crawler calls them, and the
// WHATWG parser alone on the same input: the cost of every input the fast
// path declines.

func BenchmarkParse(b *testing.B) {
	const raw = "http://www.Example.com:80/a/./b/../c.html?b=2&a=1&jsessionid=0123456789ABCDEF0123456789abcdef#top"
	c := New(Options{})
	for _, bc := range []struct {
		name  string
		parse func(string) (URL, error)
	}{{"fast", c.Parse}, {"whatwg", c.parseWHATWG}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.parse(raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkResolve(b *testing.B) {
	c := New(Options{})
	base, err := c.Parse("http://www.example.com/news/2024/index.html")
	if err != nil {
		b.Fatal(err)
	}
	wbase, err := c.parseWHATWG(base.Href)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name    string
		base    URL
		resolve func(URL, string) (URL, error)
	}{{"fast", base, c.Resolve}, {"whatwg", wbase, c.resolveWHATWG}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.resolve(bc.base, "../2023/story.html?id=7"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkResolvePage resolves the references of a typical news page, one
// per iteration: navigation, articles, assets, other hosts, fragments and
// the odd mailto: and javascript: link the fast path leaves to WHATWG.
func BenchmarkResolvePage(b *testing.B) {
	benchmarkResolveRefs(b, "https://www.example.com/news/2025/story.html", "/section/3/", "/news/2025/03/related-story-7.html?ref=inline&pos=3",
		"related-story-8.html", "https://www.example.com/most-read/4", "//partner3.example.org/", "/img/photo5-480.jpg", "../2024/archive.html",
		"#top", "/static/app.js", "mailto:desk@example.com", "javascript:void(0)", "/privacy")
}

// BenchmarkResolveSite resolves the references of a page of the crawl
// benchmark's generated site: paths from the root, which take the direct
// way.
func BenchmarkResolveSite(b *testing.B) {
	benchmarkResolveRefs(b, "http://127.0.0.1:8080/s/3/3141.html", "/s/12/12345.html", "/static/css/site-1.css", "/", "/s/0/7.html",
		"/static/img/42.png", "/s/19/19999.html")
}

// benchmarkResolveRefs resolves refs against base in turn, one per
// iteration.
func benchmarkResolveRefs(b *testing.B, base string, refs ...string) {
	c := New(Options{})
	u, err := c.Parse(base)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := c.Resolve(u, refs[i%len(refs)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkKeys(b *testing.B) {
	u, err := New(Options{}).Parse("http://www.example.co.uk/a/b/c.html?b=2&a=1")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = u.SURT()
		_ = u.RegistrableDomain()
	}
}
