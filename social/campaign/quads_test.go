package campaign

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/social/platform"
	"github.com/mneme-archive/mneme/social/record"
	"github.com/mneme-archive/mneme/social/socialrdf"
)

// tweetPages returns n pages of per tweets each as the import platform
// makes them: authors drawn from 20,000, one of 500 hashtags and a link
// to one of 250,000 pages a tweet, a reply now and then.
func tweetPages(n, per int) []platform.Page {
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 3, 14, 0, 0, 0, 0, time.UTC)
	var pages []platform.Page
	done := 0
	for range n {
		var page platform.Page
		users := map[int]bool{}
		for range per {
			u := rng.IntN(20000)
			handle := "user" + strconv.Itoa(u)
			a := platform.Account{Platform: "twitter", ID: strconv.Itoa(1000 + u), URL: "https://twitter.com/" + handle, Handle: handle, Name: "User " + strconv.Itoa(u)}
			if !users[u] {
				users[u] = true
				obs := a
				obs.Followers, obs.Following, obs.Posts = rng.Int64N(100000), rng.Int64N(2000), rng.Int64N(50000)
				page.Accounts = append(page.Accounts, obs)
			}
			a.Followers, a.Following, a.Posts = -1, -1, -1
			id := strconv.Itoa(1_600_000_000_000_000_000 + done)
			p := platform.Post{Platform: "twitter", ID: id, URL: "https://twitter.com/" + handle + "/status/" + id, Lang: "en",
				Text: fmt.Sprintf("the river rose overnight %d #tag https://t.co/x%d", done, done), Created: base.Add(time.Duration(done) * 47 * time.Second),
				Author: a, Hashtags: []string{"tag" + strconv.Itoa(rng.IntN(500))},
				Links:  []string{fmt.Sprintf("https://news%d.example/story/%d", rng.IntN(50), rng.IntN(5000))},
				Counts: &platform.Counts{Likes: rng.Int64N(500), Reposts: rng.Int64N(100), Replies: rng.Int64N(20)},
				Source: fmt.Sprintf("urn:uuid:00000000-0000-0000-0000-%012d", done/100)}
			if rng.IntN(5) == 0 && done > 0 {
				p.ReplyTo = "https://twitter.com/i/web/status/" + strconv.Itoa(1_600_000_000_000_000_000+rng.IntN(done))
			}
			page.Posts = append(page.Posts, p)
			done++
		}
		pages = append(pages, page)
	}
	return pages
}

// BenchmarkPageQuads describes pages of tweets as an import does, the
// run's memories of accounts, hashtags and links kept from page to page:
// for a campaign with a linked crawl, whose links are gathered, and for
// one without.
func BenchmarkPageQuads(b *testing.B) {
	pages := tweetPages(10, 20000)
	for _, crawl := range []string{"", "web"} {
		b.Run("linked-crawl="+crawl, func(b *testing.B) {
			r := &Runner{Spec: &Spec{Options: Options{LinkedCrawl: crawl}},
				Links: func(context.Context, string, []SharedLink) error { return nil }}
			red := record.NewRedactor()
			ru := &run{red: red, rdf: socialrdf.NewWriter("bench", red.String)}
			ru.rdf.Remember(describedMax)
			p := &pairState{Pair: socialrdf.Pair{IRI: "urn:mneme:campaign:bench:pair:0", Platform: "import", Query: platform.Query{Kind: platform.ByList, Text: "tweets.jsonl"}}}
			// The chunks are dropped as the group's workers would take them.
			feed := func(q []rdf.Quad, _ bool) []rdf.Quad { clear(q); return q[:0] }
			quads := make([]rdf.Quad, 0, chunkQuads+chunkRoom)
			posts := 0
			cpu0 := cpuTime()
			for i := 0; b.Loop(); i++ {
				page := &pages[i%len(pages)]
				quads, _, _ = r.pageQuads(quads[:0], ru, p, page, nil, feed)
				posts += len(page.Posts)
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(posts), "cpu-ns/post")
		})
	}
}

// cpuTime is the CPU time the process has taken, its collector's included.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestPageQuadsLinks: a page's shared web links, once each and redacted,
// are gathered for a campaign with a linked crawl, none for one without,
// and the statements are the same.
func TestPageQuadsLinks(t *testing.T) {
	page := platform.Page{Posts: []platform.Post{
		{ID: "1", Source: "urn:uuid:1", Links: []string{"https://news.example/a?key=s3cret", "mailto:a@example.com", "https://news.example/b"}},
		{ID: "2", Source: "urn:uuid:1", Links: []string{"https://news.example/b", "HTTP://NEWS.EXAMPLE/C", "https://bücher.example/", "https://x.example/a b"}},
	}}
	var quads [2][]rdf.Quad
	for i, crawl := range []string{"web", ""} {
		r := &Runner{Spec: &Spec{Options: Options{LinkedCrawl: crawl}},
			Links: func(context.Context, string, []SharedLink) error { return nil }}
		red := record.NewRedactor("s3cret")
		ru := &run{red: red, rdf: socialrdf.NewWriter("c", red.String)}
		p := &pairState{Pair: socialrdf.Pair{IRI: "urn:mneme:campaign:c:pair:0", Platform: "import"}}
		var links []string
		quads[i], _, links = r.pageQuads(nil, ru, p, &page, nil, nil)
		want := []string{"https://news.example/a?key=REDACTED", "https://news.example/b", "HTTP://NEWS.EXAMPLE/C", "https://bücher.example/"}
		if crawl == "" {
			want = nil
		}
		if !slices.Equal(links, want) {
			t.Errorf("linked crawl %q: links %q, want %q", crawl, links, want)
		}
	}
	// The same but for the time of the sighting, now.
	same := func(a, b rdf.Quad) bool {
		return a.S == b.S && a.P == b.P && a.G == b.G && (a.O == b.O || a.P.Value == ontology.ProvGeneratedAtTime)
	}
	if !slices.EqualFunc(quads[0], quads[1], same) {
		t.Errorf("the statements differ with and without a linked crawl:\n%v\n%v", quads[0], quads[1])
	}
}

