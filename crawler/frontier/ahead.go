package frontier

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/cockroachdb/pebble/v2"

	"github.com/mneme-archive/mneme/graph"
)

// Read-ahead bounds: how many positions one read of a queue keeps, and how
// many all queues keep together, so that the cache stays small with many
// queues.
const (
	aheadRead    = 64
	maxAheadHeld = 1 << 15
)

// aheadEntry is a position read ahead in a queue with its entry (the
// encoded URL, hops and via), which never changes while the URL stays
// queued at that position.
type aheadEntry struct {
	pos  itemPos
	data []byte
}

// errStale marks an entry whose URL is no longer queued there: an error
// for an entry just read, a position to forget for one read ahead.
var errStale = errors.New("frontier: stale entry")

// nextItem returns the first queued entry of q (q.size > 0) with its URL
// and record. Opening an iterator, or a point read, costs more than the
// claim's other work, so one read keeps the positions and entries of the
// next URLs (q.ahead) and the following claims take them. A position read
// ahead is checked against its URL's record, which the claim reads anyway:
// an entry claimed, rescored or blacklisted since then fails the check, and
// the queue is read again. Entries written since sort after the positions
// kept, or mayHold dropped them.
func (f *Frontier) nextItem(q *queue) (itemPos, entry, urlHash, *urlRecord, error) {
	for {
		cached := len(q.ahead) > 0
		if !cached {
			if err := f.readAhead(q); err != nil {
				return itemPos{}, entry{}, urlHash{}, nil, err
			}
		}
		p, v := q.ahead[0].pos, q.ahead[0].data
		q.ahead = q.ahead[1:]
		f.aheadHeld--
		e, h, rec, err := f.headEntry(q, p.appendKey(nil), p.seq, v, stateQueued)
		if err == nil && (!cached || rec.pos() == p) {
			return p, e, h, rec, nil
		}
		if !cached || !errors.Is(err, errStale) && err != nil {
			return itemPos{}, entry{}, urlHash{}, nil, err
		}
		f.dropAhead(q)
	}
}

// readAhead reads the positions of q's first entries from its head hint on
// into q.ahead.
func (f *Frontier) readAhead(q *queue) error {
	prefix := itemPrefix(q.id)
	from := prefix
	if q.headSet {
		from = q.head.appendKey(nil)
	}
	n := int(min(aheadRead, q.size, int64(max(maxAheadHeld-f.aheadHeld, 1))))
	it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: from, UpperBound: graph.PrefixEnd(prefix)})
	if err != nil {
		return err
	}
	q.ahead = q.ahead[:0]
	for ok := it.First(); ok && len(q.ahead) < n; ok = it.Next() {
		k := it.Key()
		if len(k) != len(prefix)+16 {
			err = fmt.Errorf("frontier: corrupt key %x in queue %q", k, q.key)
			break
		}
		pos := itemPos{q.id, binary.BigEndian.Uint64(k[len(prefix):]), binary.BigEndian.Uint64(k[len(prefix)+8:])}
		q.ahead = append(q.ahead, aheadEntry{pos: pos})
	}
	if err == nil && len(q.ahead) > 1 {
		err = f.readEntries(q.ahead)
	}
	if err := errors.Join(err, it.Error(), it.Close()); err != nil {
		q.ahead = q.ahead[:0]
		return err
	}
	if len(q.ahead) == 0 {
		return fmt.Errorf("frontier: queue %q has %d URLs but no entries", q.key, q.size)
	}
	f.aheadHeld += len(q.ahead)
	return nil
}

// readEntries reads the entries of the positions in as with one iterator,
// seeking their keys in ascending order (a seek near the last is almost a
// step). An entry not found is left nil: the claim then reads it, and
// reports it missing.
func (f *Frontier) readEntries(as []aheadEntry) error {
	seqs := make([]uint64, len(as))
	for i := range as {
		seqs[i] = as[i].pos.seq
	}
	slices.Sort(seqs)
	it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: dataKey(seqs[0]), UpperBound: dataKey(seqs[len(seqs)-1] + 1)})
	if err != nil {
		return err
	}
	found := make(map[uint64][]byte, len(seqs))
	var buf, key []byte
	for _, seq := range seqs {
		key = binary.BigEndian.AppendUint64(append(key[:0], prefixData), seq)
		if it.SeekGE(key) && bytes.Equal(it.Key(), key) {
			v := it.Value()
			buf = append(buf, v...)
			found[seq] = buf[len(buf)-len(v) : len(buf) : len(buf)]
		}
	}
	for i := range as {
		as[i].data = found[as[i].pos.seq]
	}
	return errors.Join(it.Error(), it.Close())
}
