package text

import (
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/internal/synthweb"
)

// BenchmarkCountsSite counts the terms of the content text of pages of
// the crawl benchmark's generated site (20–50 KB of text each).
func BenchmarkCountsSite(b *testing.B) {
	site := synthweb.NewBigSite(synthweb.BigOptions{})
	texts := make([]string, 64)
	size := 0
	for k := range texts {
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest("GET", site.Path(k*78), nil))
		texts[k] = extract.ContentText(rec.Body.Bytes())
		size += len(texts[k])
	}
	a, err := New("en")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size / len(texts)))
	b.ReportAllocs()
	n := 0
	cpu := cpuTime()
	for b.Loop() {
		a.Counts(texts[n%len(texts)])
		n++
	}
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/page")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
