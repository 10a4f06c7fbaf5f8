package cluster

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/mneme-archive/mneme/crawler/frontier"
)

// A forwarded batch is a message of the forwarding stream: a version byte,
// then per URL its queue key, URL, hop path, via (length-prefixed), score
// (IEEE 754 bits) and retries (uvarint). Links of one page share their
// queue key and via, so each is written as "same as the previous one"
// (length 0 and a flag) when it is.
const batchVersion = 1

// URL is a URL on its way between nodes, with its frontier state.
type URL struct {
	URL      string
	QueueKey string
	Hops     string
	Via      string
	Score    float64
	Retries  int
}

func fromCandidate(c frontier.Candidate) URL {
	return URL{URL: c.URL, QueueKey: c.QueueKey, Hops: c.Hops, Via: c.Via, Score: c.Score}
}

func fromQueued(q frontier.Queued) URL {
	return URL{URL: q.URL, QueueKey: q.QueueKey, Hops: q.Hops, Via: q.Via, Score: q.Score, Retries: q.Retries}
}

func (u URL) candidate() frontier.Candidate {
	return frontier.Candidate{URL: u.URL, QueueKey: u.QueueKey, Hops: u.Hops, Via: u.Via, Score: u.Score}
}

const (
	flagSameKey = 1 << iota
	flagSameVia
)

func appendBatch(buf []byte, us []URL) []byte {
	buf = append(buf, batchVersion)
	buf = binary.AppendUvarint(buf, uint64(len(us)))
	var key, via string
	for i, u := range us {
		var flags byte
		if i > 0 && u.QueueKey == key {
			flags |= flagSameKey
		}
		if i > 0 && u.Via == via {
			flags |= flagSameVia
		}
		buf = append(buf, flags)
		if flags&flagSameKey == 0 {
			buf = appendString(buf, u.QueueKey)
		}
		if flags&flagSameVia == 0 {
			buf = appendString(buf, u.Via)
		}
		buf = appendString(buf, u.URL)
		buf = appendString(buf, u.Hops)
		buf = binary.BigEndian.AppendUint64(buf, math.Float64bits(u.Score))
		buf = binary.AppendUvarint(buf, uint64(u.Retries))
		key, via = u.QueueKey, u.Via
	}
	return buf
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

var errCorrupt = errors.New("cluster: corrupt URL batch")

func decodeBatch(b []byte) ([]URL, error) {
	if len(b) == 0 || b[0] != batchVersion {
		return nil, fmt.Errorf("%w: unknown version", errCorrupt)
	}
	b = b[1:]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, errCorrupt
	}
	b = b[k:]
	out := make([]URL, 0, n)
	var key, via string
	str := func() (string, bool) {
		l, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < l {
			return "", false
		}
		s := string(b[k : k+int(l)])
		b = b[k+int(l):]
		return s, true
	}
	for range n {
		if len(b) == 0 {
			return nil, errCorrupt
		}
		flags := b[0]
		b = b[1:]
		var u URL
		ok := true
		if flags&flagSameKey != 0 {
			u.QueueKey = key
		} else if u.QueueKey, ok = str(); !ok {
			return nil, errCorrupt
		}
		if flags&flagSameVia != 0 {
			u.Via = via
		} else if u.Via, ok = str(); !ok {
			return nil, errCorrupt
		}
		if u.URL, ok = str(); !ok {
			return nil, errCorrupt
		}
		if u.Hops, ok = str(); !ok {
			return nil, errCorrupt
		}
		if len(b) < 8 {
			return nil, errCorrupt
		}
		u.Score = math.Float64frombits(binary.BigEndian.Uint64(b))
		b = b[8:]
		r, k := binary.Uvarint(b)
		if k <= 0 {
			return nil, errCorrupt
		}
		u.Retries = int(r)
		b = b[k:]
		key, via = u.QueueKey, u.Via
		out = append(out, u)
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the last URL", errCorrupt, len(b))
	}
	return out, nil
}
