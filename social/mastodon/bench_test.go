package mastodon

import (
	"encoding/json"
	"github.com/mneme-archive/mneme/internal/testenv"
	"net/http"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/social/platform"

	gomasto "github.com/mattn/go-mastodon"
)

// BenchmarkFetchTimeline replays a public timeline of 4,000 statuses (3,600
// posts that are not boosts) from a loopback instance whose answers are
// rendered once and then served from memory, so the figure is the
// client's: HTTP, the library's JSON decoding, HTML to text, mapping and
// the strategy's queries. One op is a whole pass, 40 statuses a page.
// cpu-µs/post is the process's CPU time, the loopback server's included.
func BenchmarkFetchTimeline(b *testing.B) {
	s := newInstance(b, 4000, 9, nil)
	s.cache = map[string]cached{}
	env := testEnv(s.URL, http.DefaultTransport, nil)
	p := &Platform{}
	q := platform.Query{Kind: platform.ByList, Text: "public"}
	warm, _, pages := run(b, p, env, q, nil) // renders and caches every page
	if len(warm) < 3000 || pages < 90 {
		b.Fatalf("a pass of %d posts in %d pages", len(warm), pages)
	}
	var body int
	for _, v := range s.cache {
		body += len(v.body)
	}
	posts := 0
	b.ResetTimer()
	start, cpu := time.Now(), testenv.CPUTime()
	for b.Loop() {
		got, _, _ := run(b, p, env, q, nil)
		posts += len(got)
	}
	el := time.Since(start).Seconds()
	b.ReportMetric(float64(posts)/el, "posts/s")
	b.ReportMetric(float64((testenv.CPUTime()-cpu).Microseconds())/float64(posts), "cpu-µs/post")
	b.ReportMetric(float64(body)/float64(len(warm)), "resp-bytes/post")
}

// BenchmarkDecodeOnly is the floor under BenchmarkFetchTimeline: the same
// answers decoded by encoding/json into the library's Status type, without
// HTTP, text conversion or mapping.
func BenchmarkDecodeOnly(b *testing.B) {
	s := newInstance(b, 4000, 9, nil)
	s.cache = map[string]cached{}
	env := testEnv(s.URL, http.DefaultTransport, nil)
	warm, _, _ := run(b, &Platform{}, env, platform.Query{Kind: platform.ByList, Text: "public"}, nil)
	posts := 0
	b.ResetTimer()
	start, cpu := time.Now(), testenv.CPUTime()
	for b.Loop() {
		for _, c := range s.cache {
			var sts []*gomasto.Status
			if err := json.Unmarshal(c.body, &sts); err != nil {
				b.Fatal(err)
			}
		}
		posts += len(warm)
	}
	el := time.Since(start).Seconds()
	b.ReportMetric(float64(posts)/el, "posts/s")
	b.ReportMetric(float64((testenv.CPUTime()-cpu).Microseconds())/float64(posts), "cpu-µs/post")
}
