package canon

import "testing"

func BenchmarkParse(b *testing.B) {
	c := New(Options{})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Parse("http://www.Example.com:80/a/./b/../c.html?b=2&a=1&jsessionid=0123456789ABCDEF0123456789abcdef#top"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolve(b *testing.B) {
	c := New(Options{})
	base, err := c.Parse("http://www.example.com/news/2024/index.html")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Resolve(base, "../2023/story.html?id=7"); err != nil {
			b.Fatal(err)
		}
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
