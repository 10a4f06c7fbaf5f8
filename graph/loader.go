package graph

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/mneme-archive/mneme/graph/kv"
	"github.com/mneme-archive/mneme/rdf"
)

// LoadOptions tune a Loader.
type LoadOptions struct {
	// RunQuads is how many quads are sorted in memory at once; memory use
	// grows with it (about 100 bytes a quad, twice over while the previous
	// run is written). 0 means 2 Mi.
	RunQuads int
	// SegmentQuads is how many quads are committed in one atomic ingest;
	// a crash loses at most the segment under way. 0 means 64 Mi.
	SegmentQuads int
}

var errLoaderDone = errors.New("load: loader already committed or closed")

// LoadResult tells what a load did.
type LoadResult struct {
	Read  uint64 // quads given to workers
	Added uint64 // quads that were new to the store
	Terms uint64 // new dictionary terms
}

// Loader bulk-loads quads: Workers resolve terms to IDs in parallel, quads
// are sorted in runs written to temporary files, and each segment is
// merged into sorted files that the store ingests in one atomic step,
// together with the updated statistics. Quads the store already holds are
// ignored. The loader holds the store's write lock until Commit or Close.
//
// Crash safety: new dictionary entries are written (and synced) before any
// quad that uses them; quads and statistics become visible together at the
// end of each segment. A killed load leaves unused dictionary entries,
// which are harmless, and temporary files, which the next Open removes.
type Loader struct {
	s    *Store
	ctx  context.Context
	opts LoadOptions
	tmp  string

	shards [1 << shardBits]loadShard
	// filled is the store's filter of the dictionary slots taken
	// (Store.slotFilter), nil when it has none: a slot it never saw is
	// free without reading the store.
	filled *idFilter
	// found caches the terms the workers' probes found in the store, for
	// all of them.
	found *foundTerms
	// prefixes caches, for the orderings the statistics read (SPOG,
	// POSG), the two-column prefixes found in the store (storeProbe).
	prefixes [len(orders)]*knownPrefixes

	// mu guards the run being filled; it is held while a sealed run is
	// handed to the flusher, which is what bounds memory.
	mu      sync.Mutex
	buf     []IDQuad
	done    bool
	jobs    chan sealedRun
	flushed chan []IDQuad // buffers coming back from the flusher
	wg      sync.WaitGroup

	// sortBufs keeps the sort buffers of a segment's commit for the next
	// one (see sortBuffers).
	sortBufs sortBuffers

	// fmu guards the runs of the segment under way (the flusher's side).
	fmu      sync.Mutex
	segRuns  [][len(orders)]string
	segQuads int

	emu      sync.Mutex
	firstErr error

	// termsWritten counts the frozen terms handed to the flusher and not
	// yet written (EndSegment): terms are frozen again only after.
	termsWritten sync.WaitGroup

	wmu     sync.Mutex
	workers []*LoadWorker
	// dictWrites counts the dictionary writes, after which the workers
	// read the dictionary anew.
	dictWrites atomic.Uint64

	closed  atomic.Bool // set by Commit and Close; Add refuses work after
	fileSeq atomic.Int64
	read    atomic.Uint64
	terms   atomic.Uint64
	added   atomic.Uint64
}

// fail records the first error; every later Add and Commit returns it.
func (l *Loader) fail(err error) error {
	l.emu.Lock()
	defer l.emu.Unlock()
	if l.firstErr == nil {
		l.firstErr = err
	}
	return l.firstErr
}

func (l *Loader) err() error {
	l.emu.Lock()
	defer l.emu.Unlock()
	return l.firstErr
}

// loadShard holds the terms that got IDs in one shard of the ID space:
// active since the last run was sealed, frozen while being written.
type loadShard struct {
	mu             sync.Mutex
	active, frozen *pendingTerms
}

// NewLoader starts a bulk load.
func (s *Store) NewLoader(ctx context.Context, opts LoadOptions) (*Loader, error) {
	if s.ReadOnly() {
		return nil, ErrReadOnly
	}
	if opts.RunQuads <= 0 {
		opts.RunQuads = 2 << 20
	}
	if opts.SegmentQuads <= 0 {
		opts.SegmentQuads = 64 << 20
	}
	tmp, err := os.MkdirTemp(s.dir, loadTmpPrefix)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	s.wmu.Lock()
	l := &Loader{s: s, ctx: ctx, opts: opts, tmp: tmp,
		jobs: make(chan sealedRun), flushed: make(chan []IDQuad, 1), found: newFoundTerms()}
	for i := range l.shards {
		l.shards[i].active = newPendingTerms()
	}
	for _, o := range []Order{SPOG, POSG} {
		l.prefixes[o-1] = newKnownPrefixes()
	}
	if l.filled, err = s.slotFilter(); err != nil {
		l.release()
		return nil, err
	}
	l.wg.Add(1)
	go l.flusher()
	return l, nil
}

