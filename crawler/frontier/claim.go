package frontier

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// Claim is a URL handed out for fetching. It stays in flight until
// Complete is called with its URL, or until the frontier is reopened.
type Claim struct {
	URL      string
	QueueKey string
	Hops     string
	Via      string
	Score    float64
	Retries  int // how often this URL was completed with RetryLater
	// History is what the crawler stored with the URL's last successful
	// visit (Outcome.History), in incremental crawls; nil before the
	// first. Due is the time the visit was due (zero for a first visit or
	// a retry).
	History []byte
	Due     time.Time
}

// Next claims the best URL of the queue that became ready first. When no
// queue is ready it returns a nil Claim and the time the next queue becomes
// ready, or the zero time if none is waiting (every queue is empty, busy or
// exhausted). Pending candidates are flushed before giving up.
func (f *Frontier) Next(ctx context.Context) (*Claim, time.Time, error) {
	if err := ctx.Err(); err != nil {
		return nil, time.Time{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check(); err != nil {
		return nil, time.Time{}, err
	}
	now := f.clock.Now().UnixNano()
	if (len(f.ready) == 0 || f.ready[0].readyAt > now) && len(f.pending) > 0 {
		if err := f.flushLocked(); err != nil {
			return nil, time.Time{}, err
		}
	}
	if len(f.ready) == 0 {
		return nil, time.Time{}, nil
	}
	if q := f.ready[0]; q.readyAt > now {
		return nil, time.Unix(0, q.readyAt), nil
	}
	c, err := f.claim(f.ready[0], now)
	return c, time.Time{}, err
}

// claim moves the first entry of q into the in-flight set: a URL not yet
// visited (or to retry) if there is one, else the first URL due.
func (f *Frontier) claim(q *queue, now int64) (*Claim, error) {
	if q.size == 0 {
		return f.claimDue(q, now)
	}
	p, e, h, rec, err := f.nextItem(q)
	if err != nil {
		return nil, err
	}
	// Every other entry sorts after this one, and entries written later
	// lower the hint (mayHold).
	q.head, q.headSet = p, true
	item := p.appendKey(nil)
	rec.state = stateInFlight
	b := f.db.NewBatch()
	// Closing returns the batch to Pebble's pool for the next claim.
	defer b.Close()
	b.Delete(item, nil)
	b.Set(inFlightKey(h), nil, nil)
	f.setRecord(b, &h, rec)
	q.size--
	q.inFlight++
	q.used++
	f.meta.totals.Queued--
	f.meta.totals.InFlight++
	// Served queues go to the back of the ready order (round robin when
	// the valence allows more than one fetch at a time).
	f.ready.remove(q)
	f.place(q, now)
	cl := &Claim{
		URL: e.url, QueueKey: q.key, Hops: e.hops, Via: e.via,
		Score: rec.score, Retries: int(rec.retries),
	}
	if f.opts.Incremental {
		// A URL visited before and retried, or claimed again after a crash.
		if _, cl.History, err = f.history(h); err != nil {
			return nil, err
		}
	}
	if err := f.commit(b, []*queue{q}, pebble.NoSync); err != nil {
		return nil, err
	}
	return cl, nil
}

// Status is how the fetch of a claimed URL ended.
type Status uint8

const (
	Succeeded   Status = iota + 1 // fetched and processed
	RetryLater                    // retriable error: requeue, snooze the queue until RetryAt
	Failed                        // given up
	Disregarded                   // not to be fetched after all (robots, scope)
)

// Outcome reports the end of a fetch.
type Outcome struct {
	Status Status
	// FetchDuration is how long the fetch took; it is kept as the queue's
	// last fetch duration for politeness.
	FetchDuration time.Duration
	// SnoozeUntil is the earliest time the queue may be served again (the
	// politeness delay the crawler computed, e.g. with Politeness.Wait).
	SnoozeUntil time.Time
	// RetryAt, for RetryLater, is when to try again (retry delay or
	// Retry-After); the whole queue waits, as in Heritrix.
	RetryAt time.Time
	// RetryURLAt, for RetryLater, makes only the URL wait: it joins its
	// queue's waiting URLs until then (a retriable error of one URL on a
	// host that otherwise answers), while the queue goes on with its
	// other URLs. A queue serves its waiting URLs once it has no URL left
	// to visit.
	RetryURLAt time.Time

	// Incremental crawls (Options.Incremental). Due, for Succeeded, is the
	// time of the URL's next visit: the URL waits in its queue until then
	// instead of being done (zero: done). History, when not nil, replaces
	// what the frontier keeps for the URL and hands back with its next
	// Claim. QueueData, when not nil, replaces the queue's data
	// ([Frontier.QueueData]). Both are written in the completion's batch.
	Due       time.Time
	History   []byte
	QueueData []byte
}

// ErrNotInFlight is returned by Complete for a URL that is not claimed.
var ErrNotInFlight = errors.New("frontier: URL not in flight")

// Complete ends the fetch of a claimed URL: it is done (Succeeded, Failed,
// Disregarded) or goes back to its place in its queue (RetryLater), and
// the queue is snoozed as the outcome says. The crawler's output for the
// URL must be written before. Unless Options.NoSyncCompletions, Complete
// returns once the completion is on disk; concurrent completions share
// one fsync.
func (f *Frontier) Complete(url string, o Outcome) error {
	if o.Status < Succeeded || o.Status > Disregarded {
		return fmt.Errorf("frontier: complete %q: unknown status %d", url, o.Status)
	}
	if !f.opts.Incremental && (!o.Due.IsZero() || o.History != nil || o.QueueData != nil) {
		return fmt.Errorf("frontier: complete %q: a due time, history or queue data needs Options.Incremental", url)
	}
	f.mu.Lock()
	b, err := f.complete(url, o)
	f.mu.Unlock()
	if b == nil || err != nil {
		return err
	}
	// Wait for the fsync outside the lock, so that other calls go on and
	// concurrent completions are synced together.
	err = b.SyncWait()
	b.Close()
	if err != nil {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.fail(err)
	}
	return nil
}

// complete applies a completion; the returned batch, if any, is awaiting
// its fsync.
func (f *Frontier) complete(url string, o Outcome) (*pebble.Batch, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	h := hashURL(url)
	rec, err := f.getRecord(h)
	if err != nil {
		return nil, err
	}
	if rec == nil || (rec.state != stateInFlight && rec.state != stateBlacklistedInFlight) {
		return nil, fmt.Errorf("%w: %q", ErrNotInFlight, url)
	}
	q := f.queues[rec.qid]
	b := f.db.NewBatch()
	b.Delete(inFlightKey(h), nil)
	t := &f.meta.totals
	t.InFlight--
	switch {
	case rec.state == stateBlacklistedInFlight:
		rec.state = stateBlacklisted
	case o.Status == RetryLater && !o.RetryURLAt.IsZero():
		rec.state = stateWaiting
		rec.retries++
		f.wait(b, q, rec, o.RetryURLAt.UnixNano())
	case o.Status == RetryLater:
		rec.state = stateQueued
		rec.retries++
		b.Set(rec.item(), nil, nil)
		f.mayHold(q, rec.pos())
		q.size++
		t.Queued++
	case o.Status == Succeeded && !o.Due.IsZero():
		rec.state = stateWaiting
		t.Succeeded++
		f.wait(b, q, rec, o.Due.UnixNano())
	case o.Status == Succeeded:
		rec.state = stateSucceeded
		t.Succeeded++
	case o.Status == Failed:
		rec.state = stateFailed
		t.Failed++
	default:
		rec.state = stateDisregarded
		t.Disregarded++
	}
	if rec.state != stateQueued && rec.state != stateWaiting {
		b.Delete(rec.data(), nil)
		if !f.opts.Incremental && rec.retries > 0 {
			b.Delete(historyKey(h), nil) // written while it waited for a retry
		}
	}
	if err := f.keepHistory(b, h, q, rec, o); err != nil {
		return nil, err
	}
	f.setRecord(b, &h, rec)
	q.inFlight--
	q.lastFetch = int64(o.FetchDuration)
	q.snoozeUntil = max(q.snoozeUntil, unixNano(o.SnoozeUntil), unixNano(o.RetryAt))
	f.place(q, f.clock.Now().UnixNano())
	// Links scheduled before the completion become durable with it.
	if err := f.logPending(b); err != nil {
		return nil, f.fail(err)
	}
	if f.opts.NoSyncCompletions {
		return nil, f.commit(b, []*queue{q}, pebble.NoSync)
	}
	if err := f.finish(b, []*queue{q}); err != nil {
		return nil, err
	}
	if err := f.db.ApplyNoSyncWait(b, pebble.Sync); err != nil {
		return nil, f.fail(err)
	}
	return b, nil
}

// unixNano is t in Unix nanoseconds, 0 for the zero time.
func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// requeueInFlight puts the URLs claimed before the last close or crash back
// at their places in their queues.
func (f *Frontier) requeueInFlight() error {
	var claimed []urlHash
	err := f.scan([]byte{prefixInFlight}, func(k, _ []byte) error {
		var h urlHash
		if len(k) != 1+len(h) {
			return fmt.Errorf("frontier: corrupt in-flight key %x", k)
		}
		copy(h[:], k[1:])
		claimed = append(claimed, h)
		return nil
	})
	if err != nil || len(claimed) == 0 {
		return err
	}
	b := f.db.NewBatch()
	t := f.newTouchSet(nil)
	for _, h := range claimed {
		rec, err := f.getRecord(h)
		if err != nil {
			return err
		}
		if rec == nil || int(rec.qid) >= len(f.queues) {
			return fmt.Errorf("frontier: in-flight URL %x has no valid record", h)
		}
		q := f.queues[rec.qid]
		b.Delete(inFlightKey(h), nil)
		q.inFlight--
		f.meta.totals.InFlight--
		if rec.state == stateBlacklistedInFlight {
			rec.state = stateBlacklisted
			b.Delete(rec.data(), nil)
		} else {
			rec.state = stateQueued
			b.Set(rec.item(), nil, nil)
			f.mayHold(q, rec.pos())
			q.size++
			f.meta.totals.Queued++
		}
		f.setRecord(b, &h, rec)
		t.add(q)
	}
	// Place queues in creation order, not in the hash order of the scan.
	slices.SortFunc(t.list, func(x, y *queue) int { return cmp.Compare(x.id, y.id) })
	return f.commitTouched(b, &t, pebble.Sync)
}
