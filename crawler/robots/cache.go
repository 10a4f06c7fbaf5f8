package robots

import (
	"container/list"
	"sync"
	"time"

	"github.com/mneme-archive/mneme/crawler/clock"
)

// CacheConfig bounds and times a Cache. Zero fields take the defaults.
type CacheConfig struct {
	Size        int           // sites kept, least recently used evicted first; default 10000
	TTL         time.Duration // how long a fetched file is used; default 24h (RFC 9309 §2.4)
	RetryAfter  time.Duration // when an unreachable robots.txt is fetched again; default 10m
	GiveUpAfter time.Duration // unreachable this long, with no earlier copy: allow all; default 30 days (§2.3.1.4)
}

func (c CacheConfig) withDefaults() CacheConfig {
	if c.Size <= 0 {
		c.Size = 10000
	}
	if c.TTL <= 0 {
		c.TTL = 24 * time.Hour
	}
	if c.RetryAfter <= 0 {
		c.RetryAfter = 10 * time.Minute
	}
	if c.GiveUpAfter <= 0 {
		c.GiveUpAfter = 30 * 24 * time.Hour
	}
	return c
}

// Cache remembers, per site, the rules that apply to one crawler. A site
// key is the scheme and authority ("https://example.com:8443"), because
// robots.txt governs only its own scheme, host and port (RFC 9309 §2.3).
// It is safe for concurrent use and holds at most Size sites.
type Cache struct {
	token string
	cfg   CacheConfig
	clock clock.Clock

	mu    sync.Mutex
	items map[string]*list.Element
	lru   list.List // front = most recently used *entry
}

type entry struct {
	key              string
	agent            *Agent    // rules in force
	expires          time.Time // refetch from then on
	good             *Agent    // rules from the last Available/Unavailable fetch
	unreachableSince time.Time // start of the current run of unreachable fetches
}

// NewCache returns a cache for the crawler named token.
func NewCache(token string, cfg CacheConfig, clk clock.Clock) *Cache {
	return &Cache{token: token, cfg: cfg.withDefaults(), clock: clk, items: map[string]*list.Element{}}
}

// Get returns the rules in force for site. ok is false when the site has
// no entry or its entry expired: the crawler must fetch robots.txt (as a
// prerequisite of the site's other URLs) and Put the result first.
func (c *Cache) Get(site string) (a *Agent, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, found := c.items[site]
	if !found {
		return nil, false
	}
	c.lru.MoveToFront(el)
	e := el.Value.(*entry)
	if !c.clock.Now().Before(e.expires) {
		return nil, false
	}
	return e.agent, true
}

// Put records a fetch of site's robots.txt and returns the rules now in
// force. A fresh file (or its absence) replaces everything and lives TTL.
// When the file is unreachable the site is retried after RetryAfter;
// meanwhile the last good copy stays in force, even past TTL, as RFC 9309
// §2.4 allows, and without one nothing may be fetched, until GiveUpAfter
// of continuous failure, when the file is taken as unavailable.
func (c *Cache) Put(site string, r Result) *Agent {
	now := c.clock.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	var e *entry
	if el, found := c.items[site]; found {
		c.lru.MoveToFront(el)
		e = el.Value.(*entry)
	} else {
		e = &entry{key: site}
		c.items[site] = c.lru.PushFront(e)
		if c.lru.Len() > c.cfg.Size {
			oldest := c.lru.Back()
			c.lru.Remove(oldest)
			delete(c.items, oldest.Value.(*entry).key)
		}
	}
	if r.Kind != Unreachable {
		e.agent = r.Agent(c.token)
		e.good = e.agent
		e.unreachableSince = time.Time{}
		e.expires = now.Add(c.cfg.TTL)
		return e.agent
	}
	if e.unreachableSince.IsZero() {
		e.unreachableSince = now
	}
	switch {
	case e.good != nil:
		e.agent = e.good
	case now.Sub(e.unreachableSince) >= c.cfg.GiveUpAfter:
		e.agent = AllowAll("robots.txt unreachable since " + e.unreachableSince.UTC().Format(time.RFC3339) + ", assumed unavailable: " + r.Reason)
	default:
		e.agent = r.Agent(c.token)
	}
	e.expires = now.Add(c.cfg.RetryAfter)
	return e.agent
}

// Len returns the number of sites cached.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}
