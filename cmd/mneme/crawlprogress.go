package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mneme-archive/mneme/crawler"
)

// crawlProgress reports a running crawl: a line redrawn in place on a
// terminal, a plain line every ten seconds otherwise.
type crawlProgress struct {
	w     io.Writer
	tty   bool
	c     *crawler.Crawl
	limit int64 // the page limit, 0 for none
	began time.Time
	base  crawler.Status // at the start of this run
	mu    sync.Mutex     // orders lines with the crawl's own messages
	done  chan struct{}
	wg    sync.WaitGroup
}

// newCrawlProgress makes the progress report on w; until start, it only
// passes messages through.
func newCrawlProgress(w io.Writer) *crawlProgress {
	return &crawlProgress{w: w, tty: isTerminal(w), done: make(chan struct{})}
}

// start begins reporting on c.
func (p *crawlProgress) start(c *crawler.Crawl) {
	p.c, p.limit, p.began, p.base = c, c.Spec().Limits.Pages, time.Now(), c.Status()
	every := 10 * time.Second
	if p.tty {
		every = 500 * time.Millisecond
	}
	tick(&p.wg, p.done, every, p.print)
}

// line is the progress line of status s.
func (p *crawlProgress) line(s crawler.Status) string {
	elapsed := time.Since(p.began)
	pages := s.Fetched - p.base.Fetched
	rate := float64(pages) / max(elapsed.Seconds(), 1e-3)
	var errs int64
	for _, n := range s.Errors {
		errs += n
	}
	for _, n := range p.base.Errors {
		errs -= n
	}
	line := fmt.Sprintf("%s pages  %.1f pages/s  %s queued  %d in flight  %d errors  %s  %s",
		humanCount(float64(pages)), rate, humanCount(float64(s.Queued)), s.InFlight, errs,
		humanBytes(s.Bytes-p.base.Bytes), elapsed.Round(time.Second))
	// A page limit bounds what is left; without one the frontier grows
	// as pages are found, and no estimate would hold.
	if p.limit > 0 && rate > 0 {
		left := max(p.limit-s.Fetched, 0)
		frac := min(float64(s.Fetched)/float64(p.limit), 1)
		line += fmt.Sprintf("  %s %3.0f%%  ETA %s", bar(frac, 16), 100*frac,
			(time.Duration(float64(left)/rate) * time.Second).Round(time.Second))
	}
	return line
}

func (p *crawlProgress) print() {
	line := p.line(p.c.Status())
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
	} else {
		fmt.Fprintf(p.w, "progress: %s\n", line)
	}
}

// Write passes the crawl's messages (seed failures, warnings) through,
// on their own line.
func (p *crawlProgress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
	return p.w.Write(b)
}

// stop ends the reports, clearing the line on a terminal.
func (p *crawlProgress) stop() {
	close(p.done)
	p.wg.Wait()
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
