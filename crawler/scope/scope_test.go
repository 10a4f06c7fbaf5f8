package scope

import (
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler/canon"
)

func parse(t *testing.T, c *canon.Canonicalizer, raw string) canon.URL {
	t.Helper()
	u, err := c.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func newScope(t *testing.T, cfg Config, seeds ...string) *Scope {
	t.Helper()
	c := canon.New(canon.Options{})
	var us []canon.URL
	for _, s := range seeds {
		us = append(us, parse(t, c, s))
	}
	s, err := New(cfg, us, c)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDecide(t *testing.T) {
	def := DefaultConfig()
	hosts := Config{SeedHosts: true}
	domains := Config{SeedDomains: true, MaxHops: 3}
	prefixes := Config{SURTPrefixes: []string{"http://(org,archive,", "https://blog.example.net/2024/"}}
	regexes := Config{SeedHosts: true, Include: []string{`^https?://cdn\.example\.org/`}, Exclude: []string{`\.(exe|iso)$`, `/logout`}}
	trans := Config{SeedHosts: true, MaxTransHops: 2, MaxSpeculativeHops: 1}
	traps := Config{SeedHosts: true, MaxPathDepth: 6, MaxURLLength: 60, MaxRepeats: 2, MaxSegmentCount: 3, MaxQueryParams: 4, CalendarYears: [2]int{1995, 2030}}
	schemes := Config{SeedHosts: true, Schemes: []string{"http", "https", "ftp"}}

	tests := []struct {
		name   string
		cfg    Config
		seeds  []string
		url    string
		hops   string
		accept bool
		rule   string
	}{
		{"seed itself", def, []string{"http://example.com/a/"}, "http://example.com/a/", "", true, "surt-prefix"},
		{"under seed directory", def, []string{"http://example.com/a/"}, "https://example.com/a/b/c.html", "LL", true, "surt-prefix"},
		{"outside seed directory", def, []string{"http://example.com/a/"}, "http://example.com/b/", "L", false, "not-in-scope"},
		{"seed prefix is its host only", def, []string{"http://example.com"}, "http://www.example.com/x", "L", false, "not-in-scope"},
		{"host-only prefix rule covers subdomains", Config{SURTPrefixes: []string{"example.com"}}, nil, "http://www.example.com/x", "L", true, "surt-prefix"},
		{"seed out of its own scope still crawled", Config{Include: []string{`/nothing`}}, []string{"http://example.com/"}, "http://example.com/", "", true, "seed"},

		{"seed host", hosts, []string{"http://example.com/"}, "http://example.com/deep/page", "L", true, "seed-host"},
		{"other host", hosts, []string{"http://example.com/"}, "http://www.example.com/", "L", false, "not-in-scope"},
		{"seed host is port-sensitive", hosts, []string{"http://example.com:8080/"}, "http://example.com/", "L", false, "not-in-scope"},

		{"seed domain subdomain", domains, []string{"http://www.example.co.uk/"}, "https://news.example.co.uk/", "L", true, "seed-domain"},
		{"seed domain is not the suffix", domains, []string{"http://www.example.co.uk/"}, "http://other.co.uk/", "L", false, "not-in-scope"},
		{"private suffix splits users", domains, []string{"https://alice.github.io/"}, "https://bob.github.io/", "L", false, "not-in-scope"},
		{"max hops reached", domains, []string{"http://example.com/"}, "http://example.com/x", "LLL", true, "seed-domain"},
		{"max hops exceeded", domains, []string{"http://example.com/"}, "http://example.com/x", "LLLL", false, "max-hops"},
		{"redirects count as hops", domains, []string{"http://example.com/"}, "http://example.com/x", "LLRR", false, "max-hops"},
		{"embeds do not count as hops", domains, []string{"http://example.com/"}, "http://example.com/x", "LLLEE", true, "seed-domain"},
		{"redirect chain too long", Config{SeedHosts: true, MaxRedirects: 3}, []string{"http://example.com/"}, "http://example.com/x", "LRRRR", false, "max-redirects"},
		{"redirect chain within limit", Config{SeedHosts: true, MaxRedirects: 3}, []string{"http://example.com/"}, "http://example.com/x", "RRRLRRR", true, "seed-host"},
		{"embeds are not link hops", domains, []string{"http://example.com/"}, "http://example.com/x.png", "LLLE", true, "seed-domain"},

		{"explicit SURT prefix", prefixes, nil, "http://web.archive.org/x", "L", true, "surt-prefix"},
		{"prefix from URL, https coerced", prefixes, nil, "http://blog.example.net/2024/05/post", "L", true, "surt-prefix"},
		{"prefix directory respected", prefixes, nil, "https://blog.example.net/2023/", "L", false, "not-in-scope"},
		{"archive.org.evil.com not under org,archive,", prefixes, nil, "http://archive.org.evil.com/", "L", false, "not-in-scope"},

		{"include regex", regexes, []string{"http://example.org/"}, "https://cdn.example.org/app.js", "L", true, "include"},
		{"exclude beats seed host", regexes, []string{"http://example.org/"}, "http://example.org/setup.exe", "L", false, "exclude"},
		{"exclude beats include", regexes, []string{"http://example.org/"}, "https://cdn.example.org/logout", "L", false, "exclude"},

		{"off-site embed of in-scope page", trans, []string{"http://example.com/"}, "http://cdn.other.net/a.css", "LE", true, "transclusion"},
		{"off-site embed of embed", trans, []string{"http://example.com/"}, "http://fonts.other.net/f.woff", "LEE", true, "transclusion"},
		{"third trailing embed too far", trans, []string{"http://example.com/"}, "http://x.other.net/i.png", "LEEE", false, "not-in-scope"},
		{"off-site redirect of embed", trans, []string{"http://example.com/"}, "http://y.other.net/i.png", "ER", true, "transclusion"},
		{"off-site link refused", trans, []string{"http://example.com/"}, "http://cdn.other.net/page", "LEL", false, "not-in-scope"},
		{"one speculative hop", trans, []string{"http://example.com/"}, "http://api.other.net/data.json", "LX", true, "transclusion"},
		{"two speculative hops", trans, []string{"http://example.com/"}, "http://api.other.net/data.json", "XX", false, "not-in-scope"},
		{"prerequisite always", trans, []string{"http://example.com/"}, "http://cdn.other.net/robots.txt", "LEP", true, "prerequisite"},

		{"path depth ok", traps, []string{"http://e.com/"}, "http://e.com/1/2/3/4/5/6/", "L", true, "seed-host"},
		{"path depth exceeded", traps, []string{"http://e.com/"}, "http://e.com/1/2/3/4/5/6/7", "L", false, "max-path-depth"},
		{"url length", traps, []string{"http://e.com/"}, "http://e.com/" + strings.Repeat("x", 50), "L", false, "max-url-length"},
		{"segment repeated thrice", traps, []string{"http://e.com/"}, "http://e.com/a/a/a", "L", false, "repeated-segments"},
		{"segment repeated twice", traps, []string{"http://e.com/"}, "http://e.com/a/a/b", "L", true, "seed-host"},
		{"pair repeated thrice", traps, []string{"http://e.com/"}, "http://e.com/a/b/a/b/a/b", "L", false, "repeated-segments"},
		{"triple repeated thrice", traps, []string{"http://e.com/"}, "http://e.com/x/y/z/x/y/z/x/y/z", "L", false, "max-path-depth"},
		{"empty segments repeated", traps, []string{"http://e.com/"}, "http://e.com/a////b", "L", false, "repeated-segments"},
		{"segment scattered", traps, []string{"http://e.com/"}, "http://e.com/s/1/s/2/s/s", "L", false, "segment-count"},
		{"query params", traps, []string{"http://e.com/"}, "http://e.com/?a=1&b=2&c=3&d=4&e=5", "L", false, "max-query-params"},
		{"query params ok", traps, []string{"http://e.com/"}, "http://e.com/?a=1&b=2&&c=3&d=4", "L", true, "seed-host"},
		{"calendar far future", traps, []string{"http://e.com/"}, "http://e.com/cal/2087/03/", "L", false, "calendar-trap"},
		{"calendar compact date", traps, []string{"http://e.com/"}, "http://e.com/ev?d=19500101", "L", false, "calendar-trap"},
		{"calendar year param", traps, []string{"http://e.com/"}, "http://e.com/ev?Year=2099", "L", false, "calendar-trap"},
		{"calendar in range", traps, []string{"http://e.com/"}, "http://e.com/cal/2024-05-01", "L", true, "seed-host"},
		{"ids are not dates", traps, []string{"http://e.com/"}, "http://e.com/item/4711/9999", "L", true, "seed-host"},

		{"mailto never", def, []string{"http://example.com/"}, "mailto:a@example.com", "L", false, "scheme"},
		{"ftp not by default", def, []string{"http://example.com/"}, "ftp://example.com/", "L", false, "scheme"},
		{"ftp when listed", schemes, []string{"http://example.com/"}, "ftp://example.com/", "L", true, "seed-host"},
	}
	for _, tt := range tests {
		s := newScope(t, tt.cfg, tt.seeds...)
		u := parse(t, canon.New(canon.Options{}), tt.url)
		d := s.Decide(u, tt.hops)
		if d.Accept != tt.accept || d.Rule != tt.rule || d.Detail == "" {
			t.Errorf("%s: Decide(%s, %q) = %s; want accept=%v rule %s", tt.name, tt.url, tt.hops, d, tt.accept, tt.rule)
		}
		if got := s.Accepts(u, tt.hops); got != tt.accept {
			t.Errorf("%s: Accepts(%s, %q) = %v, want %v", tt.name, tt.url, tt.hops, got, tt.accept)
		}
	}
}

func TestDecisionString(t *testing.T) {
	s := newScope(t, Config{SeedHosts: true, MaxHops: 3}, "http://example.com/")
	u := parse(t, canon.New(canon.Options{}), "http://example.com/x")
	if got := s.Decide(u, "LLLL").String(); got != "out of scope (max-hops): max-hops 3 exceeded (4 link and redirect hops)" {
		t.Errorf("String() = %q", got)
	}
	if got := s.Decide(u, "L").String(); got != "in scope (seed-host): on seed host example.com" {
		t.Errorf("String() = %q", got)
	}
}

func TestNewErrors(t *testing.T) {
	c := canon.New(canon.Options{})
	mailto := parse(t, c, "mailto:a@b.org")
	tests := []struct {
		cfg   Config
		seeds []canon.URL
		want  string
	}{
		{Config{Include: []string{"ok", "(unclosed"}}, nil, `include pattern 2 "(unclosed"`},
		{Config{Exclude: []string{"[z-a]"}}, nil, `exclude pattern 1`},
		{Config{SURTPrefixes: []string{"http://"}}, nil, `SURT prefix rule "http://"`},
		{Config{}, []canon.URL{mailto}, `seed "mailto:a@b.org" has no host`},
	}
	for _, tt := range tests {
		if _, err := New(tt.cfg, tt.seeds, c); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v) error = %v, want one containing %q", tt.cfg, err, tt.want)
		}
	}
}

func BenchmarkDecide(b *testing.B) {
	c := canon.New(canon.Options{})
	seed, _ := c.Parse("http://www.example.com/")
	s, err := New(DefaultConfig(), []canon.URL{seed}, c)
	if err != nil {
		b.Fatal(err)
	}
	in, _ := c.Parse("http://www.example.com/news/2024/05/story.html?page=2")
	out, _ := c.Parse("http://cdn.other.net/img/logo.png")
	b.ReportAllocs()
	b.Run("Decide", func(b *testing.B) {
		for b.Loop() {
			s.Decide(in, "LLL")
			s.Decide(out, "LLE")
		}
	})
	b.Run("Accepts", func(b *testing.B) {
		for b.Loop() {
			s.Accepts(in, "LLL")
			s.Accepts(out, "LLE")
		}
	})
}
