package frontier

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// UpdateFunc says how a new score for an already queued URL combines with
// its current one. The zero value is UpdateFirst.
type UpdateFunc uint8

const (
	UpdateFirst UpdateFunc = iota // keep the score first given
	UpdateLast                    // take the newest score
	UpdateMax                     // keep the highest score
	UpdateSum                     // add the scores
	UpdateAvg                     // average all scores given
)

var updateNames = [...]string{"FIRST", "LAST", "MAX", "SUM", "AVG"}

func (u UpdateFunc) String() string {
	if int(u) < len(updateNames) {
		return updateNames[u]
	}
	return fmt.Sprintf("UpdateFunc(%d)", u)
}

// ParseUpdateFunc reads an update function name (FIRST, LAST, MAX, SUM,
// AVG) as written in a crawl specification.
func ParseUpdateFunc(s string) (UpdateFunc, error) {
	for i, n := range updateNames {
		if n == s {
			return UpdateFunc(i), nil
		}
	}
	return 0, fmt.Errorf("frontier: unknown update function %q (want FIRST, LAST, MAX, SUM or AVG)", s)
}

// apply combines the current score (from count contributions) with s.
func (u UpdateFunc) apply(cur float64, count uint64, s float64) float64 {
	switch u {
	case UpdateLast:
		return s
	case UpdateMax:
		return max(cur, s)
	case UpdateSum:
		return cur + s
	case UpdateAvg:
		return (cur*float64(count) + s) / float64(count+1)
	}
	return cur
}

// Candidate is a URL proposed for crawling.
type Candidate struct {
	URL      string // canonical URL: the identity of the URL in the frontier
	QueueKey string // politeness key: host, IP or pay-level domain
	// Score orders URLs inside a queue, highest first (any finite value; an
	// injected score in [0,1] or a Heritrix precedence p as -p both work).
	Score float64
	Hops  string // hop path from the seed, e.g. "LLE"
	Via   string // URL of the page the candidate was found on
	// Update combines Score with the score of the URL if it is already
	// queued. URLs in flight, done or blacklisted ignore it.
	Update UpdateFunc
}

func (c *Candidate) validate() error {
	switch {
	case c.URL == "":
		return errors.New("empty URL")
	case c.QueueKey == "":
		return errors.New("empty queue key")
	case math.IsNaN(c.Score) || math.IsInf(c.Score, 0):
		return fmt.Errorf("score %v is not finite", c.Score)
	case int(c.Update) >= len(updateNames):
		return fmt.Errorf("unknown update function %d", c.Update)
	}
	return nil
}

type pendingCandidate struct {
	Candidate
	hash urlHash
}

