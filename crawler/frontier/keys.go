package frontier

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"unsafe"
)

// Key space of the Pebble database. One byte of prefix per kind of record;
// integers are big-endian so that byte order is numeric order. The bulky
// part of a queued URL (the entry) is keyed by insertion counter, so that
// new entries append at the end of their key range and compactions mostly
// move their tables instead of rewriting them; only the small queue and
// URL-index keys land at random places.
const (
	prefixMeta     = 'm' // m → meta record (counters, totals)
	prefixQueue    = 'Q' // Q qid(4) → queue record, as of the last checkpoint of the journal
	prefixJournal  = 'J' // J n(8) → queue records changed by one batch (journal.go)
	prefixItem     = 'q' // q qid(4) ^score(8) seq(8) → nothing: a queued URL
	prefixData     = 'd' // d seq(8) → entry: a queued or in-flight URL itself
	prefixURL      = 'u' // u hash(16) → URL record changed since its run was written (the overlay)
	prefixRun      = 'S' // S run(4) kind(1) hash(16) → a page of the seen-set's sorted runs (runs.go)
	prefixInFlight = 'f' // f hash(16) → nothing: URLs claimed and not completed
	prefixPending  = 'p' // p n(8) → candidates of one Schedule call awaiting the seen check
	prefixDue      = 'r' // r qid(4) due(8) seq(8) → nothing: a visited URL waiting for its revisit
	prefixHistory  = 'v' // v hash(16) → due(8) + the crawler's history of a visited URL
	prefixQueueAux = 'P' // P qid(4) → the crawler's data for a queue (revisit statistics)
)

type urlHash [16]byte

func hashURL(url string) urlHash {
	// Sum256 only reads its input: hash the string's bytes in place rather
	// than copying every scheduled URL first.
	sum := sha256.Sum256(unsafe.Slice(unsafe.StringData(url), len(url)))
	var h urlHash
	copy(h[:], sum[:16])
	return h
}

func metaKey() []byte { return []byte{prefixMeta} }

func queueKey(qid uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{prefixQueue}, qid)
}

func dataKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{prefixData}, seq)
}

func urlKey(h urlHash) []byte { return append([]byte{prefixURL}, h[:]...) }

func inFlightKey(h urlHash) []byte { return append([]byte{prefixInFlight}, h[:]...) }

func pendingKey(n uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{prefixPending}, n)
}

// itemPrefix is the common prefix of all entries of one queue.
func itemPrefix(qid uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{prefixItem}, qid)
}

// itemKey orders a queue's entries by descending score, then by insertion
// counter.
func itemKey(qid uint32, score float64, seq uint64) []byte {
	k := itemPrefix(qid)
	k = binary.BigEndian.AppendUint64(k, ^orderedFloat(score))
	return binary.BigEndian.AppendUint64(k, seq)
}

