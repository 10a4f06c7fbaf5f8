package endpoint

import (
	"errors"
	"net/http"
	"strconv"
	"time"
)

const (
	// holdBytes and flushInterval bound how much output, and for how
	// long, is held back before the response starts: an error until then
	// still gets its own status.
	holdBytes     = 256 << 10
	flushInterval = 250 * time.Millisecond
)

// stream holds a response back until enough of it is ready or enough
// time has passed, then sends it and everything after it as it comes.
type stream struct {
	w           http.ResponseWriter
	rc          *http.ResponseController
	contentType string
	buf         []byte
	committed   bool
	last        time.Time // the start, then the last flush
}

func newStream(w http.ResponseWriter, contentType string) *stream {
	return &stream{w: w, rc: http.NewResponseController(w), contentType: contentType, last: time.Now()}
}

func (s *stream) Write(p []byte) (int, error) {
	if s.committed {
		return s.w.Write(p)
	}
	s.buf = append(s.buf, p...)
	if len(s.buf) >= holdBytes {
		if err := s.commit(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// commit sends the status, the headers and the held output.
func (s *stream) commit() error {
	s.committed = true
	s.w.Header().Set("Content-Type", s.contentType)
	s.w.WriteHeader(http.StatusOK)
	_, err := s.w.Write(s.buf)
	s.buf = nil
	return err
}

// due reports whether output has waited long enough to be pushed.
func (s *stream) due() bool { return time.Since(s.last) >= flushInterval }

// flush sends what is held and pushes it through the connection.
func (s *stream) flush() error {
	if !s.committed {
		if err := s.commit(); err != nil {
			return err
		}
	}
	s.last = time.Now()
	if err := s.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

// finish completes a response: one held back entirely gets its length.
func (s *stream) finish() error {
	if s.committed {
		return nil
	}
	s.w.Header().Set("Content-Length", strconv.Itoa(len(s.buf)))
	return s.commit()
}
