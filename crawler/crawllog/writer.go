package crawllog

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Writer appends entries to a crawl.log. Each entry reaches the underlying
// writer in a single Write, so a reader following the file (the TUI) never
// sees half a line, and concurrent callers never interleave.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
	now func() time.Time
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w, now: time.Now} }

// WriteAll logs the entries with one write, stamping those without a
// Time with the current time.
func (w *Writer) WriteAll(es []Entry) error {
	if len(es) == 0 {
		return nil
	}
	now := w.now()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = w.buf[:0]
	for _, e := range es {
		if e.Time.IsZero() {
			e.Time = now
		}
		w.buf = Append(w.buf, e)
	}
	if _, err := w.w.Write(w.buf); err != nil {
		return fmt.Errorf("crawllog: %w", err)
	}
	return nil
}

// Write logs e, stamping Time with the current time when it is zero.
func (w *Writer) Write(e Entry) error {
	if e.Time.IsZero() {
		e.Time = w.now()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = Append(w.buf[:0], e)
	if _, err := w.w.Write(w.buf); err != nil {
		return fmt.Errorf("crawllog: %w", err)
	}
	return nil
}
