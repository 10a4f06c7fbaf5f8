package frontier

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// The seen-set on disk is DRUM's sorted file, kept as runs: each seen pass
// that finds many new URLs writes their records, already in hash order, as
// a new run, ingested into Pebble as tables under a fresh run id. Their
// keys lie above every key of earlier runs, so the tables go straight to
// the bottom level and Pebble never compacts them; the frontier merges
// runs itself, sequentially, when they pile up (see mergeRuns).
//
// A run is stored in pages: one Pebble key per Options.runPage records,
// 'U' run(4) lastHash(16) → the records as fixed-size entries in hash
// order. A seen pass, whose candidates are sorted by hash, walks each run
// page by page (stepping forward, seeking only over long gaps) and finds
// a hash in a page by binary search: the per-URL cost is a few comparisons
// in memory, not a Pebble seek, which is what lets DRUM check a batch
// against the whole set in one pass.
//
// A record that changes after it was written to a run (claim, completion,
// score update, blacklist) is written to the overlay ('u' hash), an
// ordinary Pebble key that takes precedence over the runs; those changes
// come at the rate of fetches and rediscoveries, not of new links.

const (
	// runFanIn is how many runs of one size class are merged into one: a
	// record is rewritten about log_runFanIn(URLs / SeenBatch) times, and
	// a lookup visits at most (runFanIn-1) runs per size class.
	runFanIn = 4
	// defaultRunPage is the number of records per page (about 43 KiB).
	defaultRunPage = 1024
	// runTableSize splits a run into tables of about this size, so that a
	// merged run is dropped a table at a time and no table is huge.
	runTableSize = 64 << 20
	// runEntrySize is a page entry: hash(16) state(1) qid(4) score(8)
	// count(4) seq(8) retries(2).
	runEntrySize = 43
)

// runInfo is one run of the seen-set: its id and number of records.
type runInfo struct {
	id      uint32
	records uint64
}

func runPrefix(id uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{prefixRun}, id)
}

// runKey appends the key of the page of run id whose last hash is h.
func runKey(buf []byte, id uint32, h []byte) []byte {
	buf = binary.BigEndian.AppendUint32(append(buf, prefixRun), id)
	return append(buf, h...)
}

// fitsRun reports whether r has a page entry (counts beyond the entry's
// fields stay in the overlay).
func fitsRun(r *urlRecord) bool {
	return r.count <= math.MaxUint32 && r.retries <= math.MaxUint16
}

func appendRunEntry(buf []byte, h *urlHash, r *urlRecord) []byte {
	buf = append(append(buf, h[:]...), byte(r.state))
	buf = binary.BigEndian.AppendUint32(buf, r.qid)
	buf = binary.BigEndian.AppendUint64(buf, math.Float64bits(r.score))
	buf = binary.BigEndian.AppendUint32(buf, uint32(r.count))
	buf = binary.BigEndian.AppendUint64(buf, r.seq)
	return binary.BigEndian.AppendUint16(buf, uint16(r.retries))
}

func decodeRunEntry(e []byte) (urlRecord, error) {
	r := urlRecord{
		state:   urlState(e[16]),
		qid:     binary.BigEndian.Uint32(e[17:]),
		score:   math.Float64frombits(binary.BigEndian.Uint64(e[21:])),
		count:   uint64(binary.BigEndian.Uint32(e[29:])),
		seq:     binary.BigEndian.Uint64(e[33:]),
		retries: uint64(binary.BigEndian.Uint16(e[41:])),
	}
	if !r.state.valid() {
		return r, fmt.Errorf("frontier: corrupt run entry %x: unknown URL state %d", e[:16], r.state)
	}
	return r, nil
}

// runCursor walks the pages of one run in increasing hash order.
type runCursor struct {
	id   uint32
	it   *pebble.Iterator
	page []byte // entries of the current page; nil before the first
	done bool   // past the last page
	key  []byte
}

// find returns the entry of h, if the run has one. Hashes must come in
// non-decreasing order.
func (c *runCursor) find(h *urlHash) ([]byte, error) {
	if c.done {
		return nil, nil
	}
	if c.page == nil || bytes.Compare(c.it.Key()[5:], h[:]) < 0 {
		c.key = runKey(c.key[:0], c.id, h[:])
		if !c.advance(c.key) {
			c.done = true
			return nil, c.it.Error()
		}
		c.page = c.it.Value()
		if len(c.page)%runEntrySize != 0 {
			return nil, fmt.Errorf("frontier: corrupt run page %x: %d bytes", c.it.Key(), len(c.page))
		}
	}
	// The page's last hash is >= h: binary search among its entries,
	// comparing hashes as two big-endian integers.
	hi, lo := binary.BigEndian.Uint64(h[:8]), binary.BigEndian.Uint64(h[8:])
	n := len(c.page) / runEntrySize
	i, j := 0, n
	for i < j {
		m := int(uint(i+j) >> 1)
		e := c.page[m*runEntrySize:]
		if ehi := binary.BigEndian.Uint64(e); ehi < hi || ehi == hi && binary.BigEndian.Uint64(e[8:]) < lo {
			i = m + 1
		} else {
			j = m
		}
	}
	if e := c.page[i*runEntrySize:]; i < n && binary.BigEndian.Uint64(e) == hi && binary.BigEndian.Uint64(e[8:]) == lo {
		return e[:runEntrySize], nil
	}
	return nil, nil
}

