package frontier

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/mneme-archive/mneme/graph"
)

// Incremental crawls keep every visited URL: a successful completion with a
// due time puts the URL into its queue's waiting set, keyed by due time, and
// the queue is ready when its first URL is due and its politeness snooze
// has passed. URLs not yet visited (and retries) are served before waiting
// ones, so new pages are captured first. The URL's entry (URL, hops, via)
// stays where it is; a history record keeps its due time and what the
// crawler stored with it.

// duePrefix is the common prefix of the waiting URLs of one queue.
func duePrefix(qid uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{prefixDue}, qid)
}

// dueKey orders a queue's waiting URLs by due time, then insertion counter.
func dueKey(qid uint32, due int64, seq uint64) []byte {
	k := binary.BigEndian.AppendUint64(duePrefix(qid), uint64(due))
	return binary.BigEndian.AppendUint64(k, seq)
}

func historyKey(h urlHash) []byte { return append([]byte{prefixHistory}, h[:]...) }

func queueAuxKey(qid uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{prefixQueueAux}, qid)
}

// history returns the due time (Unix nanoseconds) and the crawler's
// history stored for a URL; nil when it was never visited.
func (f *Frontier) history(h urlHash) (int64, []byte, error) {
	v, err := f.get(historyKey(h))
	if v == nil || err != nil {
		return 0, nil, err
	}
	if len(v) < 8 {
		return 0, nil, fmt.Errorf("frontier: corrupt history record %x: %d bytes", h, len(v))
	}
	return int64(binary.BigEndian.Uint64(v)), v[8:], nil
}

// wait adds a URL to q's waiting set at due (Unix nanoseconds).
func (f *Frontier) wait(b *pebble.Batch, q *queue, rec *urlRecord, due int64) {
	b.Set(dueKey(q.id, due, rec.seq), nil, nil)
	if q.waiting == 0 || due < q.nextDue {
		q.nextDue = due
	}
	q.waiting++
	f.meta.totals.Waiting++
}

// keepHistory writes the history record of a completed URL (its due time
// and the crawler's history) and the queue's data, as the outcome says.
func (f *Frontier) keepHistory(b *pebble.Batch, h urlHash, q *queue, rec *urlRecord, o Outcome) error {
	if o.QueueData != nil {
		b.Set(queueAuxKey(q.id), o.QueueData, nil)
	}
	if rec.state != stateWaiting && o.History == nil {
		return nil
	}
	hist := o.History
	if hist == nil {
		var err error
		if _, hist, err = f.history(h); err != nil {
			return err
		}
	}
	due := int64(0)
	switch {
	case rec.state == stateWaiting && o.Status == RetryLater:
		due = o.RetryURLAt.UnixNano()
	case rec.state == stateWaiting:
		due = o.Due.UnixNano()
	}
	v := make([]byte, 8, 8+len(hist))
	binary.BigEndian.PutUint64(v, uint64(due))
	b.Set(historyKey(h), append(v, hist...), nil)
	return nil
}

// headKeys returns the first key of one of q's key spaces (prefix, then
// an 8-byte order and an 8-byte insertion counter) from key from on, and
// when withSecond the second, nil when there is only one. q's count of n
// entries says there is a first.
func (f *Frontier) headKeys(q *queue, prefix, from []byte, what string, n int64, withSecond bool) (first, second []byte, err error) {
	it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: from, UpperBound: graph.PrefixEnd(prefix)})
	if err != nil {
		return nil, nil, err
	}
	if it.First() {
		first = append([]byte(nil), it.Key()...)
		// The step to the second key can cross the deletion marks of
		// every entry claimed before: only taken when wanted.
		if withSecond && it.Next() {
			second = append([]byte(nil), it.Key()...)
		}
	}
	if err := errors.Join(it.Error(), it.Close()); err != nil {
		return nil, nil, err
	}
	switch {
	case first == nil:
		return nil, nil, fmt.Errorf("frontier: queue %q has %d %s but no entries", q.key, n, what)
	case len(first) != len(prefix)+16 || second != nil && len(second) != len(prefix)+16:
		return nil, nil, fmt.Errorf("frontier: corrupt key %x or %x in queue %q", first, second, q.key)
	}
	return first, second, nil
}

