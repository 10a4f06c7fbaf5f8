package fetch

import (
	"context"
	"net"
	"net/netip"
	"sync"
	"time"
)

// Resolver looks up the addresses of a host; *net.Resolver implements it.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// negativeTTL is how long a failed lookup is remembered: long enough that the
// many queued URLs of a dead host do not each wait for the resolver, short
// enough that a passing failure is retried soon.
const negativeTTL = time.Minute

// dnsCache remembers lookups for a fixed time (Go's resolver does not report
// record TTLs) and shares one lookup among concurrent callers for a host. It
// holds at most max entries: expired ones are dropped first, then arbitrary
// ones (map order), which is enough for a cache whose misses are cheap.
type dnsCache struct {
	resolver Resolver
	hosts    map[string][]netip.Addr
	ttl      time.Duration
	max      int

	mu      sync.Mutex
	entries map[string]*dnsEntry
}

type dnsEntry struct {
	ready   chan struct{} // closed when addrs and err are set
	addrs   []netip.Addr
	err     error
	expires time.Time
}

func newDNSCache(r Resolver, hosts map[string][]netip.Addr, ttl time.Duration, max int) *dnsCache {
	return &dnsCache{resolver: r, hosts: hosts, ttl: ttl, max: max, entries: make(map[string]*dnsEntry)}
}

// lookup returns the addresses of host, from Hosts, the cache or the resolver.
func (c *dnsCache) lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	if addrs, ok := c.hosts[host]; ok {
		return addrs, nil
	}
	now := time.Now()
	c.mu.Lock()
	e, ok := c.entries[host]
	if ok {
		select {
		case <-e.ready:
			if now.After(e.expires) {
				ok = false
			}
		default: // a lookup is under way: wait for it
		}
	}
	if !ok {
		c.evict(now)
		e = &dnsEntry{ready: make(chan struct{})}
		c.entries[host] = e
		c.mu.Unlock()
		e.addrs, e.err = c.resolve(ctx, host)
		ttl := c.ttl
		if e.err != nil {
			ttl = min(ttl, negativeTTL)
		}
		e.expires = time.Now().Add(ttl)
		close(e.ready)
		if e.err != nil && ctx.Err() != nil {
			// our own deadline failed the lookup, not the name: forget it
			c.mu.Lock()
			if c.entries[host] == e {
				delete(c.entries, host)
			}
			c.mu.Unlock()
		}
		return e.addrs, e.err
	}
	c.mu.Unlock()
	select {
	case <-e.ready:
		return e.addrs, e.err
	case <-ctx.Done():
		return nil, &net.DNSError{Err: ctx.Err().Error(), Name: host, IsTimeout: true}
	}
}

func (c *dnsCache) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	addrs, err := c.resolver.LookupNetIP(ctx, "ip", host)
	if err == nil && len(addrs) == 0 {
		err = &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	return addrs, err
}

// evict makes room for one entry; c.mu is held.
func (c *dnsCache) evict(now time.Time) {
	if len(c.entries) < c.max {
		return
	}
	for h, e := range c.entries {
		select {
		case <-e.ready:
			if now.After(e.expires) {
				delete(c.entries, h)
			}
		default:
		}
	}
	for h := range c.entries {
		if len(c.entries) < c.max {
			break
		}
		delete(c.entries, h)
	}
}

// dialer connects to a host:port through the DNS cache, trying each address in
// turn with the connect timeout.
type dialer struct {
	net net.Dialer
	dns *dnsCache
}

func (d *dialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	addrs, err := d.dns.lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	var last error
	for _, a := range addrs {
		c, err := d.net.DialContext(ctx, network, net.JoinHostPort(a.Unmap().String(), port))
		if err == nil {
			return c, nil
		}
		last = err
		if ctx.Err() != nil {
			break
		}
	}
	return nil, last
}

// Lookup returns the addresses of host as the fetcher dials it: from
// Config.Hosts, the DNS cache or the resolver. A crawl in a cluster of
// nodes claims the address before fetching.
func (f *Fetcher) Lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	return f.dialer.dns.lookup(ctx, host)
}
