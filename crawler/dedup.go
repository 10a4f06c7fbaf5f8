package crawler

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// digests is the URL-agnostic payload digest index: for each payload
// digest, the first capture that stored the payload, so later fetches of
// the same bytes (at any URL) become revisit records. It lives in Pebble:
// it grows with the crawl. Writes are not synced: an entry lost in a crash
// only costs a second copy of a payload.
type digests struct{ db *pebble.DB }

// original is the capture a digest first came with.
type original struct {
	RecordID string
	URL      string
	Date     time.Time
}

func openDigests(dir string, log io.Writer) (*digests, error) {
	db, err := pebble.Open(dir, &pebble.Options{Logger: pebbleLog{log}})
	if err != nil {
		return nil, fmt.Errorf("digest index %s: %w", dir, err)
	}
	return &digests{db: db}, nil
}

func (d *digests) get(digest string) (original, bool, error) {
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

func (d *digests) put(digest string, o original) error {
	v := o.RecordID + "\x00" + o.URL + "\x00" + strconv.FormatInt(o.Date.UnixNano(), 10)
	return d.db.Set([]byte(digest), []byte(v), pebble.NoSync)
}

func (d *digests) close() error { return d.db.Close() }

// pebbleLog sends Pebble's errors to the crawl's log and drops its chatter.
type pebbleLog struct{ w io.Writer }

func (pebbleLog) Infof(string, ...any) {}

func (l pebbleLog) Errorf(format string, args ...any) {
	fmt.Fprintf(l.w, "digest index: "+format+"\n", args...)
}

func (pebbleLog) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("digest index: "+format, args...))
}
