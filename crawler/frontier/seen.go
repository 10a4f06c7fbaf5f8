package frontier

import (
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// seenURL is one distinct URL of a seen pass: its record after the pass,
// and for a URL already queued, its queue position before it.
type seenURL struct {
	hash  urlHash
	idx   uint32 // its first candidate in Frontier.pending
	isNew bool
	moved bool // a released URL queued again: its record goes to the overlay
	old   itemPos
	rec   urlRecord
}

// seenScratch keeps the working arrays of the seen pass from one pass to
// the next: they are as long as the pending buffer, and allocating them
// anew for every pass made garbage collection a large share of the work.
type seenScratch struct {
	order   []sortEntry
	sorted  []sortEntry // order sorted (sortByHash's output)
	count   []int       // sortByHash's bucket counts
	parts   [2]seenPart
	byIdx   []int32
	items   []itemOp
	touched []*queue
}

// itemPos is a queue entry key: queue, ordered score, insertion counter.
type itemPos struct {
	qid    uint32
	oscore uint64 // ^orderedFloat(score): higher scores first
	seq    uint64
}

func (r *urlRecord) pos() itemPos { return itemPos{r.qid, ^orderedFloat(r.score), r.seq} }

func (p itemPos) appendKey(buf []byte) []byte {
	buf = append(buf, prefixItem)
	buf = binary.BigEndian.AppendUint32(buf, p.qid)
	buf = binary.BigEndian.AppendUint64(buf, p.oscore)
	return binary.BigEndian.AppendUint64(buf, p.seq)
}

func comparePos(x, y itemPos) int {
	if c := cmp.Compare(x.qid, y.qid); c != 0 {
		return c
	}
	if c := cmp.Compare(x.oscore, y.oscore); c != 0 {
		return c
	}
	return cmp.Compare(x.seq, y.seq)
}

type itemOp struct {
	itemPos
	del bool
}

// flushLocked checks the pending candidates against the URL index in one
// ordered pass and applies them in one batch.
func (f *Frontier) flushLocked() error {
	if len(f.pending) == 0 {
		return nil
	}
	urls, fresh, err := f.seenPass()
	if err != nil {
		return f.fail(err)
	}
	// New URLs are inserted in schedule order, so that the insertion
	// counter (and queue creation) follows discovery order as in Heritrix:
	// a URL's idx is the position of its first sighting in the pending
	// buffer, so a table indexed by it puts them in order without a sort.
	byIdx := slices.Grow(f.scratch.byIdx[:0], len(f.pending))[:len(f.pending)]
	for i := range byIdx {
		byIdx[i] = -1
	}
	for _, i := range fresh {
		byIdx[urls[i].idx] = int32(i)
	}
	fresh = fresh[:0]
	for _, i := range byIdx {
		if i >= 0 {
			fresh = append(fresh, uint32(i))
		}
	}
	f.scratch.byIdx = byIdx
	t := f.newTouchSet(f.scratch.touched[:0])
	items := f.scratch.items[:0]
	var q *queue
	for _, i := range fresh {
		u := &urls[i]
		// The links of one page often share their host: skip the map.
		if key := f.pending[u.idx].QueueKey; q == nil || q.key != key {
			q = f.queueFor(key)
		}
		f.meta.seq++
		u.rec.qid, u.rec.seq = q.id, f.meta.seq
		items = append(items, itemOp{itemPos: u.rec.pos()})
		q.size++
		f.meta.totals.Queued++
		t.add(q)
	}
	for i := range urls {
		u := &urls[i]
		if cur := u.rec.pos(); !u.isNew && cur != u.old {
			items = append(items, itemOp{itemPos: u.old, del: true}, itemOp{itemPos: cur})
		}
	}
	slices.SortFunc(items, func(x, y itemOp) int { return comparePos(x.itemPos, y.itemPos) })
	f.placeAll(t.list, f.clock.Now().UnixNano())
	f.scratch.touched = t.list

	// Keys go into the batch almost in key order (queue journal 'J' or
	// records 'Q', entries 'd', meta 'm', pending 'p', queue items 'q', URL
	// records 'u'): Pebble's memtable inserts are cheapest in order, and a
	// large batch is sorted before use, which sorted input makes cheap.
	b := f.db.NewBatchWithSize(len(fresh)*192 + len(urls)*64 + len(t.list)*64 + 64)
	defer b.Close()
	var buf []byte
	var kb [32]byte
	if err := f.writeQueues(b, t.list); err != nil {
		return f.fail(err)
	}
	asRun := len(fresh) >= f.opts.ingestMin
	if asRun {
		if err := f.ingestNew(urls, fresh); err != nil {
			return f.fail(err)
		}
		if err := f.mergeRuns(b, uint64(f.opts.SeenBatch)); err != nil {
			return f.fail(err)
		}
	} else {
		for _, i := range fresh {
			buf = f.appendEntry(buf[:0], &urls[i])
			b.Set(dataKey(urls[i].rec.seq), buf, nil)
		}
	}
	b.Set(metaKey(), f.meta.encode(buf[:0]), nil)
	if f.logged > 0 {
		b.DeleteRange([]byte{prefixPending}, []byte{prefixPending + 1}, nil)
	}
	for _, op := range items {
		if op.del {
			b.Delete(op.appendKey(kb[:0]), nil)
		} else {
			b.Set(op.appendKey(kb[:0]), nil, nil)
			f.mayHold(f.queues[op.qid], op.itemPos)
		}
	}
	for i := range urls {
		u := &urls[i]
		if u.isNew && !u.moved && asRun && fitsRun(&u.rec) {
			continue
		}
		buf = u.rec.encode(buf[:0])
		b.Set(append(append(kb[:0], prefixURL), u.hash[:]...), buf, nil)
	}
	f.pending, f.logged = f.pending[:0], 0
	f.scratch.items = items
	if err := b.Commit(pebble.NoSync); err != nil {
		return f.fail(err)
	}
	for i := range urls {
		f.records.put(&urls[i].hash, &urls[i].rec)
	}
	for _, p := range f.scratch.parts {
		for i := range p.known {
			f.records.put(&p.known[i].hash, &p.known[i].rec)
		}
	}
	return nil
}

// appendEntry encodes the entry of a new URL.
func (f *Frontier) appendEntry(buf []byte, u *seenURL) []byte {
	c := &f.pending[u.idx].Candidate
	e := entry{url: c.URL, hops: c.Hops, via: c.Via}
	return e.encode(buf)
}

// ingestNew writes the new URLs of a pass as tables and ingests them in
// one step: their records, in hash order, as a new run of the seen-set,
// and their entries, keyed by insertion counter. Both key ranges lie above
// every earlier key of their kind, so Pebble places the tables in the
// bottom level: the bulk of a queued URL never passes through the WAL, a
// memtable, a flush or a compaction. Ingestion is durable at once; if the
// pass's batch is then lost in a crash, the entries and the run are
// unreferenced (Open drops the run) and the replayed pending log writes
// them again (the counters restart from the last committed meta record).
func (f *Frontier) ingestNew(urls []seenURL, fresh []uint32) error {
	entries := f.newTableWriter("entries", false)
	var key, buf []byte
	for _, i := range fresh {
		buf = f.appendEntry(buf[:0], &urls[i])
		key = binary.BigEndian.AppendUint64(append(key[:0], prefixData), urls[i].rec.seq)
		if err := entries.set(key, buf); err != nil {
			entries.abort()
			return err
		}
	}
	run := f.newRunWriter()
	for i := range urls {
		u := &urls[i]
		if !u.isNew || u.moved || !fitsRun(&u.rec) {
			continue
		}
		buf = appendRunEntry(buf[:0], &u.hash, &u.rec)
		if err := run.add(buf); err != nil {
			entries.abort()
			run.abort()
			return err
		}
	}
	ep, err := entries.finish()
	if err != nil {
		entries.abort()
		run.abort()
		return err
	}
	rp, err := run.finish()
	if err != nil {
		removeFiles(ep)
		run.abort()
		return err
	}
	if err := f.ingest(append(ep, rp...)); err != nil {
		return err
	}
	f.meta.runs = append(f.meta.runs, run.info)
	return nil
}

// seenPass sorts the pending candidates by hash (then by schedule order,
// so that repeated sightings of a URL apply in order) and merges them with
// the seen-set: the overlay and each run are read forward once. It
// returns the distinct URLs that need a new record, in hash order, and the
// indexes of the new ones among them; URLs that are known but no longer
// queued are left out (a sighting does not change them). A large pass is
// split in two hash ranges checked at once, on two cores.
func (f *Frontier) seenPass() (urls []seenURL, fresh []uint32, err error) {
	order := f.scratch.order[:0]
	for i := range f.pending {
		h := &f.pending[i].hash
		order = append(order, sortEntry{hi: binary.BigEndian.Uint64(h[:8]), lo: binary.BigEndian.Uint64(h[8:]), idx: uint32(i)})
	}
	order, f.scratch.order, f.scratch.count = sortByHash(order, f.scratch.sorted, f.scratch.count)
	f.scratch.sorted = order
	mid := len(order)
	if len(order) >= f.opts.seenSplit {
		// Split between two hashes, so that a URL's sightings stay together.
		for mid = len(order) / 2; mid < len(order) && order[mid].hi == order[mid-1].hi && order[mid].lo == order[mid-1].lo; mid++ {
		}
	}
	first, second := &f.scratch.parts[0], &f.scratch.parts[1]
	second.urls, second.fresh, second.known = second.urls[:0], second.fresh[:0], second.known[:0]
	done := make(chan error, 1)
	if mid < len(order) {
		go func() { done <- f.checkSeen(order[mid:], second) }()
	} else {
		done <- nil
	}
	err = f.checkSeen(order[:mid], first)
	if err2 := <-done; err == nil {
		err = err2
	}
	if err != nil {
		return nil, nil, err
	}
	urls, fresh = first.urls, first.fresh
	for _, i := range second.fresh {
		fresh = append(fresh, i+uint32(len(urls)))
	}
	urls = append(urls, second.urls...)
	first.urls, first.fresh = urls, fresh
	return urls, fresh, nil
}

// seenPart is the result of checking one hash range of a pass: the URLs
// queued after it, and those found in another state, which the pass
// leaves alone but which go to the record cache.
type seenPart struct {
	urls  []seenURL
	fresh []uint32
	known []knownURL
}

type knownURL struct {
	hash urlHash
	rec  urlRecord
}

// checkSeen merges candidates sorted by hash with the seen-set, looking
// in the record cache first.
func (f *Frontier) checkSeen(order []sortEntry, p *seenPart) error {
	var r *recordReader // opened at the first URL the cache lacks
	defer func() {
		if r != nil {
			r.Close()
		}
	}()
	urls, fresh, known := p.urls[:0], p.fresh[:0], p.known[:0]
	defer func() { p.urls, p.fresh, p.known = urls, fresh, known }()
	for i := 0; i < len(order); {
		first := order[i]
		u := seenURL{hash: f.pending[first.idx].hash, idx: first.idx}
		rec, found := f.records.get(&u.hash)
		if !found {
			if r == nil {
				var err error
				if r, err = f.newRecordReader(); err != nil {
					return err
				}
			}
			var err error
			if rec, found, err = r.find(&u.hash); err != nil {
				return err
			}
		}
		if found && rec.state != stateMoved {
			u.rec, u.old = rec, rec.pos()
		} else {
			// A URL released to another frontier comes back as a new one,
			// but its record stays in the overlay, which would hide a copy
			// in a new run.
			u.moved = found
			c := &f.pending[first.idx].Candidate
			u.isNew = true
			u.rec = urlRecord{state: stateQueued, score: c.Score, count: 1}
			i++
		}
		for ; i < len(order) && order[i].hi == first.hi && order[i].lo == first.lo; i++ {
			c := &f.pending[order[i].idx].Candidate
			u.rec.rescore(c.Update, c.Score)
		}
		if u.rec.state != stateQueued {
			known = append(known, knownURL{u.hash, u.rec})
			continue
		}
		if u.isNew {
			fresh = append(fresh, uint32(len(urls)))
		}
		urls = append(urls, u)
	}
	return nil
}

// sortEntry is a pending candidate's hash as two integers, which sort
// faster than byte arrays.
type sortEntry struct {
	hi, lo uint64
	idx    uint32 // index in Frontier.pending
}
