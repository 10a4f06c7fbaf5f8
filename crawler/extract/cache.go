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
	m  map[cacheKey]ref
}

// cacheKey is a reference with the part of the base it depends on; both
// strings already exist, so building a key allocates nothing.
type cacheKey struct {
	prefix string // "", the base's origin or its directory
	ref    string
}

func newResolveCache(size int) *resolveCache {
	c := &resolveCache{seed: maphash.MakeSeed(), perShard: max(size/64, 1)}
	for i := range c.shards {
		c.shards[i].m = make(map[cacheKey]ref)
	}
	return c
}

// keyFor returns the key for ref resolved against a base whose origin and
// directory prefixes are given; ok is false when the reference is not
// cacheable.
func keyFor(ref, origin, dir string) (k cacheKey, ok bool) {
	if ref == "" || ref[0] == '?' || ref[0] == '#' {
		return k, false
	}
	for i := 0; i < len(ref); i++ {
		if ref[i] <= ' ' || ref[i] == 0x7f {
			return k, false
		}
	}
	switch {
	case hasPrefixFold(ref, "http://"), hasPrefixFold(ref, "https://"):
		return cacheKey{"", ref}, true
	case ref[0] == '/' || ref[0] == '\\':
		return cacheKey{origin, ref}, origin != ""
	}
	return cacheKey{dir, ref}, dir != ""
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// prefixes returns the origin ("scheme://host:port") and directory
// ("scheme://host:port/a/b/") of a hierarchical base, or "" for others. A
// directory never equals an origin (it ends in '/'), so keys cannot collide.
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

func (c *resolveCache) shard(key cacheKey) *cacheShard {
	return &c.shards[maphash.Comparable(c.seed, key)%uint64(len(c.shards))]
}

func (c *resolveCache) get(key cacheKey) (ref, bool) {
	s := c.shard(key)
	s.mu.Lock()
	r, ok := s.m[key]
	s.mu.Unlock()
	return r, ok
}

func (c *resolveCache) put(key cacheKey, r ref) {
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
	var (
		key      cacheKey
		cachable bool
	)
	if c.cache != nil {
		if key, cachable = keyFor(s, c.origin, c.dir); cachable {
			if r, ok := c.cache.get(key); ok {
				return r
			}
		}
	}
	u, err := c.opts.Canonicalizer.Resolve(c.base, s)
	r := ref{u: u, ok: err == nil && crawlable(u)}
	if cachable {
		c.cache.put(key, r)
	}
	return r
}
