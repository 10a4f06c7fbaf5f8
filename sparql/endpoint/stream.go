package endpoint

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strconv"
	"time"
)

const (
	// holdBytes and flushInterval bound how much output, and for how
	// long, is held back before the response starts: an error until then
	// still gets its own status.
	holdBytes     = 256 << 10
	flushInterval = 250 * time.Millisecond
	// deadlineEvery is how often, at most, the write deadline moves on
	// while output flows.
	deadlineEvery = 100 * time.Millisecond
)

// errStalled is a write that failed because the client stopped reading.
var errStalled = errors.New("the client stopped reading")

// stream holds a response back until enough of it is ready or enough
// time has passed, then sends it and everything after it as it comes.
// Every write must make progress within stall, and all of them end by
// end: a client that does not read cannot hold a query (and its slot)
// longer.
type stream struct {
	ctx         context.Context // the query's
	w           http.ResponseWriter
	rc          *http.ResponseController
	contentType string
	buf         []byte
	committed   bool
	last        time.Time // the start, then the last flush
	end         time.Time // the query's deadline (zero: none)
	stall       time.Duration
	moved       time.Time // when the write deadline was last set
	stallAt     time.Time // the write deadline set for a stall, not end
}

func newStream(ctx context.Context, w http.ResponseWriter, contentType string, end time.Time, stall time.Duration) *stream {
	return &stream{ctx: ctx, w: w, rc: http.NewResponseController(w), contentType: contentType, last: time.Now(), end: end, stall: stall}
}

// deadline moves the connection's write deadline to a stall from now,
// or the query's end if sooner.
func (s *stream) deadline() {
	now := time.Now()
	if now.Sub(s.moved) < deadlineEvery {
		return
	}
	s.moved = now
	d := now.Add(s.stall)
	s.stallAt = d
	if !s.end.IsZero() && s.end.Before(d) {
		d, s.stallAt = s.end, time.Time{}
	}
	_ = s.rc.SetWriteDeadline(d)
}

// wrap names a write that failed at a stall deadline.
func (s *stream) wrap(err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) && !s.stallAt.IsZero() && !time.Now().Before(s.stallAt) {
		return errStalled
	}
	return err
}

func (s *stream) Write(p []byte) (int, error) {
	if s.committed {
		s.deadline()
		n, err := s.w.Write(p)
		return n, s.wrap(err)
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
	s.deadline()
	_, err := s.w.Write(s.buf)
	s.buf = nil
	return s.wrap(err)
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
	s.deadline()
	if err := s.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return s.wrap(err)
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

// fail ends a committed response that cannot be completed: an error
// line after what was sent (which makes a JSON or XML document invalid
// and is a visible last line of CSV and TSV), pushed to the client if
// it still reads, for 50 ms at most; the caller then aborts the
// connection, so the chunked body never ends properly either.
func (s *stream) fail(err error, msg string) {
	if errors.Is(err, errStalled) || errors.Is(err, os.ErrDeadlineExceeded) {
		return // the client does not read: nothing more can reach it
	}
	_ = s.rc.SetWriteDeadline(time.Now().Add(50 * time.Millisecond))
	_, _ = s.w.Write([]byte(ErrorLinePrefix + msg + "; the result above is incomplete\n"))
	_ = s.rc.Flush()
}

// ErrorLinePrefix starts the line that ends a result cut by an error
// after its first bytes were sent.
const ErrorLinePrefix = "\n\n#mneme-error: "
