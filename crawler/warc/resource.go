package warc

import (
	"fmt"
	"time"
)

// Resource is data archived as it is, not as an HTTP exchange: a message
// received over a WebSocket, a line of an imported collection.
type Resource struct {
	URI         string    // WARC-Target-URI: what the data is about or came from
	Date        time.Time // when it was received; the zero time means now
	ContentType string    // of the block, e.g. "application/json"
	Body        []byte
}

// WriteResources writes resource records as one group: all in one file,
// in order, and (unless GroupSync) durable when it returns. Their locations
// come back in the same order.
func (w *Writer) WriteResources(rs []Resource) ([]Location, error) {
	recs := make([]record, len(rs))
	for i, r := range rs {
		if r.URI == "" {
			return nil, fmt.Errorf("warc: resource %d has no URI", i)
		}
		ct := r.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		block := memBlock(r.Body)
		// A resource record's block is its payload (WARC 1.1 §6.4), so the
		// payload digest, which CDXJ indexes, is the block's: computed once.
		d, err := BlockDigest(block)
		if err != nil {
			return nil, err
		}
		recs[i] = newDigestedRecord("resource", newRecordID(), warcDate(r.Date), ct, block, d, d,
			Fields{{"WARC-Target-URI", r.URI}})
	}
	return w.write(recs)
}
