package frontier

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// Rescore is a score update for a URL, as sent by the injection service.
type Rescore struct {
	URL    string
	Score  float64
	Update UpdateFunc
}

// UpdatePriority changes the scores of queued URLs; URLs not queued (unseen,
// in flight, done, blacklisted) are left alone. Pending candidates are
// applied first, so updates see every URL scheduled before. The updates are
// one atomic batch.
func (f *Frontier) UpdatePriority(updates []Rescore) error {
	for i, u := range updates {
		c := Candidate{URL: u.URL, QueueKey: "-", Score: u.Score, Update: u.Update}
		if err := c.validate(); err != nil {
			return fmt.Errorf("frontier: update %d (%q): %w", i, u.URL, err)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.checkAndFlush(); err != nil {
		return err
	}
	urls := make([]string, len(updates))
	for i, u := range updates {
		urls[i] = u.URL
	}
	recs, err := f.readRecords(urls)
	if err != nil {
		return err
	}
	old := map[urlHash][]byte{}
	for h, rec := range recs {
		if rec != nil {
			old[h] = rec.item()
		}
	}
	for _, u := range updates {
		if rec := recs[hashURL(u.URL)]; rec != nil {
			rec.rescore(u.Update, u.Score)
		}
	}
	b := f.db.NewBatch()
	for h, rec := range recs {
		if rec != nil && rec.state == stateQueued {
			f.moveItem(b, f.queues[rec.qid], old[h], rec)
		}
	}
	f.writeRecords(b, recs)
	return f.commit(b, nil, pebble.NoSync)
}

// Blacklist marks URLs as never to be fetched: queued ones leave their
// queue, unseen ones are remembered so that later schedules ignore them, and
// in-flight ones are not requeued when completed or after a crash. The call
// is one atomic batch.
func (f *Frontier) Blacklist(urls []string) error {
	for i, u := range urls {
		if u == "" {
			return fmt.Errorf("frontier: blacklist entry %d: empty URL", i)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.checkAndFlush(); err != nil {
		return err
	}
	recs, err := f.readRecords(urls)
	if err != nil {
		return err
	}
	b := f.db.NewIndexedBatch() // read by unwait
	t := f.newTouchSet(nil)
	for _, u := range urls {
		h := hashURL(u)
		rec := recs[h]
		if rec == nil {
			rec = &urlRecord{state: stateBlacklisted}
			recs[h] = rec
			f.meta.totals.Blacklisted++
			continue
		}
		switch rec.state {
		case stateQueued:
			b.Delete(rec.item(), nil)
			b.Delete(rec.data(), nil)
			q := f.queues[rec.qid]
			q.size--
			t.add(q)
			f.meta.totals.Queued--
			rec.state = stateBlacklisted
		case stateWaiting:
			q := f.queues[rec.qid]
			if err := f.unwait(b, q, h, rec); err != nil {
				b.Close()
				return err
			}
			b.Delete(rec.data(), nil)
			t.add(q)
			rec.state = stateBlacklisted
		case stateInFlight:
			rec.state = stateBlacklistedInFlight
		case stateSucceeded, stateFailed, stateDisregarded:
			rec.state = stateBlacklisted
		default:
			continue // already blacklisted
		}
		f.meta.totals.Blacklisted++
	}
	f.writeRecords(b, recs)
	return f.commitTouched(b, &t, pebble.NoSync)
}

// checkAndFlush applies pending candidates first, so that an operation on
// URLs sees every URL scheduled before it.
func (f *Frontier) checkAndFlush() error {
	if err := f.check(); err != nil {
		return err
	}
	return f.flushLocked()
}

// readRecords reads the URL records of urls; unseen URLs map to nil. The
// same pointer is shared by repeated URLs, so changes accumulate.
func (f *Frontier) readRecords(urls []string) (map[urlHash]*urlRecord, error) {
	recs := make(map[urlHash]*urlRecord, len(urls))
	hashes := make([]urlHash, 0, len(urls))
	for _, u := range urls {
		h := hashURL(u)
		if _, ok := recs[h]; !ok {
			recs[h] = nil
			hashes = append(hashes, h)
		}
	}
	// In hash order, so that the reader steps forward through the runs.
	slices.SortFunc(hashes, func(x, y urlHash) int { return bytes.Compare(x[:], y[:]) })
	r, err := f.newRecordReader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	for i := range hashes {
		if rec, ok := f.records.get(&hashes[i]); ok {
			recs[hashes[i]] = &rec
			continue
		}
		rec, ok, err := r.find(&hashes[i])
		if err != nil {
			return nil, err
		}
		if ok {
			recs[hashes[i]] = &rec
		}
	}
	return recs, nil
}

func (f *Frontier) writeRecords(b *pebble.Batch, recs map[urlHash]*urlRecord) {
	for h, rec := range recs {
		if rec != nil {
			f.setRecord(b, &h, rec)
		}
	}
}
