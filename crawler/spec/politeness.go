package spec

import (
	"path"
	"time"

	"github.com/mneme-archive/mneme/crawler/frontier"
)

// HostPoliteness is the politeness in force for one queue.
type HostPoliteness struct {
	frontier.Politeness
	Valence int
	// Off: no delays (politeness off, on a loopback host).
	Off bool
}

// The retry waits at most of a queue with politeness off (a loopback
// test or benchmark server): a retriable error must not hold such a crawl
// for Heritrix's quarter of an hour.
const (
	OffRetryDelay    = time.Second
	OffMaxRetryDelay = 10 * time.Second
)

// For returns the politeness of the queue with key queueKey (host or
// host:port): the first matching host rule over the crawl-wide values.
// Politeness off applies to loopback hosts only; any other host that the
// scope lets in is still crawled politely.
func (p Politeness) For(queueKey string) HostPoliteness {
	r, v := p.base(), p.Valence
	for _, h := range p.Hosts {
		if ok, _ := path.Match(h.Pattern, queueKey); ok {
			r, v = p.apply(h)
			break
		}
	}
	hp := HostPoliteness{Politeness: r, Valence: v}
	if p.Off && IsLoopback(queueKey) {
		hp.Off = true
		hp.DelayFactor, hp.MinDelay, hp.MaxDelay, hp.MaxCrawlDelay = 0, 0, 0, 0
		hp.RetryDelay = min(hp.RetryDelay, OffRetryDelay)
		if hp.MaxRetryDelay == 0 || hp.MaxRetryDelay > OffMaxRetryDelay {
			hp.MaxRetryDelay = OffMaxRetryDelay
		}
	}
	return hp
}

func (p Politeness) base() frontier.Politeness {
	return frontier.Politeness{
		DelayFactor: p.DelayFactor, MinDelay: time.Duration(p.MinDelay), MaxDelay: time.Duration(p.MaxDelay),
		MaxCrawlDelay: time.Duration(p.MaxCrawlDelay), RetryDelay: time.Duration(p.RetryDelay),
		MaxRetryDelay: time.Duration(p.MaxRetryDelay), MaxRetries: p.MaxRetries,
	}
}

// apply lays rule h over the crawl-wide values.
func (p Politeness) apply(h HostRule) (frontier.Politeness, int) {
	r, v := p.base(), p.Valence
	set := func(dst *time.Duration, src *Duration) {
		if src != nil {
			*dst = time.Duration(*src)
		}
	}
	if h.DelayFactor != nil {
		r.DelayFactor = *h.DelayFactor
	}
	set(&r.MinDelay, h.MinDelay)
	set(&r.MaxDelay, h.MaxDelay)
	set(&r.MaxCrawlDelay, h.MaxCrawlDelay)
	set(&r.RetryDelay, h.RetryDelay)
	set(&r.MaxRetryDelay, h.MaxRetryDelay)
	if h.MaxRetries != nil {
		r.MaxRetries = *h.MaxRetries
	}
	if h.Valence != nil {
		v = *h.Valence
	}
	return r, v
}
