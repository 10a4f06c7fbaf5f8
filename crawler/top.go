package crawler

import "github.com/mneme-archive/mneme/crawler/frontier"

// Top returns up to limit queued URLs with the highest frontier scores,
// best first (see frontier.Frontier.Top).
func (c *Crawl) Top(limit int) ([]frontier.Queued, error) { return c.front.Top(limit) }