// Schedule proposes candidates: new URLs are queued, URLs already queued
// have their score updated by the candidate's Update function, others are
// ignored. The batch is accepted whole or not at all; it is applied when
// the seen-set pass runs (see Options.SeenBatch and Flush), in order.
func (f *Frontier) Schedule(cands []Candidate) error {
	for i := range cands {
		if err := cands[i].validate(); err != nil {
			return fmt.Errorf("frontier: candidate %d (%q): %w", i, cands[i].URL, err)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check(); err != nil || len(cands) == 0 {
		return err
	}
	if f.opts.SeenBatch == 1 {
		// No buffering: the seen pass itself is the atomic batch.
		for _, c := range cands {
			f.pending = append(f.pending, pendingCandidate{Candidate: c, hash: hashURL(c.URL)})
		}
		return f.flushLocked()
	}
	// One pending-log record per call: it is atomic, and one key costs the
	// memtable far less than one per candidate.
	buf := binary.AppendUvarint(nil, uint64(len(cands)))
	for i := range cands {
		buf = cands[i].encode(buf)
	}
	if err := f.db.Set(pendingKey(f.nextPending), buf, pebble.NoSync); err != nil {
		return fmt.Errorf("frontier: schedule: %w", err)
	}
	f.nextPending++
	for _, c := range cands {
		f.pending = append(f.pending, pendingCandidate{Candidate: c, hash: hashURL(c.URL)})
	}
	if len(f.pending) >= f.opts.SeenBatch {
		return f.flushLocked()
	}
	return nil
}

// Flush runs the seen-set pass over the pending candidates now.
func (f *Frontier) Flush() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check(); err != nil {
		return err
	}
	return f.flushLocked()
}

// flushLocked checks the pending candidates against the URL index in one
// ordered pass and applies them in one batch.
func (f *Frontier) flushLocked() error {
	if len(f.pending) == 0 {
		return nil
	}
	var t touchSet
	// About what a pass of new URLs writes, to avoid regrowing the arena.
	w := sortedWrites{arena: make([]byte, 0, len(f.pending)*192), ops: make([]writeOp, 0, 3*len(f.pending))}
	if err := f.seenPass(&w, &t); err != nil {
		return f.fail(err)
	}
	f.pending = f.pending[:0]
	now := f.clock.Now().UnixNano()
	for _, q := range t.list {
		f.place(q, now)
	}
	// Keys go into the batch in key order (queue records 'Q', meta 'm',
	// entries 'q', URL records 'u'): Pebble sorts a large batch before
	// using it, and sorted input makes that sort cheap.
	slices.SortFunc(t.list, func(x, y *queue) int { return cmp.Compare(x.id, y.id) })
	b := f.db.NewBatchWithSize(len(w.arena) + len(t.list)*64 + 64)
	if err := f.finish(b, t.list); err != nil {
		return err
	}
	w.write(b)
	if err := b.DeleteRange([]byte{prefixPending}, []byte{prefixPending + 1}, nil); err != nil {
		return f.fail(err)
	}
	if err := b.Commit(pebble.NoSync); err != nil {
		return f.fail(err)
	}
	return nil
}

// sortedWrites collects the writes of a seen pass so that they can be
// added to the batch in key order.
type sortedWrites struct {
	arena []byte
	ops   []writeOp
}

type writeOp struct {
	k, v, end uint32 // key is arena[k:v], value arena[v:end]
	del       bool
}

func (w *sortedWrites) set(key, value []byte) {
	k := uint32(len(w.arena))
	w.arena = append(w.arena, key...)
	v := uint32(len(w.arena))
	w.arena = append(w.arena, value...)
	w.ops = append(w.ops, writeOp{k: k, v: v, end: uint32(len(w.arena))})
}

func (w *sortedWrites) delete(key []byte) {
	k := uint32(len(w.arena))
	w.arena = append(w.arena, key...)
	end := uint32(len(w.arena))
	w.ops = append(w.ops, writeOp{k: k, v: end, end: end, del: true})
}

// write adds the operations to b in key order (keys are distinct).
func (w *sortedWrites) write(b *pebble.Batch) {
	slices.SortFunc(w.ops, func(x, y writeOp) int {
		return bytes.Compare(w.arena[x.k:x.v], w.arena[y.k:y.v])
	})
	for _, op := range w.ops {
		if op.del {
			b.Delete(w.arena[op.k:op.v], nil)
		} else {
			b.Set(w.arena[op.k:op.v], w.arena[op.v:op.end], nil)
		}
	}
}

// touchSet collects the queues a batch changes, once each.
type touchSet struct {
	list []*queue
	in   map[*queue]bool
}

func (t *touchSet) add(q *queue) {
	if t.in == nil {
		t.in = map[*queue]bool{}
	}
	if !t.in[q] {
		t.in[q] = true
		t.list = append(t.list, q)
	}
}

// commitTouched re-places the touched queues in the ready heap and commits.
func (f *Frontier) commitTouched(b *pebble.Batch, t *touchSet, opts *pebble.WriteOptions) error {
	now := f.clock.Now().UnixNano()
	for _, q := range t.list {
		f.place(q, now)
	}
	return f.commit(b, t.list, opts)
}

// seenPass sorts the pending candidates by hash (then by schedule order,
// so that repeated sightings of a URL apply in order) and visits the URL
// index with increasing seeks. Known URLs are updated during the pass; new
// ones are inserted afterwards in schedule order, so that the insertion
// counter (and queue creation) follows discovery order as in Heritrix.
// (Bloom filters with prefix seeks were measured slower: the filter blocks
// of all overlapping tables are read for every seek, while sorted seeks
// mostly reuse the blocks just read.)
func (f *Frontier) seenPass(w *sortedWrites, t *touchSet) error {
	order := make([]sortEntry, len(f.pending))
	for i := range f.pending {
		order[i] = sortEntry{hash: f.pending[i].hash, idx: uint32(i)}
	}
	slices.SortFunc(order, func(x, y sortEntry) int {
		if c := bytes.Compare(x.hash[:], y.hash[:]); c != 0 {
			return c
		}
		return cmp.Compare(x.idx, y.idx)
	})
	it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: []byte{prefixURL}, UpperBound: []byte{prefixURL + 1}})
	if err != nil {
		return err
	}
	defer it.Close()
	var inserts []newURL
	var buf []byte
	for i := 0; i < len(order); {
		first := order[i]
		key := urlKey(first.hash)
		if it.SeekGE(key) && bytes.Equal(it.Key(), key) {
			rec, err := decodeURLRecord(it.Value())
			if err != nil {
				return err
			}
			old := rec.item()
			for ; i < len(order) && order[i].hash == first.hash; i++ {
				c := &f.pending[order[i].idx].Candidate
				rec.rescore(c.Update, c.Score)
			}
			if rec.state != stateQueued {
				continue
			}
			if cur := rec.item(); !bytes.Equal(old, cur) {
				w.delete(old)
				w.set(cur, nil)
			}
			buf = rec.encode(buf[:0])
			w.set(key, buf)
			continue
		}
		if err := it.Error(); err != nil {
			return err
		}
		c := &f.pending[first.idx].Candidate
		rec := urlRecord{state: stateQueued, score: c.Score, count: 1}
		for i++; i < len(order) && order[i].hash == first.hash; i++ {
			c := &f.pending[order[i].idx].Candidate
			rec.rescore(c.Update, c.Score)
		}
		inserts = append(inserts, newURL{sortEntry: first, rec: rec})
	}
	slices.SortFunc(inserts, func(x, y newURL) int { return cmp.Compare(x.idx, y.idx) })
	for i := range inserts {
		n := &inserts[i]
		c := &f.pending[n.idx].Candidate
		q := f.queueFor(c.QueueKey)
		f.meta.seq++
		n.rec.qid, n.rec.seq = q.id, f.meta.seq
		e := entry{url: c.URL, hops: c.Hops, via: c.Via}
		buf = e.encode(buf[:0])
		w.set(n.rec.data(), buf)
		w.set(n.rec.item(), nil)
		buf = n.rec.encode(buf[:0])
		w.set(urlKey(n.hash), buf)
		q.size++
		f.meta.totals.Queued++
		t.add(q)
	}
	return nil
}

type sortEntry struct {
	hash urlHash
	idx  uint32 // index in Frontier.pending
}

// newURL is an unseen URL found by the seen pass, with its score after
// any repeated sightings in the same pass.
type newURL struct {
	sortEntry
	rec urlRecord
}

// rescore applies an update to the score; only queued URLs change.
func (r *urlRecord) rescore(u UpdateFunc, s float64) {
	if r.state != stateQueued {
		return
	}
	score := u.apply(r.score, r.count, s)
	if math.IsInf(score, 0) { // SUM overflow: keep the largest finite score
		score = math.Copysign(math.MaxFloat64, score)
	}
	r.score = score
	r.count++
}

// moveItem moves the queue entry of rec from key old to its current
// position (its score changed; its insertion counter stays).
func moveItem(b *pebble.Batch, old []byte, rec *urlRecord) {
	if cur := rec.item(); !bytes.Equal(old, cur) {
		b.Delete(old, nil)
		b.Set(cur, nil, nil)
	}
}

// get returns a copy of the value of key, or nil if absent.
func (f *Frontier) get(key []byte) ([]byte, error) {
	v, closer, err := f.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	return append([]byte{}, v...), nil
}
