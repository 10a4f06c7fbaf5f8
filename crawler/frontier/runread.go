package frontier

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/mneme-archive/mneme/graph"
)

// pageCursor walks the pages of one kind of one run in increasing hash
// order.
type pageCursor struct {
	it     *pebble.Iterator // nil until first used
	prefix []byte           // S run kind
	size   int              // bytes per entry
	page   []byte           // entries of the current page; nil before the first
	done   bool             // past the last page
	key    []byte
}

func (f *Frontier) newPageCursor(id uint32, kind byte, size int) pageCursor {
	return pageCursor{prefix: pagePrefix(nil, id, kind), size: size}
}

// seek positions the cursor at the first page whose last hash is >= h and
// reports whether there is one. Hashes must come in non-decreasing order.
func (c *pageCursor) seek(db *pebble.DB, h *urlHash) (bool, error) {
	if c.done {
		return false, nil
	}
	if c.page != nil && bytes.Compare(c.it.Key()[len(c.prefix):], h[:]) >= 0 {
		return true, nil
	}
	if c.it == nil {
		it, err := db.NewIter(&pebble.IterOptions{LowerBound: c.prefix, UpperBound: graph.PrefixEnd(c.prefix)})
		if err != nil {
			return false, err
		}
		c.it = it
	}
	c.key = append(append(c.key[:0], c.prefix...), h[:]...)
	if !c.advance(c.key) {
		c.done = true
		return false, c.it.Error()
	}
	c.page = c.it.Value()
	if len(c.page) == 0 || len(c.page)%c.size != 0 {
		return false, fmt.Errorf("frontier: corrupt run page %x: %d bytes", c.it.Key(), len(c.page))
	}
	return true, nil
}

// advance positions the iterator at the first page whose key is at or
// after key: by a few steps when it is near (dense batches walk the run
// like a merge), else by a seek.
func (c *pageCursor) advance(key []byte) bool {
	if c.page == nil {
		return c.it.SeekGE(key)
	}
	for range 4 {
		if !c.it.Next() {
			return false
		}
		if bytes.Compare(c.it.Key(), key) >= 0 {
			return true
		}
	}
	return c.it.SeekGE(key)
}

func (c *pageCursor) close() error {
	if c.it == nil {
		return nil
	}
	return c.it.Close()
}

// hasFingerprint reports whether an index page holds the fingerprint of h.
// Fingerprints are uniformly spread hash bits, so interpolation between
// the page's first and last one lands within a few entries of the place,
// and a short linear walk, in one or two cache lines, finishes: cheaper
// than the ten scattered steps of a binary search.
func hasFingerprint(page []byte, h *urlHash) bool {
	fp := binary.BigEndian.Uint32(h[:])
	n := len(page) / fingerprintSize
	at := func(i int) uint32 { return binary.BigEndian.Uint32(page[i*fingerprintSize:]) }
	first, last := at(0), at(n-1)
	if fp <= first || fp >= last {
		return fp == first || fp == last
	}
	i := int(uint64(fp-first) * uint64(n-1) / uint64(last-first))
	for at(i) > fp {
		i--
	}
	for at(i) < fp {
		i++
	}
	return at(i) == fp
}

// findEntry returns the entry of h in a record page, or nil, by binary
// search, comparing hashes as two big-endian integers.
func findEntry(page []byte, h *urlHash) []byte {
	hi, lo := binary.BigEndian.Uint64(h[:8]), binary.BigEndian.Uint64(h[8:])
	n := len(page) / runEntrySize
	i, j := 0, n
	for i < j {
		m := int(uint(i+j) >> 1)
		e := page[m*runEntrySize:]
		if ehi := binary.BigEndian.Uint64(e); ehi < hi || ehi == hi && binary.BigEndian.Uint64(e[8:]) < lo {
			i = m + 1
		} else {
			j = m
		}
	}
	if e := page[i*runEntrySize:]; i < n && binary.BigEndian.Uint64(e) == hi && binary.BigEndian.Uint64(e[8:]) == lo {
		return e[:runEntrySize]
	}
	return nil
}

// runReader looks hashes up in one run: in its index first, in its
// records only when the fingerprint is there.
type runReader struct {
	index, records pageCursor
}