// Read is the number of quads workers have handed on so far (for
// progress; a worker hands on its quads in groups of a few thousand).
func (l *Loader) Read() uint64 { return l.read.Load() }

// LoadWorker resolves and buffers quads for a Loader. Use one per
// goroutine; a LoadWorker is not safe for concurrent use.
type LoadWorker struct {
	l     *Loader
	cache termIDs // the IDs of recent terms
	// recent holds IRIs and literals by the address of their text: the
	// predicates, graph and classes of a writer's statements, and its
	// constant literals (a platform's name, a language, small numbers),
	// are the same strings again and again, found here without encoding
	// or hashing them. A slot keeps its string alive, so an address equal
	// to it is the same text — unless the caller reuses the memory behind
	// the strings (text parsed in place from a buffer that is refilled),
	// which it must tell with Forget.
	recent [256]knownTerm
	// enc and h are the encodings and hashes of the terms of the quad
	// being added that known missed, by position, for resolve.
	enc  [4][]byte
	h    [4]uint64
	out  []IDQuad
	read uint64 // quads added since the last hand-over, for Loader.Read
	// dict reads the dictionary as of dictWrites writes of the loader.
	dict       kv.Prober
	dictWrites uint64
}

const (
	workerCacheTerms = 1 << 18 // terms in each of a worker's two cache generations
	workerFlushQuads = 1 << 13 // quads a worker buffers before handing them on
)

// NewWorker returns a worker for one goroutine. Its work must be done
// (Flush returned) before Commit or Close, which release what it holds.
func (l *Loader) NewWorker() *LoadWorker {
	w := &LoadWorker{l: l, cache: newTermIDs(workerCacheTerms)}
	l.wmu.Lock()
	l.workers = append(l.workers, w)
	l.wmu.Unlock()
	return w
}

// Add validates and loads quads; they may be reused after Add returns,
// but the memory behind their strings only after Forget.
func (w *LoadWorker) Add(quads []rdf.Quad) error {
	if w.l.closed.Load() {
		return errLoaderDone
	}
	for i := range quads {
		q := &quads[i]
		// A term's text is checked when the worker first meets it: one
		// the worker knows was checked then. All four are checked before
		// any is given an ID, so that a bad quad adds no term.
		if err := q.ValidateKinds(); err != nil {
			return err
		}
		var iq IDQuad
		var known [4]bool
		terms := [4]rdf.Term{q.S, q.P, q.O, q.G}
		for pos, t := range terms {
			if id, ok := w.known(t, pos); ok {
				iq.set(pos, id)
				known[pos] = true
			} else if err := t.Validate(positions[pos]); err != nil {
				return err
			}
		}
	resolve:
		for pos, t := range terms {
			if known[pos] {
				continue
			}
			for j := range pos { // the same term just resolved
				if !known[j] && terms[j] == t {
					iq.set(pos, iq.at(j))
					continue resolve
				}
			}
			id, err := w.resolve(t, pos)
			if err != nil {
				return err
			}
			iq.set(pos, id)
		}
		w.out = append(w.out, iq)
	}
	w.read += uint64(len(quads))
	if len(w.out) >= workerFlushQuads {
		return w.Flush()
	}
	return nil
}

// Flush hands the worker's buffered quads to the loader. Call it when the
// worker is done.
func (w *LoadWorker) Flush() error {
	w.l.read.Add(w.read)
	w.read = 0
	err := w.l.push(w.out)
	w.out = w.out[:0]
	return err
}

// Forget drops the terms the worker knows by the address of their text.
// Call it before the memory behind the strings of quads already added is
// written again (strings that alias a reused buffer): text that came to
// the same address would otherwise be taken for the term that was there,
// and given its ID.
func (w *LoadWorker) Forget() { w.recent = [len(w.recent)]knownTerm{} }

// knownTerm is a slot of LoadWorker.recent.
type knownTerm struct {
	val      string
	kind     rdf.Kind
	dt, lang string
	id       ID
}

func (r *knownTerm) is(t rdf.Term) bool {
	return len(r.val) == len(t.Value) && unsafe.StringData(r.val) == unsafe.StringData(t.Value) &&
		r.kind == t.Kind && r.dt == t.Datatype && r.lang == t.Lang
}

