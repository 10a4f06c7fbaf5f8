package graph

// writtenTermsMax bounds each generation of the writers' term cache: two
// generations of at most this many terms, some 30 MB for URLs.
const writtenTermsMax = 1 << 17

// writtenTerms maps the encodings of terms that writers recently resolved
// to their IDs, so that the terms a batch names again and again — its
// predicates and graph, classes, shared URLs — are not looked up in the
// dictionary each time. An entry never goes stale: dictionary entries are
// never deleted or changed. It keeps two generations: when the current
// one is full it becomes the old one, and a term found in the old one
// moves to the current one, so terms in use stay and the cache is bounded.
// It is used under the store's write lock only.
type writtenTerms struct {
	cur, old map[string]ID
}

func newWrittenTerms() *writtenTerms {
	return &writtenTerms{cur: map[string]ID{}}
}

func (c *writtenTerms) get(enc []byte) (ID, bool) {
	if id, ok := c.cur[string(enc)]; ok {
		return id, true
	}
	id, ok := c.old[string(enc)]
	if ok {
		c.put(string(enc), id)
	}
	return id, ok
}

func (c *writtenTerms) put(enc string, id ID) {
	if len(c.cur) >= writtenTermsMax {
		c.old, c.cur = c.cur, make(map[string]ID, writtenTermsMax)
	}
	c.cur[enc] = id
}

// presentMax bounds each generation of the writers' presence cache.
const presentMax = 1 << 17

// presentKeys remembers quads (prefixes of four columns) and the prefixes
// the statistics count that writers found in the store, so that those
// that batches name again and again — an anchor text stated by every page
// linking to a URL, the (mneme:linksTo, URL) of a popular target — are
// not read each time. Insertions never make an entry wrong; a commit that
// deletes quads empties it. Two generations bound it, as for
// writtenTerms. It is used under the store's write lock only.
type presentKeys struct {
	cur, old map[prefix]struct{}
}

func newPresentKeys() *presentKeys { return &presentKeys{cur: map[prefix]struct{}{}} }

func (c *presentKeys) has(p prefix) bool {
	if _, ok := c.cur[p]; ok {
		return true
	}
	_, ok := c.old[p]
	if ok {
		c.put(p)
	}
	return ok
}

func (c *presentKeys) put(p prefix) {
	if len(c.cur) >= presentMax {
		c.old, c.cur = c.cur, make(map[prefix]struct{}, presentMax)
	}
	c.cur[p] = struct{}{}
}

func (c *presentKeys) reset() { c.cur, c.old = map[prefix]struct{}{}, nil }
