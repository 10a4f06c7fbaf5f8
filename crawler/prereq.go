package crawler

import (
	"context"
	"io"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/robots"
)

// robotsCall is a robots.txt fetch under way, which other workers needing
// the same site wait for.
type robotsCall struct {
	done  chan struct{}
	agent *robots.Agent
}

// robotsFor returns the robots.txt rules for u's site, fetching the file
// first when the cache has no fresh copy. The fetch is a prerequisite (hop
// P) of u: archived, logged and described like any capture, and returned
// as items for the RDF writer.
func (c *Crawl) robotsFor(ctx context.Context, worker int, u canon.URL, cl *frontier.Claim) (*robots.Agent, []item, error) {
	site := siteOf(u)
	if a, ok := c.robots.Get(site); ok {
		return a, nil, nil
	}
	c.robotsMu.Lock()
	if call, ok := c.robotsCalls[site]; ok {
		c.robotsMu.Unlock()
		select {
		case <-call.done:
			return call.agent, nil, nil
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
	call := &robotsCall{done: make(chan struct{})}
	c.robotsCalls[site] = call
	c.robotsMu.Unlock()
	defer func() {
		c.robotsMu.Lock()
		delete(c.robotsCalls, site)
		c.robotsMu.Unlock()
		close(call.done)
	}()

	items, result, err := c.fetchRobots(ctx, worker, site, cl.Hops+"P", u.Href)
	if err != nil {
		return nil, nil, err
	}
	call.agent = c.robots.Put(site, result)
	if result.Robots != nil && len(result.Robots.Sitemaps) > 0 && c.seedSite(u) != "" && len(items) > 0 {
		last := &items[len(items)-1]
		last.cands = append(last.cands, c.sitemapCandidates(site, result.Robots.Sitemaps, u.Href)...)
	}
	return call.agent, items, nil
}

// fetchRobots fetches site's robots.txt, following up to
// robots.MaxRedirects redirects (each hop archived).
func (c *Crawl) fetchRobots(ctx context.Context, worker int, site, hops, via string) ([]item, robots.Result, error) {
	u, err := c.canon.Parse(site + "/robots.txt")
	if err != nil {
		return nil, robots.Result{}, err
	}
	var items []item
	for redirects := 0; ; redirects++ {
		res := c.fetcher.Fetch(ctx, c.http.request(u, via))
		if abandoned(ctx, res) {
			res.Close()
			return nil, robots.Result{}, ctx.Err()
		}
		capt, _, err := c.record(worker, res, hops, via, nil, nil, nil)
		if err != nil {
			res.Close()
			return nil, robots.Result{}, err
		}
		items = append(items, item{capture: capt, viaURL: via})
		c.finish(Fetch{URL: u.Href, Queue: u.HostKey(), Hops: hops, Via: via, Worker: worker, Claimed: c.clock.Now(),
			Status: res.Status, Duration: res.Duration, Size: res.ContentLength, MimeType: res.MediaType, Outcome: "prerequisite", Error: errText(res.Err)})
		if res.Status >= 300 && res.Status < 400 && res.Location.Href != "" && redirects < robots.MaxRedirects {
			via, u = u.Href, res.Location
			res.Close()
			continue
		}
		var body []byte
		if res.Body != nil && res.Status >= 200 && res.Status < 300 {
			body, err = io.ReadAll(io.LimitReader(res.Body.Reader(), robots.MaxBytes))
		}
		status := res.Status
		var fetchErr error // only a fetch without a response is a network error
		if status <= 0 {
			status, fetchErr = 0, res.Err
			if fetchErr == nil {
				fetchErr = statusError(res.Status)
			}
		}
		res.Close()
		if err != nil {
			return nil, robots.Result{}, err
		}
		return items, robots.FromResponse(status, body, fetchErr), nil
	}
}

// errText is err's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