func (r *knownTerm) set(t rdf.Term, id ID) {
	*r = knownTerm{t.Value, t.Kind, t.Datatype, t.Lang, id}
}

// recentSlot returns the slot of LoadWorker.recent for an IRI or a
// literal, nil for other terms.
func (w *LoadWorker) recentSlot(t rdf.Term) *knownTerm {
	if t.Kind != rdf.KindIRI && t.Kind != rdf.KindLiteral || t.Value == "" {
		return nil
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(t.Value)))
	return &w.recent[(p>>3^p>>11^uintptr(len(t.Value)))%uintptr(len(w.recent))]
}

// known returns the ID of a term the worker has met recently: the default
// graph, an IRI or literal by the address of its text, or a term in its
// cache. When it does not, it leaves the term's encoding and hash in
// w.enc[pos] and w.h[pos].
func (w *LoadWorker) known(t rdf.Term, pos int) (ID, bool) {
	if t.IsZero() {
		return DefaultGraph, true
	}
	r := w.recentSlot(t)
	if r != nil && r.is(t) {
		return r.id, true
	}
	w.enc[pos] = appendTerm(w.enc[pos][:0], t)
	w.h[pos] = w.l.s.hash(w.enc[pos])
	id, ok := w.cache.lookup(w.h[pos], w.enc[pos])
	if ok && r != nil {
		r.set(t, id)
	}
	return id, ok
}

// resolve returns the ID of a term known returned none for at position
// pos (its encoding and hash as known left them), giving it one if the
// store and the loader do not know it. The worker's cache is not read
// again: known missed it, and Add finds a term repeated within a quad
// (one that encodes the same in another spelling is found by assign).
func (w *LoadWorker) resolve(t rdf.Term, pos int) (ID, error) {
	enc, h := w.enc[pos], w.h[pos]
	id, err := w.l.assign(w, h, enc)
	if err != nil {
		return 0, err
	}
	w.cache.put(h, enc, id)
	if r := w.recentSlot(t); r != nil {
		r.set(t, id)
	}
	return id, nil
}

// prober returns the worker's reader of dictionary slots, made anew when
// the loader has written terms since: the pending tables forget the terms
// they wrote, which only a reader made after the write sees. Called with
// a shard's lock held: a writer clears the shards' frozen terms after
// counting the write in dictWrites.
func (w *LoadWorker) prober() (kv.Prober, error) {
	n := w.l.dictWrites.Load()
	if w.dict != nil && w.dictWrites == n {
		return w.dict, nil
	}
	if w.dict != nil {
		if err := w.dict.Close(); err != nil {
			return nil, err
		}
		w.dict = nil
	}
	p, err := w.l.s.kv.NewProber()
	if err != nil {
		return nil, err
	}
	w.dict, w.dictWrites = p, n
	return p, nil
}

// closeProber releases the worker's dictionary reader.
func (w *LoadWorker) closeProber() error {
	if w.dict == nil {
		return nil
	}
	err := w.dict.Close()
	w.dict = nil
	return err
}

// assign returns the ID of the encoded term, whose hash is h, giving it a
// new one if the store and the pending tables do not know it. The
// dictionary's free slots are read through the worker's prober: most
// terms a worker's cache misses are new to the store. A pending term is
// found at its first slot (the store's terms before it in its probe
// sequence are read). A term found in the store before, by any worker, is
// answered by the loader's cache of found terms instead of a read.
func (l *Loader) assign(w *LoadWorker, h uint64, enc []byte) (ID, error) {
	sh := &l.shards[shardOf(firstSlot(h))]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	var storeFree func(ID) bool
	if l.filled != nil {
		// Read while probeCached reads the pending tables (not before the
		// lock, which waits for it).
		l.filled.touch(firstSlot(h))
		storeFree = func(id ID) bool { return !l.filled.mayContain(id) }
	}
	dict, err := w.prober()
	if err != nil {
		return 0, err
	}
	id, found, err := probeCached(dict, h, enc, storeFree, l.found, sh.active, sh.frozen)
	if err != nil || found {
		return id, err
	}
	sh.active.add(enc, id)
	if l.filled != nil {
		l.filled.add(id)
	}
	return id, nil
}

// push appends a worker's quads to the current run, sealing the run when
// it is full.
func (l *Loader) push(quads []IDQuad) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return errLoaderDone
	}
	if err := l.err(); err != nil {
		return err
	}
	for len(quads) > 0 {
		n := min(len(quads), l.opts.RunQuads-len(l.buf))
		l.buf = append(l.buf, quads[:n]...)
		quads = quads[n:]
		if len(l.buf) >= l.opts.RunQuads {
			if err := l.sealRun(); err != nil {
				return err
			}
		}
	}
	return nil
}

