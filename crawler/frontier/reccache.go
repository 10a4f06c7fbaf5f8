package frontier

import "github.com/cockroachdb/pebble/v2"

// recordCache keeps the URL records the last seen passes read or wrote,
// in front of the seen-set: a crawl that applies every page's links at
// once (a focused crawl) checks the same menu and sidebar links page
// after page, and each check would otherwise be a seek in the overlay's
// memtable and the runs' indexes. It is bounded: two generations of at
// most half the limit each; when the newer fills, the older is dropped.
//
// A cached record is always the committed one: every write of a URL
// record drops its hash first (setRecord), and only a seen pass puts
// records back, after its batch committed, the frontier's lock held
// throughout. Lookups do not write, so the two halves of a split pass
// read it at once.
type recordCache struct {
	cur, old map[urlHash]urlRecord
	half     int
}

// recordCacheSize is the number of records a frontier caches (about 100
// bytes each with the map's overhead).
const recordCacheSize = 1 << 16

func newRecordCache(size int) recordCache {
	half := max(size/2, 1)
	return recordCache{cur: make(map[urlHash]urlRecord, half), half: half}
}

func (c *recordCache) get(h *urlHash) (urlRecord, bool) {
	if r, ok := c.cur[*h]; ok {
		return r, true
	}
	r, ok := c.old[*h]
	return r, ok
}

func (c *recordCache) put(h *urlHash, r *urlRecord) {
	if _, ok := c.cur[*h]; !ok && len(c.cur) >= c.half {
		c.old, c.cur = c.cur, make(map[urlHash]urlRecord, c.half)
	}
	c.cur[*h] = *r
	if c.old != nil {
		delete(c.old, *h)
	}
}

func (c *recordCache) drop(h *urlHash) {
	delete(c.cur, *h)
	delete(c.old, *h)
}

// setRecord writes the URL record of h in b, and forgets the cached one:
// b may never commit, and only a committed record may be cached.
func (f *Frontier) setRecord(b *pebble.Batch, h *urlHash, rec *urlRecord) {
	f.records.drop(h)
	b.Set(urlKey(*h), rec.encode(nil), nil)
}
