package graph

import (
	"github.com/maypok86/otter/v2"

	"github.com/mneme-archive/mneme/rdf"
)

// DefaultTermCacheBytes is the decoded-term cache of a store when
// OpenOptions.TermCacheBytes is 0.
const DefaultTermCacheBytes = 256 << 20

// termCache keeps decoded dictionary entries, so that a warm query does
// not read the dictionary again: IDs are hashes, so the terms of one
// result are spread over the whole dictionary and each uncached one costs
// a random read. An ID's term never changes once written (entries are
// never deleted or rewritten), so one cache serves the live view and
// every snapshot. A nil cache caches nothing.
type termCache struct {
	c *otter.Cache[ID, rdf.Term]
}

// termOverhead approximates the memory of a cache entry beyond its
// strings: the key, the Term header and the cache's own node.
const termOverhead = 128

func newTermCache(budget int64) *termCache {
	if budget == 0 {
		budget = DefaultTermCacheBytes
	}
	if budget < 0 {
		return nil
	}
	c, err := otter.New(&otter.Options[ID, rdf.Term]{
		MaximumWeight: uint64(budget),
		Weigher: func(_ ID, t rdf.Term) uint32 {
			return uint32(termOverhead + len(t.Value) + len(t.Datatype) + len(t.Lang))
		},
	})
	if err != nil {
		// Only invalid options fail, and these are fixed.
		panic(err)
	}
	return &termCache{c: c}
}

func (c *termCache) get(id ID) (rdf.Term, bool) {
	if c == nil {
		return rdf.Term{}, false
	}
	return c.c.GetIfPresent(id)
}

func (c *termCache) put(id ID, t rdf.Term) {
	if c != nil {
		c.c.Set(id, t)
	}
}
