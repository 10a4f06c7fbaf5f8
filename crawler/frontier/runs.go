package frontier

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/cockroachdb/pebble/v2"

	"github.com/mneme-archive/mneme/graph"
)

// The seen-set on disk is DRUM's sorted file, kept as runs: each seen pass
// that finds many new URLs writes their records, already in hash order, as
// a new run, ingested into Pebble as tables under a fresh run id. Their
// keys lie above every key of earlier runs, so the tables go straight to
// the bottom level and Pebble never compacts them; the frontier merges
// runs itself, sequentially, when they pile up (see mergeRuns).
//
// A run is stored in pages of two kinds, each page one Pebble key ending
// with the last hash of the page:
//
//	S run(4) 1 lastHash(16) → records: Options.runPage fixed-size entries in hash order
//	S run(4) 0 lastHash(16) → index: the 4-byte fingerprint (first bytes of
//	                          the hash) of indexFanOut × runPage records
//
// A seen pass, whose candidates are sorted by hash, walks the index pages
// of each run (stepping forward, seeking only over long gaps) and finds a
// fingerprint by interpolation inside a page: most candidates are new URLs,
// and for them the pass reads only the index, about a tenth of the run,
// which stays in the block cache. A fingerprint that matches (a URL seen
// before, or about one new URL in 2^32/records) is looked up in the record
// pages.
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
	// defaultRunPage is the number of records per record page (about
	// 43 KiB): a pass of many rediscoveries reads most pages, and each
	// page read has a fixed cost (a system call, a cache allocation)
	// that small pages multiplied.
	defaultRunPage = 1024
	// indexFanOut is the number of record pages an index page covers (an
	// index page is 4 KiB by default).
	indexFanOut = 1
	// runTableSize splits a run into tables of about this size, so that a
	// merged run is dropped a table at a time and no table is huge.
	runTableSize = 64 << 20
	// runEntrySize is a record entry: hash(16) state(1) qid(4) score(8)
	// count(4) seq(8) retries(2).
	runEntrySize = 43
	// fingerprintSize is an index entry: the first bytes of a hash.
	fingerprintSize = 4
	// Page kinds, the byte after the run id.
	pageIndex   = 0
	pageRecords = 1
)

// runInfo is one run of the seen-set: its id and number of records.
type runInfo struct {
	id      uint32
	records uint64
}

func runPrefix(id uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{prefixRun}, id)
}

// pagePrefix appends the common prefix of the pages of one kind of run id.
func pagePrefix(buf []byte, id uint32, kind byte) []byte {
	return append(binary.BigEndian.AppendUint32(append(buf, prefixRun), id), kind)
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

// runWriter writes a run's entries, in hash order, as record and index
// pages, each kind to tables of its own (their key ranges do not
// interleave).
type runWriter struct {
	records, index *pageWriter
	info           runInfo
}

// pageWriter writes the pages of one kind of a run.
type pageWriter struct {
	t      *tableWriter
	prefix []byte
	size   int // bytes per page
	page   []byte
	last   urlHash // hash of the last entry added
	key    []byte
}

func (f *Frontier) newRunWriter() *runWriter {
	id := f.meta.nextRun
	f.meta.nextRun++
	return &runWriter{
		info:    runInfo{id: id},
		records: &pageWriter{t: f.newTableWriter("run-records", true), prefix: pagePrefix(nil, id, pageRecords), size: f.opts.runPage * runEntrySize},
		index:   &pageWriter{t: f.newTableWriter("run-index", true), prefix: pagePrefix(nil, id, pageIndex), size: f.opts.runPage * indexFanOut * fingerprintSize},
	}
}

// add appends one entry (as appendRunEntry encodes it).
func (w *runWriter) add(e []byte) error {
	w.info.records++
	if err := w.records.add(e, e); err != nil {
		return err
	}
	return w.index.add(e, e[:fingerprintSize])
}

// add appends v, the part of entry e this kind of page keeps.
func (p *pageWriter) add(e, v []byte) error {
	copy(p.last[:], e[:len(p.last)])
	p.page = append(p.page, v...)
	if len(p.page) >= p.size {
		return p.flush()
	}
	return nil
}

func (p *pageWriter) flush() error {
	if len(p.page) == 0 {
		return nil
	}
	p.key = append(append(p.key[:0], p.prefix...), p.last[:]...)
	err := p.t.set(p.key, p.page)
	p.page = p.page[:0]
	return err
}

// finish writes the last pages and returns the paths of the tables.
func (w *runWriter) finish() ([]string, error) {
	if err := w.records.flush(); err != nil {
		return nil, err
	}
	if err := w.index.flush(); err != nil {
		return nil, err
	}
	rp, err := w.records.t.finish()
	if err != nil {
		return nil, err
	}
	ip, err := w.index.t.finish()
	if err != nil {
		return nil, err
	}
	return append(rp, ip...), nil
}

// abort removes what was written.
func (w *runWriter) abort() {
	w.records.t.abort()
	w.index.t.abort()
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
		prefix := pagePrefix(nil, r.id, pageRecords)
		it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: graph.PrefixEnd(prefix)})
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
			w.abort()
			return runInfo{}, fmt.Errorf("frontier: corrupt run page %x", s.it.Key())
		}
		if err := w.add(s.page[:runEntrySize]); err != nil {
			w.abort()
			return runInfo{}, err
		}
		if s.page = s.page[runEntrySize:]; len(s.page) == 0 && s.it.Next() {
			s.page = s.it.Value()
		}
	}
	for _, s := range srcs {
		if err := s.it.Error(); err != nil {
			w.abort()
			return runInfo{}, err
		}
	}
	paths, err := w.finish()
	if err != nil {
		w.abort()
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