// advance positions the iterator at the first page whose key is at or
// after key: by a few steps when it is near (dense batches walk the run
// like a merge), else by a seek.
func (c *runCursor) advance(key []byte) bool {
	if c.page == nil {
		return c.it.SeekGE(key)
	}
	for range 4 {
		if !c.it.Next() {
			return false
		}
		if bytes.Compare(c.it.Key(), key) >= 0 {
			return true
		}
	}
	return c.it.SeekGE(key)
}

// recordReader finds URL records: in the overlay first, then in the runs
// (a hash is in at most one run). Lookups must come in non-decreasing
// hash order: the overlay iterator then steps forward, and each run is
// read at most once, page by page, as in DRUM's merge.
type recordReader struct {
	overlay *pebble.Iterator
	runs    []runCursor
	key     []byte
}

func (f *Frontier) newRecordReader() (*recordReader, error) {
	r := &recordReader{}
	var err error
	r.overlay, err = f.db.NewIter(&pebble.IterOptions{LowerBound: []byte{prefixURL}, UpperBound: []byte{prefixURL + 1}})
	if err != nil {
		return nil, err
	}
	for i := len(f.meta.runs) - 1; i >= 0; i-- {
		id := f.meta.runs[i].id
		it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: runPrefix(id), UpperBound: runPrefix(id + 1)})
		if err != nil {
			r.Close()
			return nil, err
		}
		r.runs = append(r.runs, runCursor{id: id, it: it})
	}
	return r, nil
}

// find returns the record of h and whether there is one.
func (r *recordReader) find(h *urlHash) (urlRecord, bool, error) {
	r.key = append(append(r.key[:0], prefixURL), h[:]...)
	if r.overlay.SeekGE(r.key) && bytes.Equal(r.overlay.Key(), r.key) {
		rec, err := decodeURLRecord(r.overlay.Value())
		return rec, true, err
	}
	if err := r.overlay.Error(); err != nil {
		return urlRecord{}, false, err
	}
	for i := range r.runs {
		e, err := r.runs[i].find(h)
		if err != nil {
			return urlRecord{}, false, err
		}
		if e != nil {
			rec, err := decodeRunEntry(e)
			return rec, true, err
		}
	}
	return urlRecord{}, false, nil
}

