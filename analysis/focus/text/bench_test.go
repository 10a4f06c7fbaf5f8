package text

import (
	"github.com/mneme-archive/mneme/internal/testenv"
	"net/http/httptest"
	"testing"

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
	cpu := testenv.CPUTime()
	for b.Loop() {
		a.Counts(texts[n%len(texts)])
		n++
	}
	b.ReportMetric(float64((testenv.CPUTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/page")
}
