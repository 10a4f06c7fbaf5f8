package crawler

import (
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/inject"
	"github.com/mneme-archive/mneme/crawler/scope"
	"github.com/mneme-archive/mneme/crawler/spec"
)

// Edit replaces the seeds and scope of an open crawl, running or not. The
// edited specification is checked as New checks one (an invalid edit
// changes nothing) and written to spec.yaml, so that a resumed crawl keeps
// it. Links found from then on are judged by the new scope; URLs already
// queued stay queued, but in an incremental crawl a URL due for a revisit
// that the new scope rejects is parked (disregarded). Seeds that are new are scheduled like the first ones.
// It fails with inject.ErrNotRunning once the crawl is closed.
func (c *Crawl) Edit(seeds []string, sc spec.Scope) error {
	c.mu.Lock()
	defer c.mu.Unlock() // keeps Close away and edits in turn
	if c.closed {
		return inject.ErrNotRunning
	}
	s := *c.shown
	s.Seeds, s.Scope = seeds, sc
	parsed, err := s.Check(c.canon)
	if err != nil {
		return err
	}
	newScope, err := scope.New(s.ScopeConfig(), parsed, c.canon)
	if err != nil {
		return err
	}
	data, err := s.Marshal()
	if err != nil {
		return err
	}
	path := c.layout.Spec(c.id)
	if err := replaceFile(path, data, true); err != nil {
		return err
	}
	old := map[string]bool{}
	for _, u := range c.seeds {
		old[u.Canonical] = true
	}
	var cands []frontier.Candidate
	for _, u := range parsed {
		if !old[u.Canonical] {
			cands = append(cands, frontier.Candidate{URL: u.Canonical, QueueKey: u.HostKey(), Score: 1})
		}
	}
	if err := c.front.Schedule(cands); err != nil {
		return err
	}
	if err := c.front.Sync(); err != nil {
		return err
	}
	c.scope.Store(newScope)
	c.seeds, c.shown = parsed, &s
	c.wakeUp()
	return nil
}
