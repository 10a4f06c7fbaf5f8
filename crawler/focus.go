package crawler

import (
	"io"
	"sync"

	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/inject"
	"github.com/mneme-archive/mneme/graph"
)

// Focuser scores the links of a focused crawl (spec section focus;
// package analysis/focus): it is given every fetched page with the
// analysis that chose its links, may drop links from an.Follow (hosts and
// patterns never to crawl), may add statements about the page to an.Quads
// (its relevance), and returns one score in [0, 1] per remaining link of
// an.Follow, which orders the link in its queue (combined with a queued
// URL's score by the crawl's update function). It is called concurrently
// by the workers.
type Focuser interface {
	Focus(p Page, an *Analysis) []float64
	Close() error
}

// FocusFunc builds the Focuser of a crawl whose spec has a focus section,
// when the crawl opens (Deps.Focus).
type FocusFunc func(c *Crawl, store *graph.Store) (Focuser, error)

// Focuser returns the crawl's Focuser, nil when the crawl is not focused.
func (c *Crawl) Focuser() Focuser { return c.focus }

// Rescore changes the scores of queued URLs (URLs not queued are left
// alone): a focused crawl's new weights reorder its queues.
func (c *Crawl) Rescore(updates []frontier.Rescore) error {
	release, ok := c.hold()
	if !ok {
		return inject.ErrNotRunning
	}
	defer release()
	return c.front.UpdatePriority(updates)
}

// focusLinks has the crawl's Focuser score the links of a fetched page,
// in place: the page's links to follow may shrink, and the returned
// scores go with an.Follow.
func (c *Crawl) focusLinks(u Page, an *Analysis) []float64 {
	if c.focus == nil {
		return nil
	}
	return c.focus.Focus(u, an)
}

// focusApply has the frontier apply the scored links of the last
// focus.batch pages (default: as many as the crawl has workers) to its
// queues, so that the next claims see them: the seen-set pass otherwise
// waits for a batch of 2^17 links or an empty queue, which would make a
// focused crawl of one host breadth-first by generations. With w workers
// the pages in flight already take their URLs up to w pages before the
// links of the pages finishing could have ranked them, so a batch of w
// pages changes little in the order while it spares most of the passes
// (each a frontier commit, and pages share many links).
func (c *Crawl) focusApply(pages int) error {
	if c.focus == nil {
		return nil
	}
	every := int64(c.spec.Focus.Batch)
	if every <= 0 {
		every = int64(max(c.spec.Workers, 1))
	}
	if c.focusPages.Add(int64(pages)) < every {
		return nil
	}
	c.focusPages.Store(0)
	return c.focusFlush()
}

// focusFlush runs the frontier's seen-set pass, coalescing requests as a
// group commit does: a worker asking while a pass runs leaves its links
// to the next pass, which the running flusher starts when it is done,
// instead of queueing a pass of its own behind the frontier's lock. With
// the crawl idle every page gets its pass; under load the passes take
// the links of several pages at once (a pass costs about a seek per
// distinct URL, and pages share many links).
func (c *Crawl) focusFlush() error {
	f := &c.focusFlushing
	f.mu.Lock()
	if f.running {
		f.again = true
		f.mu.Unlock()
		return nil
	}
	f.running = true
	for {
		f.again = false
		f.mu.Unlock()
		err := c.front.Flush()
		f.mu.Lock()
		if err != nil || !f.again {
			f.running = false
			f.mu.Unlock()
			return err
		}
	}
}

// flushState is focusFlush's: whether a pass runs, and whether another
// was asked for meanwhile.
type flushState struct {
	mu      sync.Mutex
	running bool
	again   bool
}

// focusExtract is the standard extractor of a focused crawl: it keeps
// the paragraph around each link, which the focus analysis scores.
func focusExtract(o extract.Options) *extract.Standard {
	o.MaxParagraph = 0
	return extract.New(o)
}

// Log is where the crawl writes its warnings.
func (c *Crawl) Log() io.Writer { return c.deps.Log }