// headEntry reads the entry of insertion counter seq, found under key in
// one of q's key spaces, unless v already holds it, and its URL record,
// which must be in state want.
func (f *Frontier) headEntry(q *queue, key []byte, seq uint64, v []byte, want urlState) (entry, urlHash, *urlRecord, error) {
	if v == nil {
		var err error
		if v, err = f.get(dataKey(seq)); err != nil {
			return entry{}, urlHash{}, nil, err
		}
	}
	if v == nil {
		return entry{}, urlHash{}, nil, fmt.Errorf("%w: entry %x in queue %q has no URL", errStale, key, q.key)
	}
	e, err := decodeEntry(v)
	if err != nil {
		return entry{}, urlHash{}, nil, err
	}
	h := hashURL(e.url)
	rec, err := f.getRecord(h)
	if err != nil {
		return entry{}, urlHash{}, nil, err
	}
	if rec == nil || rec.state != want || rec.seq != seq {
		return entry{}, urlHash{}, nil, fmt.Errorf("%w: entry %x (%s) in queue %q has no URL record in state %d", errStale, key, e.url, q.key, want)
	}
	return e, h, rec, nil
}

// claimDue claims the first waiting URL of q, which place made ready only
// once it was due.
func (f *Frontier) claimDue(q *queue, now int64) (*Claim, error) {
	prefix := duePrefix(q.id)
	key, after, err := f.headKeys(q, prefix, prefix, "waiting URLs", q.waiting, true)
	if err != nil {
		return nil, err
	}
	next := int64(0)
	if after != nil {
		next = int64(binary.BigEndian.Uint64(after[len(prefix):]))
	}
	due := int64(binary.BigEndian.Uint64(key[len(prefix):]))
	e, h, rec, err := f.headEntry(q, key, binary.BigEndian.Uint64(key[len(prefix)+8:]), nil, stateWaiting)
	if err != nil {
		return nil, err
	}
	_, hist, err := f.history(h)
	if err != nil {
		return nil, err
	}
	rec.state = stateInFlight
	b := f.db.NewBatch()
	b.Delete(key, nil)
	b.Set(inFlightKey(h), nil, nil)
	f.setRecord(b, &h, rec)
	q.waiting--
	q.nextDue = next
	q.inFlight++
	q.used++
	f.meta.totals.Waiting--
	f.meta.totals.InFlight++
	f.ready.remove(q)
	f.place(q, now)
	if err := f.commit(b, []*queue{q}, pebble.NoSync); err != nil {
		return nil, err
	}
	if len(hist) == 0 {
		hist = nil // a URL waiting for a retry, never visited
	}
	return &Claim{
		URL: e.url, QueueKey: q.key, Hops: e.hops, Via: e.via, Score: rec.score,
		Retries: int(rec.retries), History: hist, Due: time.Unix(0, due),
	}, nil
}

// unwait removes a waiting URL from its queue's waiting set (b must be an
// indexed batch, read to find the queue's next due time).
func (f *Frontier) unwait(b *pebble.Batch, q *queue, h urlHash, rec *urlRecord) error {
	due, _, err := f.history(h)
	if err != nil {
		return err
	}
	b.Delete(dueKey(q.id, due, rec.seq), nil)
	q.waiting--
	f.meta.totals.Waiting--
	prefix := duePrefix(q.id)
	it, err := b.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: graph.PrefixEnd(prefix)})
	if err != nil {
		return err
	}
	q.nextDue = 0
	if it.First() {
		q.nextDue = int64(binary.BigEndian.Uint64(it.Key()[len(prefix):]))
	}
	return it.Close()
}

// Expedite moves the due time of waiting URLs forward to at: a page that
// changed has its embedded resources revisited with it. URLs due earlier,
// not waiting or unknown are left alone. The call is one atomic batch.
func (f *Frontier) Expedite(urls []string, at time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.checkAndFlush(); err != nil {
		return err
	}
	recs, err := f.readRecords(urls)
	if err != nil {
		return err
	}
	when := at.UnixNano()
	b := f.db.NewBatch()
	t := f.newTouchSet(nil)
	for h, rec := range recs {
		if rec == nil || rec.state != stateWaiting {
			continue
		}
		due, hist, err := f.history(h)
		if err != nil {
			b.Close()
			return err
		}
		if due <= when {
			continue
		}
		q := f.queues[rec.qid]
		b.Delete(dueKey(q.id, due, rec.seq), nil)
		b.Set(dueKey(q.id, when, rec.seq), nil, nil)
		v := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(hist)), uint64(when))
		b.Set(historyKey(h), append(v, hist...), nil)
		q.nextDue = min(q.nextDue, when)
		t.add(q)
	}
	return f.commitTouched(b, &t, pebble.NoSync)
}

// QueueData returns what the crawler last stored for the queue of key with
// a completion (Outcome.QueueData); nil if nothing.
func (f *Frontier) QueueData(key string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check(); err != nil {
		return nil, err
	}
	q := f.byKey[key]
	if q == nil {
		return nil, nil
	}
	return f.get(queueAuxKey(q.id))
}
