package graph

import (
	"hash/maphash"
	"math"
	"sync"
	"sync/atomic"

	"github.com/maypok86/otter/v2"
)

// DefaultScanCacheBytes is the posting cache of a store when
// OpenOptions.ScanCacheBytes is 0: with a quarter of it for one list, the
// largest predicate ranges of a 10M-triple store (LUBM(80)
// ub:takesCourse, 2.3M keys) are cached.
const DefaultScanCacheBytes = 512 << 20

// postingCache keeps the keys of scan ranges recently read whole, decoded
// into sorted arrays, so that a warm scan is an array walk and a warm
// seek a binary search instead of a walk down Pebble's iterator stack
// (about 90 ns a key and 3 µs a seek, see docs/storage.md). An entry is
// the posting list of one scan prefix: every index key starting with it.
//
// Writes change posting lists, so every entry carries the write
// generation whose state it holds, and writers mark the prefixes they
// touch (hashed into buckets) with their own generation before applying:
// an entry serves a reader only when no write its data or the reader's
// state could miss has touched its bucket. Snapshots thus use the entries
// of their own state, and a commit invalidates only the prefixes it could
// change (a bulk load's Ingest invalidates everything).
type postingCache struct {
	c       *otter.Cache[uint64, *posting] // by hash of the prefix
	maxKeys int                            // the largest posting list cached

	gen      atomic.Uint64 // generation of the last write begun
	inflight atomic.Int64  // writes begun and not finished
	all      atomic.Uint64 // generation of the last write that may change any prefix
	marks    []atomic.Uint64
	seed     maphash.Seed

	// orders holds the orders derived from posting lists (predorder.go),
	// made on first use.
	ordersOnce sync.Once
	orders     *otter.Cache[uint64, *derivedOrder]
}

// posting is the state of one scan prefix (an ordering's tag and its
// leading bound columns) at generation gen: its keys in column order, or
// only the fact that it held more than maxKeys (big), so that scans of it
// stream from the store without trying to cache it. Entries are found by
// a hash of the prefix, and prefix tells colliding ones apart.
type posting struct {
	prefix string
	gen    uint64
	keys   []cols
	big    bool
}

// postingOverhead approximates an entry's memory beyond its keys.
const postingOverhead = 160

// markBuckets is the number of buckets writers mark; a write touching a
// bucket invalidates every prefix hashed there, so collisions only cost
// misses.
const markBuckets = 1 << 16

// prefixLens are the lengths of the prefixes a scan can cache: the tag,
// then one more column each.
var prefixLens = [...]int{1, 1 + 8, 1 + 16, 1 + 24, keyWidth}

func newPostingCache(budget int64) *postingCache {
	if budget == 0 {
		budget = DefaultScanCacheBytes
	}
	if budget < 0 {
		return nil
	}
	c, err := otter.New(&otter.Options[uint64, *posting]{
		MaximumWeight: uint64(budget),
		Weigher: func(_ uint64, p *posting) uint32 {
			return uint32(postingOverhead + len(p.prefix) + cap(p.keys)*len(cols{})*8)
		},
	})
	if err != nil {
		// Only invalid options fail, and these are fixed.
		panic(err)
	}
	return &postingCache{
		c: c,
		// One posting list may take a quarter of the budget (and its
		// weight must fit the cache's uint32).
		maxKeys: int(min(budget/4, math.MaxInt32) / int64(len(cols{})*8)),
		marks:   make([]atomic.Uint64, markBuckets),
		seed:    maphash.MakeSeed(),
	}
}

// hash is the cache key of prefix; its mark bucket is hash % markBuckets.
func (c *postingCache) hash(prefix []byte) uint64 { return maphash.Bytes(c.seed, prefix) }

func (c *postingCache) bucketIndex(prefix []byte) uint64 { return c.hash(prefix) % markBuckets }

// readGen runs open (which takes a consistent view of the store: an
// iterator or a snapshot) and returns the generation of the state it
// saw; ok is false when a write was under way, so that the state is not
// known to be any generation's.
func (c *postingCache) readGen(open func()) (gen uint64, ok bool) {
	if c == nil {
		open()
		return 0, false
	}
	gen = c.gen.Load()
	quiet := c.inflight.Load() == 0
	open()
	return gen, quiet && c.gen.Load() == gen
}

// beginWrite announces a write and returns its generation; the writer
// raises the marks of what it changes to it before applying (see
// watchedStore), then calls endWrite.
func (c *postingCache) beginWrite() uint64 {
	c.inflight.Add(1)
	return c.gen.Add(1)
}

func (c *postingCache) endWrite() { c.inflight.Add(-1) }

func raise(a *atomic.Uint64, w uint64) {
	for {
		old := a.Load()
		if old >= w || a.CompareAndSwap(old, w) {
			return
		}
	}
}

// get returns the posting list of prefix valid for a reader at
// generation gen.
func (c *postingCache) get(prefix []byte, gen uint64) (*posting, bool) {
	h := c.hash(prefix)
	p, ok := c.c.GetIfPresent(h)
	if !ok || p.prefix != string(prefix) {
		return nil, false
	}
	// Valid when the state of the prefix at p.gen is its state at gen: no
	// write that either could miss touched it.
	lo := min(p.gen, gen)
	if c.all.Load() > lo || c.marks[h%markBuckets].Load() > lo {
		return nil, false
	}
	return p, true
}

// put caches p as the posting list of its prefix, unless a newer one is
// there.
func (c *postingCache) put(p *posting) {
	h := maphash.String(c.seed, p.prefix)
	if old, ok := c.c.GetIfPresent(h); ok && old.prefix == p.prefix && old.gen > p.gen {
		return
	}
	c.c.Set(h, p)
}
