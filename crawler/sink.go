package crawler

import (
	"context"
	"fmt"
	"runtime/trace"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mneme-archive/mneme/crawler/crawllog"
	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// sink is the single RDF writer: it commits the captures of finished URLs
// in batches, then completes them in the frontier (their links were
// scheduled as they were handed over, Crawl.hand), so that a URL the
// frontier holds as done is described in the store. It stops when its input
// is closed and drained.
type sink struct {
	c    *Crawl
	in   chan []item
	done chan struct{}
	err  error
	rdf  *graph.Batch // reused: it keeps its buffers from batch to batch
	// captured maps the URLs of recent captures (committed, or earlier in
	// the batch) to their IRIs, so that a page's mneme:via is mostly found
	// without a scan of the store; it is emptied between batches when it
	// reaches capturedMax entries.
	captured map[string]string
	// handed counts the URLs handed over and not yet completed; now asks
	// for the batch filling to be committed at once.
	handed atomic.Int64
	now    chan struct{}
	logs   []crawllog.Entry // reused by writeLog
}

// capturedMax bounds sink.captured (some 10 MB of URLs and IRIs): the
// pages a crawl is fetching were mostly found on pages committed shortly
// before.
const capturedMax = 1 << 16

// newSink makes a sink whose input holds a batch's worth of finished URLs,
// so that the workers go on fetching while the previous batch commits.
func newSink(c *Crawl) *sink {
	return &sink{c: c, in: make(chan []item, max(c.spec.Workers*2, c.spec.RDF.Batch)), done: make(chan struct{}),
		captured: map[string]string{}, now: make(chan struct{}, 1)}
}

// run commits batches until in is closed; a failure cancels the crawl
// through fail and ends the sink (items left are fetched again on resume).
//
// A batch is committed when it holds rdf.batch URLs, when no URL came for
// rdf.interval, rdf.commit-within after its first URL, or at once when
// the dispatcher finds every URL in flight with the writer (commitNow).
// So a fast crawl commits large batches, which the store writes as sorted
// files (much cheaper per quad than small commits, and fewer tables to
// compact), while a crawl that has nothing more to fetch does not wait.
func (s *sink) run(fail func(error)) {
	defer close(s.done)
	max, interval := s.c.spec.RDF.Batch, time.Duration(s.c.spec.RDF.Interval)
	var batch []item
	urls := 0
	for {
		first, ok := <-s.in
		if !ok {
			return
		}
		batch, urls = append(batch[:0], first...), countURLs(first)
		deadline := time.Now().Add(time.Duration(s.c.spec.RDF.CommitWithin))
		quiet := time.NewTimer(interval)
		hurry := false // commitNow: what is there already goes with this batch
	fill:
		for urls < max {
			var more []item
			ok := true
			if hurry {
				select {
				case more, ok = <-s.in:
				default:
					break fill
				}
			} else {
				select {
				case more, ok = <-s.in:
					quiet.Reset(min(interval, time.Until(deadline)))
				case <-quiet.C:
					break fill
				case <-s.now:
					hurry = true
					continue
				}
			}
			if !ok {
				break fill
			}
			batch = append(batch, more...)
			urls += countURLs(more)
		}
		quiet.Stop()
		var err error
		trace.WithRegion(context.Background(), "rdf commit", func() { err = s.commit(batch) })
		if err != nil {
			s.err = err
			fail(err)
			for range s.in { // let the workers finish; nothing more is committed
			}
			return
		}
	}
}

// holdsAll says whether every URL in flight is with the writer: then no
// fetch is under way, and without a URL to claim nothing more will come.
func (s *sink) holdsAll() bool { return s.c.inFlightCount() == s.handed.Load() }

// commitNow ends the filling of the current batch (or the next one).
func (s *sink) commitNow() {
	select {
	case s.now <- struct{}{}:
	default:
	}
}

func countURLs(items []item) (n int) {
	for _, it := range items {
		if it.url != "" {
			n++
		}
	}
	return n
}

// describe encodes the RDF of the items' captures and of the objects the
// Analyzer found in them (but the captures' mneme:via,
// which the sink adds once the page they were found on is committed), so
// that workers do this in parallel rather than the single writer.
func (c *Crawl) describe(items []item) {
	qp := quadsPool.Get().(*[]rdf.Quad)
	defer quadsPool.Put(qp)
	quads := (*qp)[:0]
	defer func() { *qp = quads[:0] }()
	for i := range items {
		it := &items[i]
		if it.capture == nil {
			continue
		}
		it.rdf = c.deps.Store.NewBatch()
		quads = it.capture.Quads(c.id, quads[:0])
		for _, q := range quads {
			if err := it.rdf.TryAdd(q); err != nil {
				fmt.Fprintf(c.deps.Log, "capture of %s: skipping a statement: %v\n", it.capture.URL, err)
			}
		}
		for _, q := range it.objects {
			if err := it.rdf.TryAdd(q); err != nil {
				fmt.Fprintf(c.deps.Log, "objects of %s: skipping a statement: %v\n", it.capture.URL, err)
			}
		}
	}
}

// quadsPool recycles describe's statements, some 150 quads (24 KB) a
// page that the batch copies as it encodes them.
var quadsPool = sync.Pool{New: func() any { return new([]rdf.Quad) }}

// commit writes one batch: captures first, then frontier completions.
func (s *sink) commit(batch []item) error {
	c := s.c
	ctx := context.Background() // a batch in hand is always finished, even when stopping
	if s.rdf == nil {
		s.rdf = c.deps.Store.NewBatch()
	}
	b := s.rdf
	if len(s.captured) >= capturedMax {
		clear(s.captured) // not within a batch, whose pages find their via here
	}
	pub, _ := c.deps.Cluster.(RDFSink)
	var shared []rdf.Quad
	for _, it := range batch {
		if it.rdf != nil {
			b.AddBatch(it.rdf)
			if pub != nil {
				shared = append(it.capture.Quads(c.id, shared), it.objects...)
			}
			if it.viaURL != "" {
				via, err := s.captureOf(ctx, it.viaURL)
				if err != nil {
					return err
				}
				if via != "" {
					b.Add(crawlrdf.ViaQuad(c.id, it.capture.IRI, via))
					if pub != nil {
						shared = append(shared, crawlrdf.ViaQuad(c.id, it.capture.IRI, via))
					}
				}
			}
			// A page precedes the pages found on it (Crawl.hand), so
			// those of this batch find its capture here.
			s.captured[it.capture.URL] = it.capture.IRI
		}
	}
	// The batch names WARC records, and so do the digest index's new
	// entries: one fsync makes every record written so far durable before
	// anything on disk refers to them.
	digests := c.dedup.unpersisted()
	if err := c.warcs.Sync(); err != nil {
		return err
	}
	if err := c.dedup.persist(digests); err != nil {
		return err
	}
	if _, err := b.Commit(ctx); err != nil {
		return fmt.Errorf("committing %d captures: %w", len(batch), err)
	}
	if pub != nil && len(shared) > 0 {
		// Before the completions: a URL done here is in the cluster's
		// store too.
		if err := pub.PublishRDF(shared); err != nil {
			return fmt.Errorf("sending %d captures to the cluster's store: %w", len(batch), err)
		}
	}
	s.writeLog(batch)
	if err := s.expedite(batch); err != nil {
		return err
	}
	for _, it := range batch {
		if sch := it.scheduled; sch != nil {
			sch.Wait() // long done, but for a worker descheduled mid-way
			if sch.err != nil {
				return fmt.Errorf("scheduling the links of %s: %w", it.url, sch.err)
			}
		}
	}
	n := 0
	for _, it := range batch {
		if it.url == "" {
			continue
		}
		n++
		if it.queue != "" {
			it.outcome.QueueData = c.inc.queueData(it.queue)
		}
		if err := c.front.Complete(it.url, it.outcome); err != nil {
			return fmt.Errorf("completing %s: %w", it.url, err)
		}
	}
	if err := c.front.Sync(); err != nil {
		return err
	}
	for _, it := range batch {
		if it.capture != nil && it.capture.WARCFile != "" {
			c.pending.done(it.capture.WARCFile)
		}
	}
	if err := c.markCommitted(); err != nil {
		return fmt.Errorf("writing the committed mark: %w", err)
	}
	select {
	case <-s.now: // asked for before this batch was done: the dispatcher asks again if need be
	default:
	}
	s.handed.Add(-int64(n))
	c.doneInFlight(n)
	return nil
}

// writeLog writes the crawl.log lines of a committed batch and syncs
// them, so that the log never names a record a crash lost and seldom
// misses one it kept. A failure is reported, not fatal: the WARC files
// and the store are the archive.
func (s *sink) writeLog(batch []item) {
	c := s.c
	s.logs = s.logs[:0]
	for _, it := range batch {
		s.logs = append(s.logs, it.logs...)
	}
	if len(s.logs) == 0 {
		return
	}
	err := c.log.WriteAll(s.logs)
	if err == nil {
		err = c.logFile.Sync()
	}
	if err != nil {
		fmt.Fprintf(c.deps.Log, "crawl.log: %v\n", err)
	}
	clear(s.logs) // let the entries' strings go
}

// captureOf returns the IRI of a capture of url in this crawl's graph, or
// "" when there is none (the page that linked here was lost in a crash).
func (s *sink) captureOf(ctx context.Context, url string) (string, error) {
	if iri, ok := s.captured[url]; ok {
		return iri, nil
	}
	st := s.c.deps.Store
	ids, err := st.LookupTerms([]rdf.Term{rdf.IRI(ontology.URL), rdf.IRI(url), rdf.IRI(crawlrdf.CrawlIRI(s.c.id))})
	if err != nil {
		return "", err
	}
	if ids[0] == graph.Any || ids[1] == graph.Any || ids[2] == graph.Any {
		return "", nil
	}
	it, err := st.Scan(ctx, graph.Pattern{P: ids[0], O: ids[1], G: ids[2]}, graph.ScanOptions{})
	if err != nil {
		return "", err
	}
	defer it.Close()
	if !it.Next() {
		return "", it.Err()
	}
	t, err := st.Term(it.Quad().S)
	if err != nil {
		return "", err
	}
	return t.Value, nil
}

// expedite makes the embedded resources of the pages of an incremental
// crawl that changed due now, so they are revisited with their page.
func (s *sink) expedite(batch []item) error {
	var urls []string
	for _, it := range batch {
		urls = append(urls, it.embeds...)
	}
	if len(urls) == 0 {
		return nil
	}
	return s.c.front.Expedite(urls, s.c.clock.Now())
}