// orderedFloat maps a finite float64 to a uint64 with the same order.
func orderedFloat(f float64) uint64 {
	if f == 0 {
		f = 0 // -0 and +0 are the same score
	}
	b := math.Float64bits(f)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// urlState is where a URL is in its life.
type urlState uint8

const (
	stateQueued urlState = iota + 1
	stateInFlight
	stateSucceeded
	stateFailed
	stateDisregarded
	stateBlacklisted
	stateBlacklistedInFlight // blacklisted while in flight: never requeued
	stateWaiting             // visited, waiting in its queue for its due time (incremental crawls)
	stateMoved               // handed to another frontier (Release): a later sighting queues it again
)

func (s urlState) valid() bool { return s >= stateQueued && s <= stateMoved }

// urlRecord is the value under urlKey. It is kept small (about 30 bytes)
// because the seen-set pass reads it for every rediscovered URL; the URL
// itself lives in the data entry while it is queued or in flight.
type urlRecord struct {
	state   urlState
	qid     uint32
	score   float64
	count   uint64 // score contributions, for AVG
	seq     uint64 // insertion counter: the tie-break inside a queue
	retries uint64
}

func (r *urlRecord) item() []byte { return itemKey(r.qid, r.score, r.seq) }

func (r *urlRecord) data() []byte { return dataKey(r.seq) }

func (r *urlRecord) encode(buf []byte) []byte {
	buf = append(buf, byte(r.state))
	buf = binary.AppendUvarint(buf, uint64(r.qid))
	buf = binary.BigEndian.AppendUint64(buf, math.Float64bits(r.score))
	buf = binary.AppendUvarint(buf, r.count)
	buf = binary.AppendUvarint(buf, r.seq)
	return binary.AppendUvarint(buf, r.retries)
}

func decodeURLRecord(b []byte) (urlRecord, error) {
	d := decoder{b: b}
	var r urlRecord
	r.state = urlState(d.byte())
	r.qid = uint32(d.uvarint())
	r.score = math.Float64frombits(d.uint64())
	r.count = d.uvarint()
	r.seq = d.uvarint()
	r.retries = d.uvarint()
	if d.err == nil && !r.state.valid() {
		d.err = fmt.Errorf("unknown URL state %d", r.state)
	}
	return r, d.done("URL record")
}

// entry is what a queued or in-flight URL carries for the crawler.
type entry struct {
	url, hops, via string
}

func (e *entry) encode(buf []byte) []byte {
	buf = appendString(buf, e.url)
	buf = appendString(buf, e.hops)
	return appendShared(buf, e.url, e.via)
}

func decodeEntry(b []byte) (entry, error) {
	d := decoder{b: b}
	e := entry{url: d.string(), hops: d.string()}
	e.via = d.shared(e.url)
	return e, d.done("URL entry")
}

// queueRecord is the persisted form of a queue.
type queueRecord struct {
	key         string
	size        int64
	inFlight    int64
	valence     int64
	budget      int64
	used        int64
	snoozeUntil int64 // Unix nanoseconds
	readyAt     int64
	readySeq    uint64
	inHeap      bool
	lastFetch   int64 // nanoseconds
	// Incremental crawls: waiting counts the visited URLs waiting for
	// their due times (not in size) and nextDue is the earliest of those
	// times (Unix nanoseconds; 0 when none waits).
	waiting int64
	nextDue int64
}

func (r *queueRecord) encode(buf []byte) []byte { return r.encodeAs(buf, r.key) }

// encodeAs encodes r with the given queue key (the journal leaves out the
// key of a queue that has a record of its own).
func (r *queueRecord) encodeAs(buf []byte, key string) []byte {
	buf = appendString(buf, key)
	for _, v := range []int64{r.size, r.inFlight, r.valence, r.budget, r.used, r.snoozeUntil, r.readyAt, r.lastFetch} {
		buf = binary.AppendVarint(buf, v)
	}
	buf = binary.AppendUvarint(buf, r.readySeq)
	if r.inHeap {
		buf = append(buf, 1)
	} else {
		buf = append(buf, 0)
	}
	if r.waiting == 0 {
		return buf // as written before incremental crawls existed
	}
	buf = binary.AppendVarint(buf, r.waiting)
	return binary.AppendVarint(buf, r.nextDue)
}

func decodeQueueRecord(b []byte) (queueRecord, error) {
	d := decoder{b: b}
	var r queueRecord
	r.key = d.string()
	for _, p := range []*int64{&r.size, &r.inFlight, &r.valence, &r.budget, &r.used, &r.snoozeUntil, &r.readyAt, &r.lastFetch} {
		*p = d.varint()
	}
	r.readySeq = d.uvarint()
	r.inHeap = d.byte() == 1
	if d.err == nil && len(d.b) > 0 {
		if r.waiting, r.nextDue = d.varint(), d.varint(); d.err == nil && r.waiting == 0 {
			d.err = errors.New("waiting count written as 0") // never written so
		}
	}
	return r, d.done("queue record")
}

// meta holds the counters and totals, rewritten by every batch.
type meta struct {
	seq      uint64 // insertion counter of queue entries
	readySeq uint64 // tie-break of queues that became ready at the same time
	nextQID  uint32
	totals   Totals
	nextRun  uint32    // id of the next run of the seen-set
	runs     []runInfo // the seen-set's runs, oldest (and largest) first
}

func (m *meta) encode(buf []byte) []byte {
	buf = binary.AppendUvarint(buf, m.seq)
	buf = binary.AppendUvarint(buf, m.readySeq)
	buf = binary.AppendUvarint(buf, uint64(m.nextQID))
	t := &m.totals
	for _, v := range []int64{t.Queued, t.InFlight, t.Succeeded, t.Failed, t.Disregarded, t.Blacklisted, t.Waiting} {
		buf = binary.AppendVarint(buf, v)
	}
	buf = binary.AppendUvarint(buf, uint64(m.nextRun))
	buf = binary.AppendUvarint(buf, uint64(len(m.runs)))
	for _, r := range m.runs {
		buf = binary.AppendUvarint(buf, uint64(r.id))
		buf = binary.AppendUvarint(buf, r.records)
	}
	return buf
}

func decodeMeta(b []byte) (meta, error) {
	d := decoder{b: b}
	var m meta
	m.seq = d.uvarint()
	m.readySeq = d.uvarint()
	m.nextQID = uint32(d.uvarint())
	t := &m.totals
	for _, p := range []*int64{&t.Queued, &t.InFlight, &t.Succeeded, &t.Failed, &t.Disregarded, &t.Blacklisted, &t.Waiting} {
		*p = d.varint()
	}
	m.nextRun = uint32(d.uvarint())
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		return m, fmt.Errorf("frontier: corrupt meta record: %d runs in %d bytes", n, len(d.b))
	}
	m.runs = make([]runInfo, n)
	for i := range m.runs {
		m.runs[i] = runInfo{id: uint32(d.uvarint()), records: d.uvarint()}
	}
	return m, d.done("meta record")
}

