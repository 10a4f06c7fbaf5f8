package focus

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/internal/pebblelog"
)

// explainStore keeps, per link URL, its module values combined over its
// sightings and the number of sightings, in Pebble (it grows with the
// crawl): what Explain shows and what new weights rescore.
//
// Combining sightings is associative (fold), so sightings gather in
// memory first, up to explainBuffer bytes, folded into one record per
// URL: a page's navigation links are sighted again on the next pages,
// and each buffered URL is one merge operand when the buffer is written,
// which Pebble's merges fold with the URL's stored record. Readers write
// the buffer out first; a crash loses it as it loses the unsynced end of
// the write-ahead log.
type explainStore struct {
	mu     sync.RWMutex // writers: a page's links, close; readers: lookups
	db     *pebble.DB
	u      frontier.UpdateFunc
	closed bool
	buf    map[string]*record // URL → its buffered sightings, folded
}

// explainBuffer bounds the sightings kept in memory (bytes).
const explainBuffer = 1 << 20

// bufferedSize is about what a buffered URL takes, its URL apart.
const bufferedSize = recordSize + 48

// errClosed answers what comes after the crawl closed its analysis.
var errClosed = errors.New("focus: the crawl's analysis is closed (start the crawl again)")

// record is a link's stored explanation: its sightings folded.
type record struct {
	n      uint32
	values Values
	score  float64 // as the frontier combined it
	// valued counts, per module, the sightings that gave it a value (an
	// average's weight).
	valued [numModules]uint32
}

const recordSize = 4 + 8 + 8*numModules + 4*numModules

func (r record) encode(b []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, r.n)
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(r.score))
	for _, v := range r.values {
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(v))
	}
	for _, c := range r.valued {
		b = binary.BigEndian.AppendUint32(b, c)
	}
	return b
}

func decodeRecord(b []byte) (record, bool) {
	var r record
	if len(b) != recordSize {
		return r, false
	}
	r.n = binary.BigEndian.Uint32(b)
	r.score = math.Float64frombits(binary.BigEndian.Uint64(b[4:]))
	for i := range r.values {
		r.values[i] = math.Float64frombits(binary.BigEndian.Uint64(b[12+8*i:]))
	}
	for i := range r.valued {
		r.valued[i] = binary.BigEndian.Uint32(b[12+8*numModules+4*i:])
	}
	return r, true
}

// openExplain opens the store in dir, or in memory when dir is "". Its
// sightings are combined by update function u.
func openExplain(dir string, u frontier.UpdateFunc) (*explainStore, error) {
	o := &pebble.Options{
		Logger: pebblelog.Logger{Name: "focus: explain store"}, Merger: sightingMerger(u),
		// Merges of random keys, as the frontier's inserts: more tables
		// gather in L0 and the first level is larger, so that each
		// compaction folds more new sightings per byte of old ones it
		// rewrites; compressing them costs more CPU than the disk saved.
		MemTableSize:          16 << 20,
		L0CompactionThreshold: 16,
		L0StopWritesThreshold: 32,
		LBaseMaxBytes:         512 << 20,
	}
	o.ApplyCompressionSettings(func() pebble.DBCompressionSettings { return pebble.DBCompressionNone })
	if dir == "" {
		o.FS = vfs.NewMem()
	}
	db, err := pebble.Open(dir, o)
	if err != nil && strings.Contains(err.Error(), "merger name from file") {
		// Stores written with another record layout.
		return nil, fmt.Errorf("%s: written by another mneme version (its records are not folded sightings of %d modules): remove the folder to record the explanations again: %w", dir, numModules, err)
	}
	if err != nil {
		return nil, err
	}
	return &explainStore{db: db, u: u, buf: map[string]*record{}}, nil
}

// sightingMerger combines a link's sightings inside Pebble, so that
// recording them is a write without a read: each merge operand is a
// record of sightings folded, and any run of operands folds into one, in
// order (fold is associative), whether or not it includes the oldest.
func sightingMerger(u frontier.UpdateFunc) *pebble.Merger {
	return &pebble.Merger{
		// The name changes with the record's layout (the modules).
		Name: "mneme.focus.sightings.8",
		Merge: func(_, value []byte) (pebble.ValueMerger, error) {
			r, err := decodeValue(value)
			return &sightings{u: u, r: r}, err
		},
	}
}

func decodeValue(value []byte) (record, error) {
	r, ok := decodeRecord(value)
	if !ok {
		return r, fmt.Errorf("focus: explain store: a value of %d bytes (records are %d)", len(value), recordSize)
	}
	return r, nil
}

// sightings is a merge in progress: the records seen so far, folded.
type sightings struct {
	u frontier.UpdateFunc
	r record
}

func (m *sightings) MergeNewer(value []byte) error {
	x, err := decodeValue(value)
	m.r = fold(m.r, x, m.u)
	return err
}

