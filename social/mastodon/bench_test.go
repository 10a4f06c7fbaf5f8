package mastodon

import (
	"net/http"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/social/platform"
)

// BenchmarkFetchTimeline replays a public timeline of 4,000 statuses (3,600
// posts that are not boosts) from a loopback instance whose answers are
// rendered once and then served from memory, so the figure is the
// client's: HTTP, the library's JSON decoding, HTML to text, mapping and
// the strategy's queries. One op is a whole pass, 40 statuses a page.
func BenchmarkFetchTimeline(b *testing.B) {
	s := newInstance(b, 4000, 9, nil)
	s.cache = map[string][]byte{}
	env := testEnv(s.URL, http.DefaultTransport, nil)
	p := &Platform{}
	q := platform.Query{Kind: platform.ByList, Text: "public"}
	run(b, p, env, q, nil) // renders and caches every page
	var body int
	for _, v := range s.cache {
		body += len(v)
	}
	posts := 0
	start := time.Now()
	for b.Loop() {
		got, _, _ := run(b, p, env, q, nil)
		posts += len(got)
	}
	el := time.Since(start).Seconds()
	b.ReportMetric(float64(posts)/el, "posts/s")
	b.ReportMetric(float64(body)/float64(posts/b.N), "resp-bytes/post")
}