// encode writes c compactly: the queue key (usually the host) as a
// reference into the URL, the via URL as its common prefix with the URL.
func (c *Candidate) encode(buf []byte) []byte {
	buf = appendString(buf, c.URL)
	buf = appendPart(buf, c.URL, c.QueueKey)
	buf = binary.BigEndian.AppendUint64(buf, math.Float64bits(c.Score))
	buf = appendString(buf, c.Hops)
	buf = appendShared(buf, c.URL, c.Via)
	return append(buf, byte(c.Update))
}

// decodeCandidates reads a pending-log record: a count, then candidates.
func decodeCandidates(b []byte) ([]Candidate, error) {
	d := decoder{b: b}
	n := d.uvarint()
	if n > uint64(len(b)) {
		return nil, fmt.Errorf("frontier: corrupt pending record: %d candidates in %d bytes", n, len(b))
	}
	cs := make([]Candidate, n)
	for i := range cs {
		c := &cs[i]
		c.URL = d.string()
		c.QueueKey = d.part(c.URL)
		c.Score = math.Float64frombits(d.uint64())
		c.Hops = d.string()
		c.Via = d.shared(c.URL)
		c.Update = UpdateFunc(d.byte())
	}
	return cs, d.done("pending record")
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

// appendShared writes s as the length of its common prefix with base,
// then the rest of s.
func appendShared(buf []byte, base, s string) []byte {
	n := 0
	for n < len(base) && n < len(s) && base[n] == s[n] {
		n++
	}
	buf = binary.AppendUvarint(buf, uint64(n))
	return appendString(buf, s[n:])
}

// appendPart writes s as 1 + its offset in base and its length when base
// contains it, else as 0 and s itself.
func appendPart(buf []byte, base, s string) []byte {
	i := strings.Index(base, s)
	if i < 0 || s == "" {
		return appendString(append(buf, 0), s)
	}
	buf = binary.AppendUvarint(buf, uint64(i)+1)
	return binary.AppendUvarint(buf, uint64(len(s)))
}

var errTruncated = errors.New("truncated")

// decoder reads the encodings above, remembering the first error.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errTruncated
	}
	d.b = nil
}

func (d *decoder) byte() byte {
	if len(d.b) < 1 {
		d.fail()
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

func (d *decoder) uint64() uint64 {
	if len(d.b) < 8 {
		d.fail()
		return 0
	}
	v := binary.BigEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	d.skip(n)
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	d.skip(n)
	return v
}

// skip consumes n bytes after a varint read; n <= 0 means a bad varint.
func (d *decoder) skip(n int) {
	if n <= 0 {
		d.fail()
		return
	}
	d.b = d.b[n:]
}

func (d *decoder) string() string {
	n := d.uvarint()
	if uint64(len(d.b)) < n {
		d.fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// shared reads what appendShared wrote.
func (d *decoder) shared(base string) string {
	n := d.uvarint()
	if n > uint64(len(base)) {
		d.fail()
		return ""
	}
	return base[:n] + d.string()
}

// part reads what appendPart wrote.
func (d *decoder) part(base string) string {
	off := d.uvarint()
	if off == 0 {
		return d.string()
	}
	n := d.uvarint()
	if off-1 > uint64(len(base)) || n > uint64(len(base))-(off-1) {
		d.fail()
		return ""
	}
	return base[off-1 : off-1+n]
}

func (d *decoder) done(what string) error {
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("%d trailing bytes", len(d.b))
	}
	if d.err != nil {
		return fmt.Errorf("frontier: corrupt %s: %w", what, d.err)
	}
	return nil
}
