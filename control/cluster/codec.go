package cluster

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mneme-archive/mneme/crawler/frontier"
)

// A forwarded batch is a message of the forwarding stream: a version byte,
// the number of URLs (uint32, big-endian), then per URL its queue key,
// URL, hop path, via (length-prefixed), score (IEEE 754 bits) and retries
// (uvarint). Links of one page share their queue key and via, so each is
// written as "same as the previous one" (a flag) when it is. Version 1
// wrote the count as a uvarint; it is still read.
const batchVersion = 2

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

// batchWriter encodes a batch one URL at a time, so that a batch being
// filled is already its message.
type batchWriter struct {
	buf      []byte
	n        int
	key, via string
}

func (w *batchWriter) add(u URL) {
	if w.n == 0 {
		w.buf = append(w.buf[:0], batchVersion, 0, 0, 0, 0)
	}
	var flags byte
	if w.n > 0 && u.QueueKey == w.key {
		flags |= flagSameKey
	}
	if w.n > 0 && u.Via == w.via {
		flags |= flagSameVia
	}
	buf := append(w.buf, flags)
	if flags&flagSameKey == 0 {
		buf = appendString(buf, u.QueueKey)
	}
	if flags&flagSameVia == 0 {
		buf = appendString(buf, u.Via)
	}
	buf = appendString(buf, u.URL)
	buf = appendString(buf, u.Hops)
	buf = binary.BigEndian.AppendUint64(buf, math.Float64bits(u.Score))
	w.buf = binary.AppendUvarint(buf, uint64(u.Retries))
	w.key, w.via = u.QueueKey, u.Via
	w.n++
}

// bytes is the encoded batch.
func (w *batchWriter) bytes() []byte {
	binary.BigEndian.PutUint32(w.buf[1:5], uint32(w.n))
	return w.buf
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

var errCorrupt = errors.New("cluster: corrupt URL batch")

// batchLen is the number of URLs a batch says it holds (0 if it says
// nothing readable): decodeBatch checks it.
func batchLen(b []byte) int {
	switch {
	case len(b) >= 5 && b[0] == batchVersion:
		return int(binary.BigEndian.Uint32(b[1:5]))
	case len(b) >= 2 && b[0] == 1:
		n, _ := binary.Uvarint(b[1:])
		return int(min(n, uint64(len(b))))
	}
	return 0
}

// decodeBatch appends the URLs of a batch to dst. Their strings share
// one copy of b, except the queue keys, which the frontier keeps.
func decodeBatch(dst []URL, b []byte) ([]URL, error) {
	if len(b) == 0 || b[0] != batchVersion && b[0] != 1 {
		return dst, fmt.Errorf("%w: unknown version", errCorrupt)
	}
	var n uint64
	if b[0] == 1 {
		v, k := binary.Uvarint(b[1:])
		if k <= 0 {
			return dst, errCorrupt
		}
		n, b = v, b[1+k:]
	} else {
		if len(b) < 5 {
			return dst, errCorrupt
		}
		n, b = uint64(binary.BigEndian.Uint32(b[1:5])), b[5:]
	}
	if n > uint64(len(b)) {
		return dst, errCorrupt
	}
	dst = slices.Grow(dst, int(n))
	all := string(b) // one allocation for every string of the batch
	p := 0
	str := func() (string, bool) {
		l, k := binary.Uvarint(b[p:])
		if k <= 0 || uint64(len(b)-p-k) < l {
			return "", false
		}
		s := all[p+k : p+k+int(l)]
		p += k + int(l)
		return s, true
	}
	start := len(dst)
	var key, via string
	for range n {
		if p >= len(b) {
			return dst[:start], errCorrupt
		}
		flags := b[p]
		p++
		var u URL
		ok := true
		if flags&flagSameKey != 0 {
			u.QueueKey = key
		} else if u.QueueKey, ok = str(); !ok {
			return dst[:start], errCorrupt
		} else {
			// The frontier keeps a queue's key for as long as it runs: it
			// must not hold the whole batch with it.
			u.QueueKey = strings.Clone(u.QueueKey)
		}
		if flags&flagSameVia != 0 {
			u.Via = via
		} else if u.Via, ok = str(); !ok {
			return dst[:start], errCorrupt
		}
		if u.URL, ok = str(); !ok {
			return dst[:start], errCorrupt
		}
		if u.Hops, ok = str(); !ok {
			return dst[:start], errCorrupt
		}
		if len(b)-p < 8 {
			return dst[:start], errCorrupt
		}
		u.Score = math.Float64frombits(binary.BigEndian.Uint64(b[p:]))
		p += 8
		r, k := binary.Uvarint(b[p:])
		if k <= 0 {
			return dst[:start], errCorrupt
		}
		u.Retries = int(r)
		p += k
		key, via = u.QueueKey, u.Via
		dst = append(dst, u)
	}
	if p != len(b) {
		return dst[:start], fmt.Errorf("%w: %d bytes after the last URL", errCorrupt, len(b)-p)
	}
	return dst, nil
}
