package frontier

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

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
// the seen-set pass runs (see Options.SeenBatch and Flush), in order. It
// is durable once a later Complete, Sync or Close returns.
func (f *Frontier) Schedule(cands []Candidate) error {
	for i := range cands {
		if err := cands[i].validate(); err != nil {
			return fmt.Errorf("frontier: candidate %d (%q): %w", i, cands[i].URL, err)
		}
	}
	// Hashing (SHA-256 of each URL) needs no lock: keep it out of the way
	// of Next and of other callers.
	var small [128]urlHash // a page's links, mostly: no allocation
	hs := small[:0]
	for i := range cands {
		hs = append(hs, hashURL(cands[i].URL))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check(); err != nil || len(cands) == 0 {
		return err
	}
	for i, c := range cands {
		f.pending = append(f.pending, pendingCandidate{Candidate: c, hash: hs[i]})
	}
	if len(f.pending) >= f.opts.SeenBatch {
		return f.flushLocked()
	}
	return nil
}

// logPending adds the pending candidates not yet in the pending log to b,
// as one record: a synced write (Complete, Sync, Close) makes them durable
// with it. Schedule itself writes nothing: its candidates would be lost in
// a crash before the next synced write anyway (Pebble keeps unsynced
// writes in its WAL buffer), and most are consumed by a seen pass first.
func (f *Frontier) logPending(b *pebble.Batch) error {
	if f.logged == len(f.pending) {
		return nil
	}
	buf := binary.AppendUvarint(f.encoded[:0], uint64(len(f.pending)-f.logged))
	for i := f.logged; i < len(f.pending); i++ {
		buf = f.pending[i].encode(buf)
	}
	f.encoded = buf
	if err := b.Set(pendingKey(f.nextPending), buf, nil); err != nil {
		return err
	}
	f.nextPending++
	f.logged = len(f.pending)
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

// touchSet collects the queues a batch changes, once each: a queue is in
// the set when its mark is the set's (a map was a few percent of a seen
// pass).
type touchSet struct {
	list []*queue
	mark uint64
}

// newTouchSet starts an empty set, appending to list.
func (f *Frontier) newTouchSet(list []*queue) touchSet {
	f.touchMark++
	return touchSet{list: list, mark: f.touchMark}
}

func (t *touchSet) add(q *queue) {
	if q.touched != t.mark {
		q.touched = t.mark
		t.list = append(t.list, q)
	}
}

// commitTouched re-places the touched queues in the ready heap and commits.
func (f *Frontier) commitTouched(b *pebble.Batch, t *touchSet, opts *pebble.WriteOptions) error {
	f.placeAll(t.list, f.clock.Now().UnixNano())
	return f.commit(b, t.list, opts)
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
func (f *Frontier) moveItem(b *pebble.Batch, q *queue, old []byte, rec *urlRecord) {
	if cur := rec.item(); !bytes.Equal(old, cur) {
		b.Delete(old, nil)
		b.Set(cur, nil, nil)
		f.mayHold(q, rec.pos())
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
