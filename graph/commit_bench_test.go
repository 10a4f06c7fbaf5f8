package graph_test

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/synthweb"
	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/rdf"
)

// crawlSite describes the captures of a crawl of the generated site the
// crawl benchmark serves (internal/synthweb's BigSite of 20,000 pages):
// each page's 50–100 links to other pages, with the target's title as
// anchor text (1,024 titles, so a target is always linked with the same
// text), and its six embedded files from small shared pools.
type crawlSite struct {
	site   *synthweb.BigSite
	titles []string
}

func newCrawlSite() *crawlSite {
	c := &crawlSite{site: synthweb.NewBigSite(synthweb.BigOptions{Pages: 20000})}
	for i := range 1024 {
		c.titles = append(c.titles, "Birds of the Fenwick Valley, part "+strconv.Itoa(i))
	}
	return c
}

const crawlRoot = "http://127.0.0.1:43857"

// quads appends the RDF the crawler's writer commits for the n-th
// capture (of page n modulo the site's size), as describe makes it.
func (c *crawlSite) quads(n int, dst []rdf.Quad) []rdf.Quad {
	page := n % c.site.Options().Pages
	capt := crawlrdf.Capture{
		IRI: fmt.Sprintf("urn:uuid:7d0c1f4e-%04x-4b3a-9f1e-%012x", n%0xffff, n), URL: crawlRoot + c.site.Path(page),
		Time: time.Unix(1.7e9+int64(n), 0), Status: 200, MimeType: "text/html", Length: 20000 + int64(n%30000),
		Digest: fmt.Sprintf("sha1:%032X", n), WARCFile: "MNEME-20261121-0001.warc.gz", Offset: int64(n) * 9000, HopPath: "LLL",
	}
	capt.RecordID = capt.IRI
	for k := range 6 {
		capt.Links = append(capt.Links, crawlrdf.Link{Target: fmt.Sprintf("%s/static/img/%d.png", crawlRoot, (page+k)%40), Hop: 'E'})
	}
	for _, t := range c.site.Links(page) {
		capt.Links = append(capt.Links, crawlrdf.Link{Target: crawlRoot + c.site.Path(t), Text: c.titles[t%len(c.titles)], Hop: 'L'})
	}
	return capt.Quads("bench", dst)
}

// BenchmarkCommitBatch commits batches of 2,048 captures as a fast
// crawl's writer does (each capture's quads added to its own batch with
// TryAdd, as the crawler's workers do, then joined), into a store that
// already holds four such commits. It reports the process CPU per quad
// added of filling the batches and of committing them (fill-ns/quad,
// commit-ns/quad, and ns/quad for both; Pebble's background work and the
// garbage collector included): on a shared machine CPU time says more
// than wall time.
func BenchmarkCommitBatch(b *testing.B) {
	const perBatch, before = 2048, 4
	dir := b.TempDir()
	s, err := graph.Open(dir, graph.OpenOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	site := newCrawlSite()
	ctx := context.Background()
	next := 0
	pages := make([][]rdf.Quad, perBatch)
	fill := func() (*graph.Batch, int) {
		bt, n := s.NewBatch(), 0
		for _, qs := range pages {
			pb := s.NewBatch()
			for _, q := range qs {
				if err := pb.TryAdd(q); err != nil {
					b.Fatal(err)
				}
			}
			bt.AddBatch(pb)
			n += len(qs)
		}
		return bt, n
	}
	generate := func() {
		for i := range pages {
			pages[i] = site.quads(next, pages[i][:0])
			next++
		}
	}
	for range before {
		generate()
		bt, _ := fill()
		if _, err := bt.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
	var quads int
	var filling, committing time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		generate()
		b.StartTimer()
		t0 := testenv.CPUTime()
		bt, n := fill()
		t1 := testenv.CPUTime()
		if _, err := bt.Commit(ctx); err != nil {
			b.Fatal(err)
		}
		filling, committing = filling+t1-t0, committing+testenv.CPUTime()-t1
		quads += n
	}
	b.StopTimer()
	perQuad := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(quads) }
	b.ReportMetric(perQuad(filling), "fill-ns/quad")
	b.ReportMetric(perQuad(committing), "commit-ns/quad")
	b.ReportMetric(perQuad(filling+committing), "ns/quad")
	b.ReportMetric(float64(quads)/float64(b.N), "quads/op")
	b.ReportMetric(float64(dirSize(b, dir))/float64(quads+before*quads/b.N), "disk-B/quad")
}

// BenchmarkCommitCrawl commits the RDF of a crawl of 20,000 pages as the
// crawler's writer does, in batches of 256 captures (a slow crawl's) or
// 2,048 (a fast one's), so later batches meet terms and quads the store
// already holds. It reports the CPU of the whole process per page from
// the store's opening to its closing (Pebble's flushes and compactions
// included, and the filling of the batches, which is the same whatever
// the store does).
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
	site := newCrawlSite()
	start := testenv.CPUTime()
	s, err := graph.Open(b.TempDir(), graph.OpenOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var quads []rdf.Quad
	ctx := context.Background()
	for page := 0; page < pages; {
		bt := s.NewBatch()
		for end := min(page+perBatch, pages); page < end; page++ {
			for _, q := range site.quads(page, quads[:0]) {
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
	b.ReportMetric(float64((testenv.CPUTime()-start).Nanoseconds())/float64(pages)/1e6, "cpu-ms/page")
}

// dirSize is the bytes of the files in dir.
func dirSize(b *testing.B, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		n += info.Size()
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}
