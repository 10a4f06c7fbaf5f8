package frontier

import "time"

// Politeness computes how long a queue waits after a fetch. The crawler
// picks the Politeness of a host (overridable per host pattern) and passes
// the result to Complete as Outcome.SnoozeUntil or RetryAt.
type Politeness struct {
	DelayFactor   float64       // wait = DelayFactor × last fetch duration…
	MinDelay      time.Duration // …clamped to [MinDelay, MaxDelay]
	MaxDelay      time.Duration
	MaxCrawlDelay time.Duration // robots.txt Crawl-delay is honoured up to this
	RetryDelay    time.Duration // wait before retrying a retriable error
	// MaxRetryDelay caps the wait before a retry, a server's Retry-After
	// included (0: no cap), so that no answer can park a URL or a host
	// for days.
	MaxRetryDelay time.Duration
	MaxRetries    int // retries before a URL is given up as Failed
}

// DefaultPoliteness are Heritrix 3's defaults.
var DefaultPoliteness = Politeness{
	DelayFactor:   5,
	MinDelay:      3 * time.Second,
	MaxDelay:      30 * time.Second,
	MaxCrawlDelay: 300 * time.Second,
	RetryDelay:    900 * time.Second,
	MaxRetryDelay: time.Hour,
	MaxRetries:    30,
}

// Wait is the pause after a fetch that took fetch, on a host whose
// robots.txt asks for crawlDelay (0: none).
func (p Politeness) Wait(fetch, crawlDelay time.Duration) time.Duration {
	w := time.Duration(p.DelayFactor * float64(fetch))
	w = min(max(w, p.MinDelay), p.MaxDelay)
	return max(w, min(crawlDelay, p.MaxCrawlDelay))
}

// Retry says when a URL that failed with a retriable error for the
// retries-th time (counting this one) is tried again; retryAfter is the
// server's Retry-After (0: none). ok is false once MaxRetries is spent.
func (p Politeness) Retry(now time.Time, retries int, retryAfter time.Duration) (at time.Time, ok bool) {
	if retries > p.MaxRetries {
		return time.Time{}, false
	}
	d := max(p.RetryDelay, retryAfter)
	if p.MaxRetryDelay > 0 {
		d = min(d, p.MaxRetryDelay)
	}
	return now.Add(d), true
}
