package robots

import (
	"strings"
	"testing"
)

func benchAgent() *Agent {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for _, p := range []string{"/admin/", "/cgi-bin/", "/*.pdf$", "/search", "/*?sessionid=", "/private/*/drafts", "/tmp", "/cart", "/login", "/api/v1/*"} {
		b.WriteString("Disallow: " + p + "\n")
	}
	b.WriteString("Allow: /search/about\nAllow: /api/v1/public/\n")
	return Parse([]byte(b.String())).Agent("mneme")
}

func BenchmarkCheck(b *testing.B) {
	a := benchAgent()
	paths := []string{"/news/2024/01/story.html?page=2", "/api/v1/public/items", "/files/report.pdf", "/private/x/drafts/1"}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range paths {
			a.Check(p)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	body := []byte(strings.Repeat("User-agent: a\nUser-agent: b\nDisallow: /x/*/y$\nAllow: /x/ok\nCrawl-delay: 1\n\n", 50))
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		Parse(body)
	}
}
