package frontier

import (
	"encoding/binary"
	"errors"
	"fmt"
	"log"
	"sync"

	"github.com/cockroachdb/pebble/v2"

	"github.com/mneme-archive/mneme/crawler/clock"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/pebblelog"
)

// QueuePolicy is what a queue is allowed: how many of its URLs may be in
// flight at once, and how many claims it may make in total (0: no limit).
type QueuePolicy struct {
	Valence int64
	Budget  int64
}

// Options configure a Frontier. Zero values take the defaults noted.
type Options struct {
	Clock clock.Clock // default: the system clock
	// SeenBatch is how many candidates are buffered before the seen-set
	// pass (default 65536); 1 applies every Schedule at once.
	SeenBatch int
	// QueuePolicy gives a new queue its policy (default: valence 1, no
	// budget). It is called once per queue; the result is persisted.
	QueuePolicy func(queueKey string) QueuePolicy
	// NoSyncCompletions skips the fsync of every Complete (see the package
	// comment for what that risks).
	NoSyncCompletions bool
	// Incremental keeps visited URLs for revisits: a completion may give a
	// URL its next due time, its history and its queue's data (see
	// Outcome), and claims hand the history back.
	Incremental  bool
	CacheSize    int64 // Pebble block cache in bytes (default 64 MiB)
	MemTableSize uint64
	// MemTableSize is the size of one Pebble memtable (default 64 MiB); at
	// most 4 are kept.

	// ingestMin is the number of new URLs from which a seen pass ingests
	// their entries as a table instead of writing them in its batch
	// (default defaultIngestMin); tests lower it to cover both paths.
	ingestMin int
	// runPage is the number of records per page of a seen-set run
	// (default defaultRunPage); tests lower it to get runs of many pages.
	runPage int
	// seenSplit is the number of candidates from which a seen pass checks
	// two hash ranges at once (default defaultSeenSplit).
	seenSplit int
	// recordCache is the number of URL records cached (default
	// recordCacheSize); tests lower it to evict often.
	recordCache int
	// journalLimit is the size of the queue journal that makes the next
	// batch a checkpoint (default: a few times the queue table, see
	// journal.go); tests lower it to checkpoint often.
	journalLimit int
}

const (
	defaultSeenBatch    = 1 << 16
	defaultCacheSize    = 64 << 20
	defaultMemTableSize = 64 << 20
	defaultIngestMin    = 4096
	defaultSeenSplit    = 1 << 14
)

// Frontier is a persistent crawl frontier. Its methods are safe for
// concurrent use.
type Frontier struct {
	mu     sync.Mutex
	db     *pebble.DB
	dir    string
	po     *pebble.Options
	opts   Options
	clock  clock.Clock
	meta   meta
	queues []*queue          // by queue id
	byKey  map[string]*queue // by politeness key
	ready  readyHeap
	// pending are scheduled candidates awaiting the seen-set pass; the
	// first logged of them are also in the pending log, whose next key is
	// pendingKey(nextPending).
	pending     []pendingCandidate
	logged      int
	nextPending uint64
	encoded     []byte // reused buffer for pending-log records
	journal     queueJournal
	touchMark   uint64 // mark of the last touchSet
	// aheadHeld counts the positions read ahead in all queues (queue.ahead),
	// kept under maxAheadHeld so that the cache stays small with many queues.
	aheadHeld int
	scratch   seenScratch
	records   recordCache // the URL records seen passes read or wrote last
	// broken is set when a batch failed after memory was updated: the
	// in-memory state no longer matches the database, so every later call
	// fails until the frontier is reopened.
	broken error
}

// ErrClosed is returned by calls on a closed Frontier.
var ErrClosed = errors.New("frontier: closed")

