package frontier

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/cockroachdb/pebble/v2"

	"github.com/mneme-archive/mneme/graph"
)

// Queued is a URL waiting in a queue, as Top lists it.
type Queued struct {
	URL      string
	QueueKey string
	Hops     string
	Via      string
	Score    float64
	Retries  int // set by Release only
}

// Top returns up to limit queued URLs with the highest scores across all
// queues, best first (ties in queue and insertion order). URLs scheduled
// but still awaiting the seen-set pass are not listed. Each queue's
// entries are read in score order and only while they can still beat the
// worst of the best found so far, so the cost is about limit entries per
// queue at most.
func (f *Frontier) Top(limit int) ([]Queued, error) {
	if limit <= 0 {
		return nil, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check(); err != nil {
		return nil, err
	}
	lower := []byte{prefixItem}
	it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: graph.PrefixEnd(lower)})
	if err != nil {
		return nil, err
	}
	type found struct {
		qid   uint32
		score float64
		seq   uint64
	}
	var best []found // sorted best first, at most limit long
	better := func(a, b found) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := cmp.Compare(a.qid, b.qid); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	}
	for _, q := range f.queues {
		if q.size == 0 {
			continue
		}
		prefix := itemPrefix(q.id)
		for ok := it.SeekGE(prefix); ok; ok = it.Next() {
			k := it.Key()
			if len(k) != len(prefix)+16 || string(k[:len(prefix)]) != string(prefix) {
				break
			}
			e := found{qid: q.id, score: scoreOf(binary.BigEndian.Uint64(k[len(prefix):])), seq: binary.BigEndian.Uint64(k[len(prefix)+8:])}
			if len(best) == limit && better(e, best[limit-1]) >= 0 {
				break // the rest of this queue scores lower still
			}
			i, _ := slices.BinarySearchFunc(best, e, better)
			best = slices.Insert(best, i, e)
			if len(best) > limit {
				best = best[:limit]
			}
		}
	}
	if err := it.Error(); err != nil {
		it.Close()
		return nil, err
	}
	if err := it.Close(); err != nil {
		return nil, err
	}
	out := make([]Queued, 0, len(best))
	for _, b := range best {
		v, err := f.get(dataKey(b.seq))
		if err != nil {
			return nil, fmt.Errorf("frontier: entry %d of queue %q: %w", b.seq, f.queues[b.qid].key, err)
		}
		e, err := decodeEntry(v)
		if err != nil {
			return nil, err
		}
		out = append(out, Queued{URL: e.url, QueueKey: f.queues[b.qid].key, Hops: e.hops, Via: e.via, Score: b.score})
	}
	return out, nil
}

// scoreOf inverts the ^orderedFloat(score) of an entry key.
func scoreOf(key uint64) float64 {
	u := ^key
	if u>>63 == 1 {
		return math.Float64frombits(u &^ (1 << 63))
	}
	return math.Float64frombits(^u)
}