// sealedRun is a run handed to the flusher: its quads and the terms that
// got their IDs while it was filled. A quad of the run naming one of them
// cannot be in the store, nor can any key prefix naming one: the term was
// absent from the dictionary until then, and every quad that names it
// comes in this run or a later one.
type sealedRun struct {
	quads []IDQuad
	isNew func(ID) bool
	// done, if not nil, makes the run the last of its segment, committed
	// at once, after its new terms (written then, isNew unset); done
	// receives the outcome (see EndSegment).
	done  chan<- error
	terms []dictEntry
}

// sealRun makes the terms of the current run durable and hands its quads
// to the flusher. Called with l.mu held.
func (l *Loader) sealRun() error {
	fresh, err := l.writeTerms()
	if err != nil {
		return l.fail(err)
	}
	if len(l.buf) == 0 {
		return nil
	}
	select {
	case l.jobs <- sealedRun{quads: l.buf, isNew: fresh.has}:
	case <-l.ctx.Done():
		return l.ctx.Err()
	}
	select {
	case l.buf = <-l.flushed:
	default:
		l.buf = make([]IDQuad, 0, l.opts.RunQuads)
	}
	l.buf = l.buf[:0]
	return nil
}

// EndSegment ends the segment under way: the loader's goroutine writes
// its new terms and commits what the workers handed on so far (Flush) in
// one atomic step, while the
// workers go on with the next segment, so that a caller can fill the
// next group of quads on one core while the last is sorted and written on
// the other. The channel receives nil once the segment is in the store,
// or the load's error. Segments are committed in the order they are
// ended; at most one is committed at a time, EndSegment waiting for the
// one before to be taken up.
func (l *Loader) EndSegment() <-chan error {
	done := make(chan error, 1)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		done <- errLoaderDone
		return done
	}
	if err := l.err(); err != nil {
		done <- err
		return done
	}
	l.termsWritten.Wait() // the terms of the segment before
	l.termsWritten.Add(1)
	size := len(l.buf)
	select {
	case l.jobs <- sealedRun{quads: l.buf, terms: l.freezeTerms(), done: done}:
	case <-l.ctx.Done():
		l.termsWritten.Done()
		done <- l.fail(l.ctx.Err())
		return done
	}
	select {
	case l.buf = <-l.flushed:
	default:
		l.buf = make([]IDQuad, 0, min(size, l.opts.RunQuads))
	}
	l.buf = l.buf[:0]
	return done
}

// writeTerms freezes the pending terms, ingests them as one sorted file
// and then forgets them: from then on lookups find them in the store. It
// returns the set of their IDs.
func (l *Loader) writeTerms() (*idSet, error) {
	l.termsWritten.Wait()
	return l.writeFrozen(l.freezeTerms())
}

// freezeTerms freezes the pending terms and returns them, for
// writeFrozen; the terms frozen before must have been written.
func (l *Loader) freezeTerms() []dictEntry {
	var entries []dictEntry
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		// The next segment is sized like this one: growing the tables
		// anew each segment costs more than the room.
		sh.frozen, sh.active = sh.active, newPendingTermsSize(sh.active.len())
		for id, enc := range sh.frozen.all() {
			// The frozen table is never written again: its encodings
			// stay as they are.
			entries = append(entries, dictEntry{id, unsafe.String(unsafe.SliceData(enc), len(enc))})
		}
		sh.mu.Unlock()
	}
	return entries
}

// writeFrozen ingests the frozen terms, entries, as one sorted file and
// then forgets them. It returns the set of their IDs.
func (l *Loader) writeFrozen(entries []dictEntry) (*idSet, error) {
	path, err := l.termFile(entries)
	if err == nil {
		err = l.ingestTerms(path, len(entries))
	}
	if err != nil {
		return nil, err
	}
	return freshSet(entries), nil
}

// termFile writes the frozen terms, entries, as one sorted file for
// ingestTerms; "" when there are none.
func (l *Loader) termFile(entries []dictEntry) (string, error) {
	if len(entries) == 0 {
		return "", nil
	}
	entries = sortEntries(entries, make([]dictEntry, len(entries)))
	path := l.nextFile("dict")
	f, err := l.s.kv.NewSortedFile(path, kv.FileOptions{})
	if err != nil {
		return "", err
	}
	var values []valueEntry
	key := make([]byte, 0, max(valueKeyWidth, 9))
	for _, e := range entries {
		if err := f.Add(appendDictKey(key[:0], e.id), unsafe.Slice(unsafe.StringData(e.enc), len(e.enc))); err != nil {
			f.Abort()
			return "", err
		}
		if v, ok := valueEntryOf(e.id, e.enc); ok {
			values = append(values, v)
		}
	}
	// The value index keys ('v') sort after the dictionary's ('d').
	sortValueEntries(values)
	for _, v := range values {
		if err := f.Add(v.appendKey(key[:0]), nil); err != nil {
			f.Abort()
			return "", err
		}
	}
	if err := f.Finish(); err != nil {
		_ = os.Remove(path)
		return "", err
	}
	return path, nil
}