// Open opens (creating if needed) the frontier stored in dir. URLs that
// were in flight when it was last used go back to their queues.
func Open(dir string, opts Options) (*Frontier, error) {
	if opts.Clock == nil {
		opts.Clock = clock.System{}
	}
	if opts.SeenBatch <= 0 {
		opts.SeenBatch = defaultSeenBatch
	}
	if opts.CacheSize <= 0 {
		opts.CacheSize = defaultCacheSize
	}
	if opts.MemTableSize == 0 {
		opts.MemTableSize = defaultMemTableSize
	}
	if opts.ingestMin <= 0 {
		opts.ingestMin = defaultIngestMin
	}
	if opts.runPage <= 0 {
		opts.runPage = defaultRunPage
	}
	if opts.seenSplit <= 0 {
		opts.seenSplit = defaultSeenSplit
	}
	if opts.recordCache <= 0 {
		opts.recordCache = recordCacheSize
	}
	cache := pebble.NewCache(opts.CacheSize)
	defer cache.Unref()
	po := &pebble.Options{
		Cache:                       cache,
		MemTableSize:                opts.MemTableSize,
		MemTableStopWritesThreshold: 4,
		// Bulk inserts of random keys: let more tables gather in L0 and
		// make the first level larger, so that each compaction merges more
		// new data per byte of old data it rewrites.
		L0CompactionThreshold: 16,
		L0StopWritesThreshold: 32,
		LBaseMaxBytes:         512 << 20,
		Logger:                pebblelog.Logger{W: log.Writer(), Name: "frontier: pebble"},
	}
	// The frontier is CPU-bound on small machines and its data is
	// short-lived: disk is cheaper than compressing every compaction.
	po.ApplyCompressionSettings(func() pebble.DBCompressionSettings { return pebble.DBCompressionNone })
	po.Experimental.SpanPolicyFunc = splitByPrefix
	db, err := pebble.Open(dir, po)
	if err != nil {
		return nil, fmt.Errorf("frontier: open %s: %w", dir, err)
	}
	f := &Frontier{db: db, dir: dir, po: po, opts: opts, clock: opts.Clock, byKey: map[string]*queue{}, records: newRecordCache(opts.recordCache)}
	if err := f.load(); err != nil {
		db.Close()
		return nil, fmt.Errorf("frontier: open %s: %w", dir, err)
	}
	return f, nil
}

// splitByPrefix ends every flushed or compacted table at a key-prefix
// boundary, so that each table holds one kind of record: a compaction of
// the random URL-index keys then overlaps, and rewrites, only tables of
// URL-index keys, not the queue keys and entries that would otherwise
// share their tables.
func splitByPrefix(start []byte) (pebble.SpanPolicy, []byte, error) {
	if len(start) == 0 || start[0] == 0xff {
		return pebble.SpanPolicy{}, nil, nil
	}
	return pebble.SpanPolicy{}, []byte{start[0] + 1}, nil
}

// load rebuilds the in-memory queue table and pending buffer from the
// database, then puts in-flight URLs back in their queues.
func (f *Frontier) load() error {
	if v, closer, err := f.db.Get(metaKey()); err == nil {
		f.meta, err = decodeMeta(v)
		closer.Close()
		if err != nil {
			return err
		}
	} else if !errors.Is(err, pebble.ErrNotFound) {
		return err
	}
	if err := f.checkFormat(); err != nil {
		return err
	}
	if err := f.dropUnreferencedRuns(); err != nil {
		return err
	}
	f.queues = make([]*queue, f.meta.nextQID)
	err := f.scan([]byte{prefixQueue}, func(k, v []byte) error {
		rec, err := decodeQueueRecord(v)
		if err != nil {
			return err
		}
		if len(k) != 5 {
			return fmt.Errorf("frontier: corrupt queue key %x", k)
		}
		qid := binary.BigEndian.Uint32(k[1:])
		if qid >= f.meta.nextQID {
			return fmt.Errorf("frontier: queue id %d beyond counter %d", qid, f.meta.nextQID)
		}
		q := &queue{id: qid, queueRecord: rec, heapIdx: -1, saved: true}
		f.queues[qid] = q
		f.byKey[rec.key] = q
		return nil
	})
	if err != nil {
		return err
	}
	if err := f.replayJournal(); err != nil {
		return err
	}
	for qid, q := range f.queues {
		if q == nil {
			return fmt.Errorf("frontier: queue %d has no record", qid)
		}
		if q.inHeap {
			f.ready.push(q)
		}
	}
	err = f.scan([]byte{prefixPending}, func(k, v []byte) error {
		cs, err := decodeCandidates(v)
		if err != nil {
			return err
		}
		if len(k) != 9 {
			return fmt.Errorf("frontier: corrupt pending key %x", k)
		}
		for _, c := range cs {
			f.pending = append(f.pending, pendingCandidate{Candidate: c, hash: hashURL(c.URL)})
		}
		f.nextPending = binary.BigEndian.Uint64(k[1:]) + 1
		return nil
	})
	if err != nil {
		return err
	}
	f.logged = len(f.pending)
	return f.requeueInFlight()
}