func (r *runReader) find(db *pebble.DB, h *urlHash) ([]byte, error) {
	ok, err := r.index.seek(db, h)
	if !ok || err != nil || !hasFingerprint(r.index.page, h) {
		return nil, err
	}
	if ok, err = r.records.seek(db, h); !ok || err != nil {
		return nil, err
	}
	return findEntry(r.records.page, h), nil
}

// recordReader finds URL records: in the overlay first, then in the runs
// (a hash is in at most one run). Lookups must come in non-decreasing
// hash order: the overlay iterator then steps forward, and each run is
// read at most once, page by page, as in DRUM's merge.
type recordReader struct {
	db      *pebble.DB
	overlay *pebble.Iterator
	// overlayDone is set once no overlay key is at or after the last hash
	// sought: no later (larger) hash can be there either.
	overlayDone bool
	runs        []runReader
	key         []byte
}

func (f *Frontier) newRecordReader() (*recordReader, error) {
	r := &recordReader{db: f.db}
	var err error
	r.overlay, err = f.db.NewIter(&pebble.IterOptions{LowerBound: []byte{prefixURL}, UpperBound: []byte{prefixURL + 1}})
	if err != nil {
		return nil, err
	}
	for i := len(f.meta.runs) - 1; i >= 0; i-- {
		id := f.meta.runs[i].id
		r.runs = append(r.runs, runReader{
			index:   f.newPageCursor(id, pageIndex, fingerprintSize),
			records: f.newPageCursor(id, pageRecords, runEntrySize),
		})
	}
	return r, nil
}

// find returns the record of h and whether there is one.
func (r *recordReader) find(h *urlHash) (urlRecord, bool, error) {
	if !r.overlayDone {
		r.key = append(append(r.key[:0], prefixURL), h[:]...)
		// The iterator stays where the last seek left it while its key is
		// still at or after h.
		if !r.overlay.Valid() || bytes.Compare(r.overlay.Key(), r.key) < 0 {
			if !r.overlay.SeekGE(r.key) {
				if err := r.overlay.Error(); err != nil {
					return urlRecord{}, false, err
				}
				r.overlayDone = true
			}
		}
		if !r.overlayDone && bytes.Equal(r.overlay.Key(), r.key) {
			rec, err := decodeURLRecord(r.overlay.Value())
			return rec, true, err
		}
	}
	for i := range r.runs {
		e, err := r.runs[i].find(r.db, h)
		if err != nil {
			return urlRecord{}, false, err
		}
		if e != nil {
			rec, err := decodeRunEntry(e)
			return rec, true, err
		}
	}
	return urlRecord{}, false, nil
}

func (r *recordReader) Close() error {
	var err error
	if r.overlay != nil {
		err = r.overlay.Close()
	}
	for i := range r.runs {
		for _, c := range []*pageCursor{&r.runs[i].index, &r.runs[i].records} {
			if cerr := c.close(); err == nil {
				err = cerr
			}
		}
	}
	return err
}

// getRecord returns the URL record of h, or nil if the URL is unseen: a
// single lookup, in the record cache, in the overlay and then in the record pages of each run
// through one iterator (the indexes help only a pass of many lookups).
func (f *Frontier) getRecord(h urlHash) (*urlRecord, error) {
	if rec, ok := f.records.get(&h); ok {
		return &rec, nil
	}
	v, err := f.get(urlKey(h))
	if err != nil {
		return nil, err
	}
	if v != nil {
		rec, err := decodeURLRecord(v)
		return &rec, err
	}
	if len(f.meta.runs) == 0 {
		return nil, nil
	}
	it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: []byte{prefixRun}, UpperBound: []byte{prefixRun + 1}})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var key []byte
	for i := len(f.meta.runs) - 1; i >= 0; i-- {
		key = append(pagePrefix(key[:0], f.meta.runs[i].id, pageRecords), h[:]...)
		if !it.SeekGE(key) || !bytes.HasPrefix(it.Key(), key[:len(key)-len(h)]) {
			continue // no page of this run ends at or after h
		}
		page := it.Value()
		if len(page) == 0 || len(page)%runEntrySize != 0 {
			return nil, fmt.Errorf("frontier: corrupt run page %x: %d bytes", it.Key(), len(page))
		}
		if e := findEntry(page, &h); e != nil {
			rec, err := decodeRunEntry(e)
			return &rec, err
		}
	}
	return nil, it.Error()
}
