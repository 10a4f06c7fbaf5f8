package frontier

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// Queue records are not rewritten one Pebble key each time they change: a
// seen pass touches tens of thousands of queues, and a key per queue made
// the memtable inserts, flushes and compactions of queue records about a
// quarter of the cost of scheduling. Each batch instead appends the
// records of the queues it changed to the queue journal as one value
// (J n(8) → qid, record, qid, record…; a record leaves out the queue key,
// the bulk of it, once the queue has a key of its own). Once the journal outgrows the
// queue table a few times over, the batch that finds it so writes every
// queue changed since the last checkpoint to its own key (Q qid) and
// deletes the journal. Open reads the queue keys, then replays the journal
// in order.

// journalFactor bounds the journal to a few times the size of the queue
// table: replaying it at Open stays cheap, and a checkpoint, which
// rewrites at most every queue once, comes after that many queue records
// were journaled.
const (
	journalFactor   = 4
	queueRecordSize = 64 // about the encoded size of a queue record
	journalMin      = 4 << 20
)

func journalKey(n uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{prefixJournal}, n)
}

// queueJournal is the journal's state in memory.
type queueJournal struct {
	next  uint64   // number of the next journal record
	bytes int      // size of the journal on disk
	dirty []*queue // queues journaled since the last checkpoint
	buf   []byte
}

// writeQueues adds the records of qs to b: as a journal record, or, when
// the journal is full, as a checkpoint of every queue it holds.
func (f *Frontier) writeQueues(b *pebble.Batch, qs []*queue) error {
	if len(qs) == 0 {
		return nil
	}
	j := &f.journal
	buf := j.buf[:0]
	var rec []byte
	for _, q := range qs {
		if !q.dirty {
			q.dirty = true
			j.dirty = append(j.dirty, q)
		}
		buf = binary.AppendUvarint(buf, uint64(q.id))
		key := q.key
		if q.saved {
			key = ""
		}
		rec = q.encodeAs(rec[:0], key)
		buf = append(binary.AppendUvarint(buf, uint64(len(rec))), rec...)
	}
	j.buf = buf
	limit := f.opts.journalLimit
	if limit <= 0 {
		limit = max(journalMin, journalFactor*queueRecordSize*len(f.queues))
	}
	if j.bytes+len(buf) <= limit {
		j.bytes += len(buf)
		if err := b.Set(journalKey(j.next), buf, nil); err != nil {
			return err
		}
		j.next++
		return nil
	}
	return f.checkpointQueues(b)
}

// checkpointQueues writes every queue journaled since the last checkpoint
// to its own key and deletes the journal, in b.
func (f *Frontier) checkpointQueues(b *pebble.Batch) error {
	j := &f.journal
	// In key order: the memtable inserts them fastest so.
	sortQueues(j.dirty)
	var buf []byte
	for _, q := range j.dirty {
		buf = q.encode(buf[:0])
		if err := b.Set(queueKey(q.id), buf, nil); err != nil {
			return err
		}
		q.dirty, q.saved = false, true
	}
	if err := b.DeleteRange([]byte{prefixJournal}, []byte{prefixJournal + 1}, nil); err != nil {
		return err
	}
	clear(j.dirty)
	j.dirty, j.bytes = j.dirty[:0], 0
	return nil
}

// replayJournal applies the journal to the queues read from their keys.
// Journaled queues stay dirty: the next checkpoint writes them.
func (f *Frontier) replayJournal() error {
	return f.scan([]byte{prefixJournal}, func(k, v []byte) error {
		if len(k) != 9 {
			return fmt.Errorf("frontier: corrupt journal key %x", k)
		}
		d := decoder{b: v}
		for len(d.b) > 0 && d.err == nil {
			qid := d.uvarint()
			raw := d.string()
			if d.err != nil {
				break
			}
			rec, err := decodeQueueRecord([]byte(raw))
			if err != nil {
				return err
			}
			if qid >= uint64(f.meta.nextQID) {
				return fmt.Errorf("frontier: journaled queue id %d beyond counter %d", qid, f.meta.nextQID)
			}
			q := f.queues[qid]
			switch {
			case q == nil && rec.key == "":
				return fmt.Errorf("frontier: journaled queue %d has neither a key nor a record", qid)
			case q == nil:
				q = &queue{id: uint32(qid), heapIdx: -1}
				f.queues[qid] = q
				f.byKey[rec.key] = q
			case rec.key == "":
				rec.key = q.key
			case q.key != rec.key:
				return fmt.Errorf("frontier: journaled queue %d has key %q, not %q", qid, rec.key, q.key)
			}
			q.queueRecord = rec
			if !q.dirty {
				q.dirty = true
				f.journal.dirty = append(f.journal.dirty, q)
			}
		}
		if err := d.done("queue journal record"); err != nil {
			return err
		}
		f.journal.next = binary.BigEndian.Uint64(k[1:]) + 1
		f.journal.bytes += len(v)
		return nil
	})
}

// sortQueues sorts queues by id.
func sortQueues(qs []*queue) {
	slices.SortFunc(qs, func(x, y *queue) int { return cmp.Compare(x.id, y.id) })
}