// prefixOldRun held the seen-set's runs before they had index pages.
const prefixOldRun = 'U'

// checkFormat refuses a database written before the runs had index pages:
// reading it as if it had none would take every URL for unseen.
func (f *Frontier) checkFormat() error {
	it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: []byte{prefixOldRun}, UpperBound: []byte{prefixOldRun + 1}})
	if err != nil {
		return err
	}
	old := it.First()
	if err := it.Close(); err != nil {
		return err
	}
	if old {
		return errors.New("the seen-set is in the format of an earlier version (runs without index pages): schedule the crawl's URLs into a new frontier")
	}
	return nil
}

// scan calls fn for every key with the given prefix.
func (f *Frontier) scan(prefix []byte, fn func(k, v []byte) error) error {
	it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: graph.PrefixEnd(prefix)})
	if err != nil {
		return err
	}
	for ok := it.First(); ok; ok = it.Next() {
		if err := fn(it.Key(), it.Value()); err != nil {
			it.Close()
			return err
		}
	}
	if err := it.Error(); err != nil {
		it.Close()
		return err
	}
	return it.Close()
}

// Sync makes every operation so far durable on disk (an fsync of Pebble's
// write-ahead log). Call it after scheduling input that cannot be
// rediscovered, such as seeds or injected URLs.
func (f *Frontier) Sync() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.db == nil {
		return ErrClosed
	}
	return f.syncPending()
}

// syncPending writes the unlogged pending candidates and syncs the log.
func (f *Frontier) syncPending() error {
	if f.logged == len(f.pending) {
		// An empty batch would not reach the log: sync it directly.
		return f.db.LogData(nil, pebble.Sync)
	}
	b := f.db.NewBatch()
	defer b.Close()
	if err := f.logPending(b); err != nil {
		return err
	}
	return b.Commit(pebble.Sync)
}

// Close syncs and closes the database. Pending candidates stay in the
// pending log and in-flight URLs are requeued by the next Open.
func (f *Frontier) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.db == nil {
		return ErrClosed
	}
	err := f.check()
	if err == nil {
		err = f.syncPending()
	}
	if cerr := f.db.Close(); err == nil {
		err = cerr
	}
	f.db = nil
	return err
}

// check returns the error that forbids any operation now, if any.
func (f *Frontier) check() error {
	if f.db == nil {
		return ErrClosed
	}
	return f.broken
}

// commit writes the meta record and the given queues into b and applies it.
func (f *Frontier) commit(b *pebble.Batch, touched []*queue, opts *pebble.WriteOptions) error {
	if err := f.finish(b, touched); err != nil {
		return err
	}
	if err := b.Commit(opts); err != nil {
		return f.fail(err)
	}
	return nil
}

// finish adds the meta record and the given queues to b.
func (f *Frontier) finish(b *pebble.Batch, touched []*queue) error {
	if err := f.writeQueues(b, touched); err != nil {
		return f.fail(err)
	}
	if err := b.Set(metaKey(), f.meta.encode(nil), nil); err != nil {
		return f.fail(err)
	}
	return nil
}

func (f *Frontier) fail(err error) error {
	f.broken = fmt.Errorf("frontier: write failed, reopen to recover: %w", err)
	return f.broken
}