func (r *recordReader) Close() error {
	var err error
	if r.overlay != nil {
		err = r.overlay.Close()
	}
	for _, c := range r.runs {
		if cerr := c.it.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// runWriter writes a run's entries, in hash order, as pages.
type runWriter struct {
	t    *tableWriter
	size int // bytes per page
	info runInfo
	page []byte
	key  []byte
}

func (f *Frontier) newRunWriter() *runWriter {
	w := &runWriter{t: f.newTableWriter("run", true), info: runInfo{id: f.meta.nextRun}, size: f.opts.runPage * runEntrySize}
	f.meta.nextRun++
	return w
}

// add appends one entry (as appendRunEntry encodes it).
func (w *runWriter) add(e []byte) error {
	w.page = append(w.page, e...)
	w.info.records++
	if len(w.page) >= w.size {
		return w.flushPage()
	}
	return nil
}

func (w *runWriter) flushPage() error {
	if len(w.page) == 0 {
		return nil
	}
	w.key = runKey(w.key[:0], w.info.id, w.page[len(w.page)-runEntrySize:len(w.page)-runEntrySize+16])
	err := w.t.set(w.key, w.page)
	w.page = w.page[:0]
	return err
}

// finish writes the last page and returns the paths of the tables.
func (w *runWriter) finish() ([]string, error) {
	if err := w.flushPage(); err != nil {
		return nil, err
	}
	return w.t.finish()
}

// tableWriter writes sorted keys to tables in the frontier's directory,
// for ingestion; it starts a new table every runTableSize bytes when split
// is set.
type tableWriter struct {
	f     *Frontier
	name  string
	split bool
	opts  sstable.WriterOptions
	w     *sstable.Writer
	paths []string
	size  int
}

func (f *Frontier) newTableWriter(name string, split bool) *tableWriter {
	return &tableWriter{f: f, name: name, split: split, opts: f.po.MakeWriterOptions(6, f.db.TableFormat())}
}

func (t *tableWriter) set(key, value []byte) error {
	if t.w != nil && t.split && t.size >= runTableSize {
		if err := t.w.Close(); err != nil {
			return err
		}
		t.w = nil
	}
	if t.w == nil {
		path := filepath.Join(t.f.dir, fmt.Sprintf("frontier-%s-%d.sst", t.name, len(t.paths)))
		file, err := vfs.Default.Create(path, vfs.WriteCategoryUnspecified)
		if err != nil {
			return err
		}
		t.w = sstable.NewWriter(objstorageprovider.NewFileWritable(file), t.opts)
		t.paths = append(t.paths, path)
		t.size = 0
	}
	t.size += len(key) + len(value)
	return t.w.Set(key, value)
}

// finish closes the last table and returns the paths of all.
func (t *tableWriter) finish() ([]string, error) {
	if t.w != nil {
		if err := t.w.Close(); err != nil {
			return nil, err
		}
		t.w = nil
	}
	return t.paths, nil
}

// abort closes and removes what was written.
func (t *tableWriter) abort() {
	if t.w != nil {
		t.w.Close()
	}
	removeFiles(t.paths)
}

// ingest ingests the tables at paths in one atomic step and removes the
// files that Pebble did not take over.
func (f *Frontier) ingest(paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	if err := f.db.Ingest(context.Background(), paths); err != nil {
		removeFiles(paths)
		return fmt.Errorf("ingest: %w", err)
	}
	// Pebble moves the files into the database when it can, else links or
	// copies them.
	return removeFiles(paths)
}

func removeFiles(paths []string) error {
	var first error
	for _, p := range paths {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) && first == nil {
			first = err
		}
	}
	return first
}

// mergeRuns merges runs of one size class while runFanIn of them have
// piled up at the end of the run list (runs are oldest and largest first;
// a run's class is how many times runFanIn its size is over base). The
// merged run is ingested first; deleting the old runs and recording the
// new list is part of b, the batch of the seen pass, so a crash before it
// commits leaves the old runs in force and the merged one unreferenced
// (Open deletes it).
func (f *Frontier) mergeRuns(b *pebble.Batch, base uint64) error {
	for {
		n := len(f.meta.runs)
		class := sizeClass(f.meta.runs[n-1].records, base)
		k := 1
		for k < n && sizeClass(f.meta.runs[n-1-k].records, base) == class {
			k++
		}
		if k < runFanIn {
			return nil
		}
		merged, err := f.writeMerged(f.meta.runs[n-k:])
		if err != nil {
			return err
		}
		for _, r := range f.meta.runs[n-k:] {
			if err := b.DeleteRange(runPrefix(r.id), runPrefix(r.id+1), nil); err != nil {
				return err
			}
		}
		f.meta.runs = append(f.meta.runs[:n-k], merged)
	}
}

// sizeClass is floor(log_runFanIn(records/base)).
func sizeClass(records, base uint64) int {
	c := 0
	for base = max(base, 1); records >= base*runFanIn; base *= runFanIn {
		c++
	}
	return c
}

// writeMerged writes the records of runs, merged in hash order, as a new
// run and ingests it. Each run is read in one sequential pass.
func (f *Frontier) writeMerged(runs []runInfo) (runInfo, error) {
	type source struct {
		it   *pebble.Iterator
		page []byte
	}
	srcs := make([]source, 0, len(runs))
	defer func() {
		for _, s := range srcs {
			s.it.Close()
		}
	}()
	for _, r := range runs {
		it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: runPrefix(r.id), UpperBound: runPrefix(r.id + 1)})
		if err != nil {
			return runInfo{}, err
		}
		srcs = append(srcs, source{it: it})
		if it.First() {
			srcs[len(srcs)-1].page = it.Value()
		}
	}
	w := f.newRunWriter()
	for {
		// A few runs at a time: a linear scan for the smallest hash is
		// cheaper than a heap.
		best := -1
		for i := range srcs {
			if len(srcs[i].page) > 0 && (best < 0 || bytes.Compare(srcs[i].page[:16], srcs[best].page[:16]) < 0) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		s := &srcs[best]
		if len(s.page) < runEntrySize {
			w.t.abort()
			return runInfo{}, fmt.Errorf("frontier: corrupt run page %x", s.it.Key())
		}
		if err := w.add(s.page[:runEntrySize]); err != nil {
			w.t.abort()
			return runInfo{}, err
		}
		if s.page = s.page[runEntrySize:]; len(s.page) == 0 && s.it.Next() {
			s.page = s.it.Value()
		}
	}
	for _, s := range srcs {
		if err := s.it.Error(); err != nil {
			w.t.abort()
			return runInfo{}, err
		}
	}
	paths, err := w.finish()
	if err != nil {
		w.t.abort()
		return runInfo{}, err
	}
	return w.info, f.ingest(paths)
}

// dropUnreferencedRuns deletes runs that were ingested but never recorded
// in the meta record (a crash between the ingestion and the batch of a
// seen pass or merge): their ids are at or above the persisted counter.
func (f *Frontier) dropUnreferencedRuns() error {
	lo, hi := runPrefix(f.meta.nextRun), []byte{prefixRun + 1}
	it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
	if err != nil {
		return err
	}
	found := it.First()
	if err := it.Close(); err != nil {
		return err
	}
	if !found {
		return nil
	}
	return f.db.DeleteRange(lo, hi, pebble.Sync)
}
