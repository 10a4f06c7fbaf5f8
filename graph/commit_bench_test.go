package graph_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
)

// BenchmarkCommitCrawl commits the RDF of crawled pages as the crawler's
// writer does: each iteration one batch of 512 captures of ~70 links each
// (to 20,000 URLs, with the same anchor text for a target every time), so
// later batches meet terms and quads the store already holds. It reports
// the CPU of a commit per page.
func BenchmarkCommitCrawl(b *testing.B) {
	const pagesPerBatch, urls = 512, 20000
	s, err := graph.Open(b.TempDir(), graph.OpenOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(3, 4))
	url := func(i int) string { return fmt.Sprintf("http://127.0.0.1:8080/p/%d", i) }
	page := 0
	var quads []rdf.Quad
	batch := func() *graph.Batch {
		bt := s.NewBatch()
		for range pagesPerBatch {
			c := crawlrdf.Capture{
				IRI: fmt.Sprintf("urn:mneme:capture:bench:%d", page), URL: url(page % urls), Time: time.Unix(1.7e9+int64(page), 0),
				Status: 200, MimeType: "text/html", Length: 30000 + int64(page%1000), Digest: fmt.Sprintf("sha1:%032d", page),
				WARCFile: "MNEME-0001.warc.gz", Offset: int64(page) * 9000, RecordID: fmt.Sprintf("urn:uuid:%d", page), HopPath: "LL",
			}
			for range 50 + r.IntN(40) {
				t := r.IntN(urls)
				c.Links = append(c.Links, crawlrdf.Link{Target: url(t), Text: fmt.Sprintf("Page %d", t), Hop: 'L'})
			}
			for _, q := range c.Quads("bench", quads[:0]) {
				bt.Add(q)
			}
			page++
		}
		return bt
	}
	ctx := context.Background()
	var cpu time.Duration // of the process while committing: Pebble's own goroutines too
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		bt := batch()
		b.StartTimer()
		before := processCPU(b)
		if _, err := bt.Commit(ctx); err != nil {
			b.Fatal(err)
		}
		cpu += processCPU(b) - before
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*pagesPerBatch)/1e6, "ms/page")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*pagesPerBatch)/1e6, "cpu-ms/page")
}

// processCPU is the user and system time the process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
