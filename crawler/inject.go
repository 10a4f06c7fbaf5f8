package crawler

import (
	"context"

	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/inject"
)

// Inject schedules or rescores the scored items (the score, in [0, 1], is
// the frontier score: highest first; the crawl's update function combines
// it with the score of a queued URL) and blacklists the others marked so.
// Injected URLs are taken as seeds: no scope check, hop path "". They are
// durable when Inject returns. Scheduling and blacklisting are one atomic
// step each, scheduling first.
func (c *Crawl) Inject(_ context.Context, items []inject.Item) (inject.Result, error) {
	c.closeMu.RLock()
	defer c.closeMu.RUnlock()
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return inject.Result{}, inject.ErrNotRunning
	}
	var cands []frontier.Candidate
	var black []string
	for _, it := range items {
		if it.Blacklisted {
			black = append(black, it.URL.Canonical)
			continue
		}
		cands = append(cands, frontier.Candidate{URL: it.URL.Canonical, QueueKey: it.URL.HostKey(), Score: it.Score, Update: c.update})
	}
	if err := c.front.Schedule(cands); err != nil {
		return inject.Result{}, err
	}
	if err := c.front.Flush(); err != nil {
		return inject.Result{}, err
	}
	if len(black) > 0 {
		if err := c.front.Blacklist(black); err != nil {
			return inject.Result{}, err
		}
	}
	if err := c.front.Sync(); err != nil {
		return inject.Result{}, err
	}
	c.wakeUp()
	return inject.Result{Scheduled: len(cands), Blacklisted: len(black)}, nil
}
