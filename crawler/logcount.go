package crawler

import (
	"errors"
	"io"
	"os"

	"github.com/mneme-archive/mneme/crawler/crawllog"
)

// loadLog adds the fetches of a crawl.log to c; a missing log adds none.
func (c *counters) loadLog(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	r := crawllog.NewReader(f, path)
	for {
		e, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		c.record(Fetch{URL: e.URI, Status: e.Status, Size: max(e.Size, 0), Revisit: isRevisit(e.Annotations)}, fetchErrorKind(e.URI, e.Status))
	}
}

// ReadFigures is ReadStatus with the fetch figures (fetched, bytes,
// revisits, errors by kind, the last fetches) recomputed from the crawl's
// crawl.log, for a crawl that is not open. Its cost grows with the log.
func ReadFigures(data, id string) (Status, error) {
	s, err := ReadStatus(data, id)
	if err != nil {
		return s, err
	}
	var c counters
	if err := c.loadLog(Layout{Data: data}.CrawlLog(id)); err != nil {
		return s, err
	}
	c.snapshot(&s)
	return s, nil
}

// isRevisit tells whether a crawl.log line's payload was stored as a
// revisit record: a duplicate digest, a 304 or a download the headers
// stopped.
func isRevisit(annotations []string) bool {
	return hasAnnotation(annotations, annotDuplicate) || hasAnnotation(annotations, annotNotModified) ||
		hasAnnotation(annotations, annotHeaders)
}