func (m *sightings) MergeOlder(value []byte) error {
	x, err := decodeValue(value)
	m.r = fold(x, m.r, m.u)
	return err
}

func (m *sightings) Finish(bool) ([]byte, io.Closer, error) {
	return m.r.encode(make([]byte, 0, recordSize)), nil, nil
}

// sighting is the record of one sighting (values v, score s).
func sighting(v Values, s float64) record {
	r := record{n: 1, values: v, score: s}
	for i, x := range v {
		if !math.IsNaN(x) {
			r.valued[i] = 1
		}
	}
	return r
}

// combine adds a new sighting (values v, score s) to r (found: r holds
// sightings) as update u does with frontier scores.
func combine(r record, found bool, u frontier.UpdateFunc, v Values, s float64) record {
	if !found {
		return sighting(v, s)
	}
	return fold(r, sighting(v, s), u)
}

// fold combines the sightings of a with the later ones of b as update u
// does with frontier scores: FIRST keeps a's, LAST takes b's, MAX the
// higher score's (a's on a tie), SUM adds and AVG averages, each module
// over the sightings that gave it a value (NaN when none did) and the
// score over all. It is associative, so sightings fold in any grouping.
func fold(a, b record, u frontier.UpdateFunc) record {
	out := a
	out.n = a.n + b.n
	switch u {
	case frontier.UpdateFirst:
	case frontier.UpdateLast:
		out.values, out.score, out.valued = b.values, b.score, b.valued
	case frontier.UpdateMax:
		if b.score > a.score {
			out.values, out.score, out.valued = b.values, b.score, b.valued
		}
	case frontier.UpdateSum, frontier.UpdateAvg:
		for i, x := range b.values {
			old := a.values[i]
			out.valued[i] = a.valued[i] + b.valued[i]
			switch {
			case math.IsNaN(x):
			case math.IsNaN(old):
				out.values[i] = x
			case u == frontier.UpdateSum:
				out.values[i] = old + x
			default:
				na, nb := float64(a.valued[i]), float64(b.valued[i])
				out.values[i] = (old*na + x*nb) / (na + nb)
			}
		}
		if u == frontier.UpdateSum {
			out.score = a.score + b.score
		} else {
			na, nb := float64(a.n), float64(b.n)
			out.score = (a.score*na + b.score*nb) / (na + nb)
		}
	}
	return out
}

// add records the sightings of one page's links.
func (e *explainStore) add(urls []string, vals []Values, scores []float64) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return errClosed
	}
	for i, url := range urls {
		x := sighting(vals[i], scores[i])
		if r, ok := e.buf[url]; ok {
			*r = fold(*r, x, e.u)
		} else {
			e.buf[url] = &x
		}
	}
	if len(e.buf)*bufferedSize < explainBuffer {
		return nil
	}
	return e.flush()
}

// flush writes the buffered sightings as one merge operand per URL; the
// caller holds the write lock.
func (e *explainStore) flush() error {
	if len(e.buf) == 0 {
		return nil
	}
	b := e.db.NewBatch()
	defer b.Close()
	// In key order: the memtable's inserts then follow each other
	// (Pebble's skiplist starts each search from the last insert).
	urls := slices.Sorted(maps.Keys(e.buf))
	var val []byte
	for _, url := range urls {
		val = e.buf[url].encode(val[:0])
		if err := b.Merge([]byte(url), val, nil); err != nil {
			return err
		}
	}
	clear(e.buf)
	return b.Commit(pebble.NoSync)
}

// lookup is get for a reader.
func (e *explainStore) lookup(url string) (record, bool, error) {
	if err := e.flushBuffered(); err != nil {
		return record{}, false, err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		return record{}, false, errClosed
	}
	return e.get(url)
}

// flushBuffered writes the buffered sightings out for a reader.
func (e *explainStore) flushBuffered() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return errClosed
	}
	return e.flush()
}

func (e *explainStore) get(url string) (record, bool, error) {
	v, closer, err := e.db.Get([]byte(url))
	if errors.Is(err, pebble.ErrNotFound) {
		return record{}, false, nil
	}
	if err != nil {
		return record{}, false, err
	}
	defer closer.Close()
	r, ok := decodeRecord(v)
	return r, ok, nil
}

// each calls fn with every recorded URL in key order.
func (e *explainStore) each(fn func(url string, r record) error) error {
	if err := e.flushBuffered(); err != nil {
		return err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		return errClosed
	}
	it, err := e.db.NewIter(nil)
	if err != nil {
		return err
	}
	for ok := it.First(); ok; ok = it.Next() {
		if r, ok := decodeRecord(it.Value()); ok {
			if err := fn(string(it.Key()), r); err != nil {
				it.Close()
				return err
			}
		}
	}
	return errors.Join(it.Error(), it.Close())
}

func (e *explainStore) close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	return errors.Join(e.flush(), e.db.Close())
}