// webURLShapes are links as posts share them, the odd ones included.
var webURLShapes = []string{
	"https://news.example/story/12", "http://news.example", "https://news.example/", "HTTPS://NEWS.EXAMPLE/A", "hTtP://x.example/",
	"https://www.example.com/2020/03/14/us/flood.html?smid=tw-share&utm_source=twitter#top",
	"https://example.com:8443/a?b=c", "https://example.com:/a", "https://example.com:", "https://example.com:80:81/", "https://example.com:8x/",
	"https://:80/", "https:///path", "https://", "http://", "https:/example.com", "https:example.com", "https//example.com", "ftp://example.com/",
	"mailto:a@example.com", "example.com/a", "/relative", "", "http", "https:", "javascript:alert(1)", "file:///etc/passwd",
	"https://user:pass@example.com/", "https://user@example.com/", "https://@example.com/", "https://a@b@example.com/",
	"https://bücher.example/", "https://xn--bcher-kva.example/", "https://example.com/bücher", "https://example.com/%C3%BC",
	"https://example.com/%zz", "https://example.com/%4", "https://example.com/a%", "https://example.com/?q=%zz", "https://example.com/#%zz",
	"https://example.com/#a%41b", "https://example.com/?a#b#c", "https://example.com#frag", "https://example.com?q", "https://example.com?",
	"https://example.com??", "https://example.com/a b", "https://example.com/a<b", "https://example.com/a>b", "https://example.com/a\"b",
	"https://example.com/{a}", "https://example.com/a|b", "https://example.com/a^b", "https://example.com/a`b", "https://example.com/a\\b",
	"https://example.com\\@evil.example/", "https://example.com/a\tb", "https://example.com/a\nb", "https://example.com/\x7f",
	"https://example.com/#a\x01", "https://exa mple.com/", "https://[::1]/", "https://[::1]:8080/a", "https://[fe80::1%25en0]/",
	"https://[127.0.0.1]/", "https://[::1/", "https://a[b]/", "https://example.com./", "https://example..com/", "https://-.example/",
	"https://exa_mple.com/", "https://exa~mple.com/", "https://exa%2Fmple.com/", "https://exa%41mple.com/", "https://exa!mple.com/",
	"https://exa$mple.com/", "https://example.com;a=b/", "https://example.com/a;b=c,d", "https://example.com/[a]", "https://example.com/@a:b",
	"https://example.com/~a/!$&'()*+,;=", "https://t.co/x1", "http://EXAMPLE.com/A%2FB", "https://example.com/a%2fb?c%2Fd",
	"https://example.com/\xff", "https://example.com/\xc3", "https:\x00//example.com/", "https://example.com\x00/", "http:\\\\example.com\\",
	"HTTP://example.com", "Https://Example.Com:443/Path?Q=1#F", "httpss://example.com/", "htp://example.com/", "http://https://example.com/",
	"https://1.2.3.4/", "https://1.2.3.4:99999999999999999999/", "https://例え.jp/", "https://example.com/例え", "https://example.com/a#b c",
}

// TestPlainWebURL: webURL, plainWebURL's fast path included, answers as
// parsing the link does, and takes the common shapes at sight.
func TestPlainWebURL(t *testing.T) {
	for _, s := range webURLShapes {
		if got, want := webURL(s), parsedWebURL(s); got != want {
			t.Errorf("webURL(%q) = %v, want %v", s, got, want)
		}
		if plainWebURL(s) && !parsedWebURL(s) {
			t.Errorf("plainWebURL(%q) but not parsedWebURL", s)
		}
	}
	for _, s := range []string{"https://news.example/story/12", "HTTPS://NEWS.EXAMPLE/A", "https://example.com:8443/a?b=c",
		"https://www.example.com/2020/03/14/us/flood.html?smid=tw-share&utm_source=twitter#top", "https://example.com/%C3%BC",
		"https://example.com/bücher", "https://t.co/x1", "https://example.com./"} {
		if !plainWebURL(s) {
			t.Errorf("plainWebURL(%q) = false", s)
		}
	}
}

// FuzzPlainWebURL: whatever plainWebURL takes at sight, parsing takes.
func FuzzPlainWebURL(f *testing.F) {
	for _, s := range webURLShapes {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if plainWebURL(s) && !parsedWebURL(s) {
			t.Errorf("plainWebURL(%q) but not parsedWebURL", s)
		}
	})
}
