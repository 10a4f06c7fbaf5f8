package focus

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
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
// Sightings gather in memory first, up to explainBuffer bytes, as the
// list of records of each URL (oldest first): a page's navigation links
// are sighted again on the next pages, and one merge operand per URL
// holding its list folds as one operand per sighting would, for a
// memtable insertion per URL instead of one per link. Readers write the
// buffer out first; a crash loses it as it loses the unsynced end of the
// write-ahead log.
type explainStore struct {
	mu       sync.RWMutex // writers: a page's links, close; readers: lookups
	db       *pebble.DB
	closed   bool
	buf      map[string][]byte // URL → its buffered records
	buffered int               // bytes in buf
}

// explainBuffer bounds the sightings kept in memory.
const explainBuffer = 1 << 20

// errClosed answers what comes after the crawl closed its analysis.
var errClosed = errors.New("focus: the crawl's analysis is closed (start the crawl again)")

// record is a link's stored explanation.
type record struct {
	n      uint32
	values Values
	score  float64 // as the frontier combined it
}

const recordSize = 4 + 8 + 8*numModules

func (r record) encode(b []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, r.n)
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(r.score))
	for _, v := range r.values {
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(v))
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
	return r, true
}

// openExplain opens the store in dir, or in memory when dir is "". Its
// sightings are combined by update function u.
func openExplain(dir string, u frontier.UpdateFunc) (*explainStore, error) {
	o := &pebble.Options{Logger: pebblelog.Logger{Name: "focus: explain store"}, Merger: sightingMerger(u)}
	if dir == "" {
		o.FS = vfs.NewMem()
	}
	db, err := pebble.Open(dir, o)
	if err != nil && strings.Contains(err.Error(), "merger name from file") {
		// Stores written before sightings were merges, or with fewer modules.
		return nil, fmt.Errorf("%s: written by an older mneme (its records are not merges of %d modules): remove the folder to record the explanations again: %w", dir, numModules, err)
	}
	if err != nil {
		return nil, err
	}
	return &explainStore{db: db, buf: map[string][]byte{}}, nil
}

// sightingMerger combines a link's sightings inside Pebble, so that
// recording one is a write without a read: each sighting is a merge
// operand (a record of one sighting); a merge that includes the oldest
// value folds them in order with combine, one that may not (a partial
// compaction) keeps them as a list, whose first record alone may be a
// fold.
func sightingMerger(u frontier.UpdateFunc) *pebble.Merger {
	return &pebble.Merger{
		// The name changes with the record's layout (the modules).
		Name: "mneme.focus.sightings.7",
		Merge: func(_, value []byte) (pebble.ValueMerger, error) {
			m := &sightings{u: u}
			return m, m.MergeNewer(value)
		},
	}
}

// sightings is a merge in progress: its records, oldest first.
type sightings struct {
	u    frontier.UpdateFunc
	recs []record
}

func splitRecords(value []byte) ([]record, error) {
	if len(value) == 0 || len(value)%recordSize != 0 {
		return nil, fmt.Errorf("focus: explain store: a value of %d bytes (records are %d)", len(value), recordSize)
	}
	out := make([]record, 0, len(value)/recordSize)
	for i := 0; i < len(value); i += recordSize {
		r, _ := decodeRecord(value[i : i+recordSize])
		out = append(out, r)
	}
	return out, nil
}

func (m *sightings) MergeNewer(value []byte) error {
	rs, err := splitRecords(value)
	m.recs = append(m.recs, rs...)
	return err
}

func (m *sightings) MergeOlder(value []byte) error {
	rs, err := splitRecords(value)
	m.recs = append(rs, m.recs...)
	return err
}

func (m *sightings) Finish(includesBase bool) ([]byte, io.Closer, error) {
	recs := m.recs
	if includesBase {
		r := recs[0]
		for _, x := range recs[1:] {
			r = combine(r, true, m.u, x.values, x.score)
		}
		recs = []record{r}
	}
	buf := make([]byte, 0, len(recs)*recordSize)
	for _, r := range recs {
		buf = r.encode(buf)
	}
	return buf, nil, nil
}

// combine merges a new sighting (values v, score s) into r as update u
// does with frontier scores.
func combine(r record, found bool, u frontier.UpdateFunc, v Values, s float64) record {
	if !found {
		return record{n: 1, values: v, score: s}
	}
	out := r
	out.n++
	switch u {
	case frontier.UpdateFirst:
	case frontier.UpdateLast:
		out.values, out.score = v, s
	case frontier.UpdateMax:
		if s > r.score {
			out.values, out.score = v, s
		}
	case frontier.UpdateSum, frontier.UpdateAvg:
		n := float64(r.n)
		for i, x := range v {
			old := r.values[i]
			switch {
			case math.IsNaN(x):
			case math.IsNaN(old):
				out.values[i] = x
			case u == frontier.UpdateSum:
				out.values[i] = old + x
			default:
				out.values[i] = (old*n + x) / (n + 1)
			}
		}
		if u == frontier.UpdateSum {
			out.score = r.score + s
		} else {
			out.score = (r.score*n + s) / (n + 1)
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
		// One sighting, as combine records a first one.
		e.buf[url] = record{n: 1, values: vals[i], score: scores[i]}.encode(e.buf[url])
		e.buffered += recordSize
	}
	if e.buffered < explainBuffer {
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
	for url, recs := range e.buf {
		if err := b.Merge([]byte(url), recs, nil); err != nil {
			return err
		}
	}
	clear(e.buf)
	e.buffered = 0
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
