package graph

// generations is a bounded cache in two generations: when the current map
// is full it becomes the old one (the one before is dropped), and an entry
// found in the old one moves to the current one, so that entries in use
// survive the turnover. It is not safe for concurrent use.
type generations[K comparable, V any] struct {
	cur, old map[K]V
	max      int // entries per generation
}

func newGenerations[K comparable, V any](max int) generations[K, V] {
	return generations[K, V]{cur: make(map[K]V, min(max, 1024)), max: max}
}

func (g *generations[K, V]) get(k K) (V, bool) {
	if v, ok := g.cur[k]; ok {
		return v, true
	}
	v, ok := g.old[k]
	if ok {
		g.put(k, v)
	}
	return v, ok
}

func (g *generations[K, V]) put(k K, v V) {
	if len(g.cur) >= g.max {
		g.old, g.cur = g.cur, make(map[K]V, g.max)
	}
	g.cur[k] = v
}

func (g *generations[K, V]) reset() { g.cur, g.old = make(map[K]V, min(g.max, 1024)), nil }

// Bounds of the writers' caches (Store.written, Store.present): some 30 MB
// of URLs, and some 15 MB of keys, at most.
const (
	writtenTermsMax = 1 << 17
	presentMax      = 1 << 17
)

// presentKeys remembers quads (prefixes of four columns) and the prefixes
// the statistics count that writers found in the store, so that those
// batches name again and again — an anchor text stated by every page
// linking to a URL, the (mneme:linksTo, URL) of a popular target — are not
// read each time. Insertions never make an entry wrong; a commit that
// deletes quads empties it.
type presentKeys struct{ generations[prefix, struct{}] }

func (c *presentKeys) has(p prefix) bool {
	_, ok := c.get(p)
	return ok
}

func (c *presentKeys) add(p prefix) { c.put(p, struct{}{}) }