// ingestTerms ingests the file termFile wrote for n frozen terms, if any,
// and then forgets the frozen terms: from then on lookups find them in
// the store.
func (l *Loader) ingestTerms(path string, n int) error {
	if path != "" {
		if err := l.s.kv.Ingest(l.ctx, []string{path}); err != nil {
			return fmt.Errorf("load: ingest terms: %w", err)
		}
		l.dictWrites.Add(1)
		l.terms.Add(uint64(n))
	}
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		sh.frozen = nil
		sh.mu.Unlock()
	}
	return nil
}

// freshSet returns the set of the IDs of entries.
func freshSet(entries []dictEntry) *idSet {
	fresh := makeIDSet(len(entries))
	for _, e := range entries {
		fresh.add(e.id)
	}
	return fresh
}

type dictEntry struct {
	id  ID
	enc string
}

func (l *Loader) nextFile(kind string) string {
	return filepath.Join(l.tmp, fmt.Sprintf("%06d.%s", l.fileSeq.Add(1), kind))
}

// flusher sorts sealed runs into run files and commits full segments.
func (l *Loader) flusher() {
	defer l.wg.Done()
	var keys, tmp []cols
	for run := range l.jobs {
		quads := run.quads
		if run.done != nil {
			err := l.err()
			if err == nil {
				if err = l.commitSegment(quads, run.terms, true); err != nil {
					err = l.fail(err)
				}
			}
			l.termsWritten.Done()
			run.done <- err
		} else if l.err() == nil {
			var paths [len(orders)]string
			var err error
			for i, o := range Orders() {
				paths[i] = l.nextFile("run-" + o.String())
				keys, tmp = sortRun(o, quads, keys, tmp)
				var isNew func(ID) bool
				if o == SPOG || o == POSG { // the orderings the statistics read
					isNew = run.isNew
				}
				if err = writeRun(paths[i], keys, isNew); err != nil {
					l.fail(fmt.Errorf("load: write run: %w", err))
					break
				}
			}
			l.fmu.Lock()
			l.segRuns = append(l.segRuns, paths)
			l.segQuads += len(quads)
			full := l.segQuads >= l.opts.SegmentQuads
			l.fmu.Unlock()
			if full && err == nil {
				if err := l.commitSegment(nil, nil, false); err != nil {
					l.fail(err)
				}
			}
		}
		select {
		case l.flushed <- quads:
		default:
		}
	}
}

// Commit loads everything added so far and ends the load.
func (l *Loader) Commit() (LoadResult, error) {
	l.mu.Lock()
	if l.done {
		l.mu.Unlock()
		return LoadResult{}, errLoaderDone
	}
	// The last run is not written out: it is sorted in memory and merged
	// with the run files of its segment.
	err := l.err()
	var terms []dictEntry
	if err == nil {
		// Written while the last run is sorted and merged (commitSegment).
		l.termsWritten.Wait()
		terms = l.freezeTerms()
	}
	last := l.buf
	l.done = true
	l.closed.Store(true)
	close(l.jobs)
	l.mu.Unlock()
	l.wg.Wait()
	if err == nil {
		err = l.err()
	}
	if err == nil {
		err = l.commitSegment(last, terms, true)
	}
	l.release()
	return LoadResult{Read: l.read.Load(), Added: l.added.Load(), Terms: l.terms.Load()}, err
}

// Close abandons whatever was not committed and releases the store. A
// segment already ended (EndSegment) is committed first.
func (l *Loader) Close() {
	l.mu.Lock()
	if l.done {
		l.mu.Unlock()
		return
	}
	l.done = true
	l.closed.Store(true)
	close(l.jobs)
	l.mu.Unlock()
	l.wg.Wait()
	l.release()
}

func (l *Loader) release() {
	l.wmu.Lock()
	for _, w := range l.workers {
		_ = w.closeProber()
	}
	l.workers = nil
	l.wmu.Unlock()
	_ = os.RemoveAll(l.tmp)
	l.s.wmu.Unlock()
}
