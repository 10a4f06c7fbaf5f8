package extract

import (
	"hash/maphash"
	"strings"
	"sync"

	"github.com/mneme-archive/mneme/crawler/canon"
)

// resolveCache remembers resolutions across documents. Resolving a reference
// costs microseconds and dozens of allocations in the WHATWG parser, while
// most links of a site (navigation, footers, static assets) repeat on every
// page. A reference's resolution depends on the base only through parts that
// the cache key includes, so a hit is exactly what Resolve would return:
//
//   - "http://…" and "https://…" references depend on nothing else;
//   - "/…" references (root- or scheme-relative) on the base's origin;
//   - other references on the base up to its last path '/', except those
//     starting with '?' or '#', which are not cached.
//
// References holding spaces or control characters, which the URL parser
// strips or encodes specially, are not cached either. The cache is sharded
// to keep extractors on many goroutines from contending, and a full shard is
// simply emptied: the cost of a miss is one Resolve.
type resolveCache struct {
	seed     maphash.Seed
	perShard int
	shards   [64]cacheShard
}

type cacheShard struct {
	mu sync.Mutex
	m  map[string]ref
}

func newResolveCache(size int) *resolveCache {
	c := &resolveCache{seed: maphash.MakeSeed(), perShard: max(size/64, 1)}
	for i := range c.shards {
		c.shards[i].m = make(map[string]ref)
	}
	return c
}

// cacheKey returns the key for ref resolved against a base whose origin and
// directory prefixes are given, or "" when the reference is not cacheable.
func cacheKey(ref, origin, dir string) string {
	if ref == "" || ref[0] == '?' || ref[0] == '#' {
		return ""
	}
	for i := 0; i < len(ref); i++ {
		if ref[i] <= ' ' || ref[i] == 0x7f {
			return ""
		}
	}
	switch {
	case hasPrefixFold(ref, "http://"), hasPrefixFold(ref, "https://"):
		return ref
	case ref[0] == '/' || ref[0] == '\\':
		if origin == "" {
			return ""
		}
		return origin + "\x00" + ref
	}
	if dir == "" {
		return ""
	}
	return dir + "\x00" + ref
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// prefixes returns the origin ("scheme://host:port") and directory
// ("scheme://host:port/a/b/") of a hierarchical base, or "" for others.
func prefixes(base canon.URL) (origin, dir string) {
	if !base.Hierarchical() {
		return "", ""
	}
	href := base.Href
	start := len(base.Scheme) + len("://")
	slash := strings.IndexByte(href[start:], '/')
	if slash < 0 {
		return "", ""
	}
	origin = href[:start+slash]
	path := href
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	return origin, path[:strings.LastIndexByte(path, '/')+1]
}

func (c *resolveCache) shard(key string) *cacheShard {
	return &c.shards[maphash.String(c.seed, key)%uint64(len(c.shards))]
}

func (c *resolveCache) get(key string) (ref, bool) {
	s := c.shard(key)
	s.mu.Lock()
	r, ok := s.m[key]
	s.mu.Unlock()
	return r, ok
}

func (c *resolveCache) put(key string, r ref) {
	s := c.shard(key)
	s.mu.Lock()
	if len(s.m) >= c.perShard {
		clear(s.m)
	}
	s.m[key] = r
	s.mu.Unlock()
}

// resolve resolves a trimmed reference against the collector's base,
// through the cache when the reference allows it.
func (c *collector) resolve(s string) ref {
	var key string
	if c.cache != nil {
		key = cacheKey(s, c.origin, c.dir)
		if key != "" {
			if r, ok := c.cache.get(key); ok {
				return r
			}
		}
	}
	u, err := c.opts.Canonicalizer.Resolve(c.base, s)
	r := ref{u: u, ok: err == nil && crawlable(u)}
	if key != "" {
		c.cache.put(key, r)
	}
	return r
}
