package crawler

import (
	"context"
	"fmt"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/spec"

	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/inject"
)

// Inject schedules or rescores the scored items (the score, in [0, 1], is
// the frontier score: highest first; the crawl's update function combines
// it with the score of a queued URL) and blacklists the others marked so.
// Injected URLs are admitted as links of a seed would be: each must be in
// the crawl's scope (unless the item overrides the scope, which is
// logged), and with politeness off on a loopback host, as seeds must;
// otherwise nothing is applied and the error is an *inject.RefusedError
// naming the first refused item. Admitted URLs are scheduled as seeds
// (hop path ""). They are durable when Inject returns. Scheduling and
// blacklisting are one atomic step each, scheduling first.
func (c *Crawl) Inject(_ context.Context, items []inject.Item) (inject.Result, error) {
	for i, it := range items {
		if it.Blacklisted {
			continue
		}
		if why := c.admit(it.URL, it.OverrideScope); why != "" {
			return inject.Result{}, &inject.RefusedError{Item: i + 1, URL: it.URL.Href, Why: why}
		}
	}
	release, ok := c.hold()
	if !ok {
		return inject.Result{}, inject.ErrNotRunning
	}
	defer release()
	var cands []frontier.Candidate
	var black []string
	for _, it := range items {
		if it.Blacklisted {
			black = append(black, it.URL.Canonical)
			continue
		}
		cands = append(cands, frontier.Candidate{URL: it.URL.Canonical, QueueKey: it.URL.HostKey(), Score: it.Score, Update: c.update})
	}
	local, sent, err := c.route(cands)
	if err != nil {
		return inject.Result{}, err
	}
	if err := c.front.Schedule(local); err != nil {
		return inject.Result{}, err
	}
	if err := sent(); err != nil {
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
	for _, it := range items {
		if !it.Blacklisted && it.OverrideScope {
			if d := c.scope.Load().Decide(it.URL, injectHops); !d.Accept {
				fmt.Fprintf(c.deps.Log, "injected by operator override despite the scope: %s (%s)\n", it.URL.Href, d)
			}
		}
	}
	c.wakeUp()
	return inject.Result{Scheduled: len(cands), Blacklisted: len(black)}, nil
}

// injectHops is the hop path an injected URL's scope is decided with: a
// link from a seed, so that the scope's rules apply (a seed's own hop
// path, "", is in scope by definition).
const injectHops = "L"

// admit says why an injected URL is refused, or "" when it is admitted.
func (c *Crawl) admit(u canon.URL, overrideScope bool) string {
	if c.spec.Politeness.Off && !spec.IsLoopback(u.Host) {
		return fmt.Sprintf("politeness is off in this crawl, so only URLs on loopback hosts can be injected; %s is not one", u.Host)
	}
	if overrideScope {
		return ""
	}
	if d := c.scope.Load().Decide(u, injectHops); !d.Accept {
		return d.String() + ` (add "override-scope": true to schedule it anyway)`
	}
	return ""
}
