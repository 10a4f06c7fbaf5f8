package frontier

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// runCursor walks the pages of one run in increasing hash order.
type runCursor struct {
	id   uint32
	it   *pebble.Iterator
	page []byte // entries of the current page; nil before the first
	done bool   // past the last page
	key  []byte
}

// find returns the entry of h, if the run has one. Hashes must come in
// non-decreasing order.
func (c *runCursor) find(h *urlHash) ([]byte, error) {
	if c.done {
		return nil, nil
	}
	if c.page == nil || bytes.Compare(c.it.Key()[5:], h[:]) < 0 {
		c.key = runKey(c.key[:0], c.id, h[:])
		if !c.advance(c.key) {
			c.done = true
			return nil, c.it.Error()
		}
		c.page = c.it.Value()
		if len(c.page)%runEntrySize != 0 {
			return nil, fmt.Errorf("frontier: corrupt run page %x: %d bytes", c.it.Key(), len(c.page))
		}
	}
	// The page's last hash is >= h: binary search among its entries,
	// comparing hashes as two big-endian integers.
	hi, lo := binary.BigEndian.Uint64(h[:8]), binary.BigEndian.Uint64(h[8:])
	n := len(c.page) / runEntrySize
	i, j := 0, n
	for i < j {
		m := int(uint(i+j) >> 1)
		e := c.page[m*runEntrySize:]
		if ehi := binary.BigEndian.Uint64(e); ehi < hi || ehi == hi && binary.BigEndian.Uint64(e[8:]) < lo {
			i = m + 1
		} else {
			j = m
		}
	}
	if e := c.page[i*runEntrySize:]; i < n && binary.BigEndian.Uint64(e) == hi && binary.BigEndian.Uint64(e[8:]) == lo {
		return e[:runEntrySize], nil
	}
	return nil, nil
}

// advance positions the iterator at the first page whose key is at or
// after key: by a few steps when it is near (dense batches walk the run
// like a merge), else by a seek.
func (c *runCursor) advance(key []byte) bool {
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

// recordReader finds URL records: in the overlay first, then in the runs
// (a hash is in at most one run). Lookups must come in non-decreasing
// hash order: the overlay iterator then steps forward, and each run is
// read at most once, page by page, as in DRUM's merge.
type recordReader struct {
	overlay *pebble.Iterator
	runs    []runCursor
	key     []byte
}

func (f *Frontier) newRecordReader() (*recordReader, error) {
	r := &recordReader{}
	var err error
	r.overlay, err = f.db.NewIter(&pebble.IterOptions{LowerBound: []byte{prefixURL}, UpperBound: []byte{prefixURL + 1}})
	if err != nil {
		return nil, err
	}
	for i := len(f.meta.runs) - 1; i >= 0; i-- {
		id := f.meta.runs[i].id
		it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: runPrefix(id), UpperBound: runPrefix(id + 1)})
		if err != nil {
			r.Close()
			return nil, err
		}
		r.runs = append(r.runs, runCursor{id: id, it: it})
	}
	return r, nil
}

// find returns the record of h and whether there is one.
func (r *recordReader) find(h *urlHash) (urlRecord, bool, error) {
	r.key = append(append(r.key[:0], prefixURL), h[:]...)
	if r.overlay.SeekGE(r.key) && bytes.Equal(r.overlay.Key(), r.key) {
		rec, err := decodeURLRecord(r.overlay.Value())
		return rec, true, err
	}
	if err := r.overlay.Error(); err != nil {
		return urlRecord{}, false, err
	}
	for i := range r.runs {
		e, err := r.runs[i].find(h)
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
	for _, c := range r.runs {
		if cerr := c.it.Close(); err == nil {
			err = cerr
		}
	}
	return err
}
