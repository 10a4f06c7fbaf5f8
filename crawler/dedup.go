package crawler

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/mneme-archive/mneme/internal/pebblelog"
)

// digests is the URL-agnostic payload digest index: for each payload
// digest, the first capture that stored the payload, so later fetches of
// the same bytes (at any URL) become revisit records. It lives in Pebble:
// it grows with the crawl. Writes are not synced: an entry lost in a crash
// only costs a second copy of a payload.
//
// An entry names a WARC record, which the WARC writer makes durable only
// when the RDF writer syncs it before a commit; so that no entry on disk
// names a record a crash lost, new entries wait in pending (answered by get
// meanwhile) until persist stores them after that sync. pending holds one
// batch's entries at most.
type digests struct {
	db      *pebble.DB
	mu      sync.Mutex
	pending map[string]original
}

// original is the capture a digest first came with.
type original struct {
	RecordID string
	URL      string
	Date     time.Time
}

func openDigests(dir string, log io.Writer) (*digests, error) {
	db, err := pebble.Open(dir, &pebble.Options{Logger: pebblelog.Logger{W: log, Name: "digest index"}})
	if err != nil {
		return nil, fmt.Errorf("digest index %s: %w", dir, err)
	}
	return &digests{db: db, pending: map[string]original{}}, nil
}

func (d *digests) get(digest string) (original, bool, error) {
	d.mu.Lock()
	o, ok := d.pending[digest]
	d.mu.Unlock()
	if ok {
		return o, true, nil
	}
	v, closer, err := d.db.Get([]byte(digest))
	if errors.Is(err, pebble.ErrNotFound) {
		return original{}, false, nil
	}
	if err != nil {
		return original{}, false, err
	}
	defer closer.Close()
	parts := strings.SplitN(string(v), "\x00", 3)
	if len(parts) != 3 {
		return original{}, false, fmt.Errorf("digest index: bad entry for %s", digest)
	}
	ns, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		return original{}, false, fmt.Errorf("digest index: bad date for %s: %w", digest, err)
	}
	return original{RecordID: parts[0], URL: parts[1], Date: time.Unix(0, ns).UTC()}, true, nil
}

// put records the first capture of a payload, to be stored by persist.
func (d *digests) put(digest string, o original) {
	d.mu.Lock()
	d.pending[digest] = o
	d.mu.Unlock()
}

// unpersisted returns the entries put so far; once the WARC records they
// name are durable, persist stores them.
func (d *digests) unpersisted() map[string]original {
	d.mu.Lock()
	defer d.mu.Unlock()
	return maps.Clone(d.pending)
}

// persist stores entries and drops them from pending.
func (d *digests) persist(entries map[string]original) error {
	if len(entries) == 0 {
		return nil
	}
	b := d.db.NewBatch()
	for digest, o := range entries {
		v := o.RecordID + "\x00" + o.URL + "\x00" + strconv.FormatInt(o.Date.UnixNano(), 10)
		if err := b.Set([]byte(digest), []byte(v), nil); err != nil {
			return fmt.Errorf("digest index: %w", err)
		}
	}
	if err := b.Commit(pebble.NoSync); err != nil {
		return fmt.Errorf("digest index: %w", err)
	}
	d.mu.Lock()
	for digest := range entries {
		delete(d.pending, digest)
	}
	d.mu.Unlock()
	return nil
}

// forget drops the entry of digest if it names record id (a record a
// crash left uncommitted).
func (d *digests) forget(digest, id string) error {
	o, ok, err := d.get(digest)
	if err != nil || !ok || o.RecordID != id {
		return err
	}
	d.mu.Lock()
	delete(d.pending, digest)
	d.mu.Unlock()
	return d.db.Delete([]byte(digest), pebble.NoSync)
}

func (d *digests) close() error { return d.db.Close() }
