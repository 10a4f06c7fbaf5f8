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

// BenchmarkCommitCrawl commits the RDF of a crawl of 20,000 pages as the
// crawler's writer does, in batches of 256 captures (a slow crawl's) or
// 2,048 (a fast one's): each capture has 50–90 links to 20,000 URLs, with
// the same anchor text for a target every time, so later batches meet
// terms and quads the store already holds. It reports the CPU of the
// whole process per page from the store's opening to its closing
// (Pebble's flushes and compactions included, and the filling of the
// batches, which is the same whatever the store does).
func BenchmarkCommitCrawl(b *testing.B) {
	for _, perBatch := range []int{256, 2048} {
		b.Run(fmt.Sprintf("batch=%d", perBatch), func(b *testing.B) {
			for range b.N {
				commitCrawl(b, 20000, perBatch)
			}
		})
	}
}

func commitCrawl(b *testing.B, pages, perBatch int) {
	const urls = 20000
	start := processCPU(b)
	s, err := graph.Open(b.TempDir(), graph.OpenOptions{})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	url := func(i int) string { return fmt.Sprintf("http://127.0.0.1:8080/p/%d", i) }
	var quads []rdf.Quad
	ctx := context.Background()
	for page := 0; page < pages; {
		bt := s.NewBatch()
		for end := min(page+perBatch, pages); page < end; page++ {
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
		}
		if _, err := bt.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64((processCPU(b)-start).Nanoseconds())/float64(pages)/1e6, "cpu-ms/page")
}

// processCPU is the user and system time the process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
