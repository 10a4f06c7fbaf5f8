package frontier

import (
	"encoding/binary"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// Release takes up to max queued URLs (max ≤ 0: all) out of the queue of
// key, best first, for another frontier to schedule: a crawler node hands
// the queues of the domains it no longer owns to their new owner. It
// passes them to send, and only when send returns nil forgets them, in
// one synced batch, so a crash loses none (it may leave them both here
// and there). A released URL is remembered as such, not as seen: when it
// is scheduled here again (its domain came back) it is queued as a new
// URL. URLs in flight or waiting for a revisit stay. It returns how many
// URLs it released.
func (f *Frontier) Release(key string, max int, send func([]Queued) error) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.checkAndFlush(); err != nil {
		return 0, err
	}
	q, ok := f.byKey[key]
	if !ok || q.size == 0 {
		return 0, nil
	}
	prefix := itemPrefix(q.id)
	it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: itemPrefix(q.id + 1)})
	if err != nil {
		return 0, err
	}
	type pos struct {
		score float64
		seq   uint64
		key   []byte
	}
	var found []pos
	for ok := it.First(); ok && (max <= 0 || len(found) < max); ok = it.Next() {
		k := it.Key()
		if len(k) != len(prefix)+16 {
			it.Close()
			return 0, fmt.Errorf("frontier: corrupt queue entry key %x", k)
		}
		found = append(found, pos{
			score: scoreOf(binary.BigEndian.Uint64(k[len(prefix):])),
			seq:   binary.BigEndian.Uint64(k[len(prefix)+8:]),
			key:   append([]byte(nil), k...),
		})
	}
	if err := it.Error(); err != nil {
		it.Close()
		return 0, err
	}
	if err := it.Close(); err != nil {
		return 0, err
	}
	out := make([]Queued, 0, len(found))
	urls := make([]string, 0, len(found))
	for _, p := range found {
		v, err := f.get(dataKey(p.seq))
		if err != nil {
			return 0, err
		}
		e, err := decodeEntry(v)
		if err != nil {
			return 0, fmt.Errorf("frontier: entry %d of queue %q: %w", p.seq, key, err)
		}
		out = append(out, Queued{URL: e.url, QueueKey: key, Hops: e.hops, Via: e.via, Score: p.score})
		urls = append(urls, e.url)
	}
	recs, err := f.readRecords(urls)
	if err != nil {
		return 0, err
	}
	b := f.db.NewBatch()
	defer b.Close()
	for i, p := range found {
		rec := recs[hashURL(urls[i])]
		if rec == nil || rec.state != stateQueued || rec.qid != q.id {
			return 0, fmt.Errorf("frontier: queue %q holds %s, whose record says otherwise", key, urls[i])
		}
		out[i].Retries = int(rec.retries)
		rec.state = stateMoved
		b.Delete(p.key, nil)
		b.Delete(dataKey(p.seq), nil)
	}
	f.writeRecords(b, recs)
	if err := send(out); err != nil {
		return 0, err
	}
	q.size -= int64(len(found))
	f.meta.totals.Queued -= int64(len(found))
	f.dropAhead(q)
	q.headSet = false
	t := f.newTouchSet(nil)
	t.add(q)
	if err := f.commitTouched(b, &t, pebble.Sync); err != nil {
		return 0, err
	}
	return len(out), nil
}
