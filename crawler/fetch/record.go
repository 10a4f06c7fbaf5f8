package fetch

import (
	"net"
	"sync"
	"sync/atomic"
)

// recConn passes the bytes of an HTTP/1.x connection to the recorder of the
// exchange currently using it. The Transport hands a connection to one request
// at a time and reads a response only after writing its request, so every byte
// between binding and unbinding belongs to that exchange.
type recConn struct {
	net.Conn
	rec atomic.Pointer[recorder]
}

func (c *recConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		if r := c.rec.Load(); r != nil {
			r.capture(c, &r.resp, p[:n])
		}
	}
	return n, err
}

func (c *recConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if n > 0 {
		if r := c.rec.Load(); r != nil {
			r.capture(c, &r.req, p[:n])
		}
	}
	return n, err
}

// recorder collects the raw request and response of one exchange. The
// connection's goroutines write into it; the fetching goroutine reads it only
// after unbind, which the mutex orders after the last capture.
type recorder struct {
	mu     sync.Mutex
	req    *Buffer
	resp   *Buffer
	max    int64 // bytes of response kept at most; the rest is dropped
	err    error // first write failure (spill file)
	done   bool
	conn   *recConn // connection bound to, nil for HTTP/2
	remote net.Addr
	h2     bool
}

func (r *recorder) capture(from *recConn, dst **Buffer, p []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done || r.err != nil || r.conn != from {
		return // finished, failed, or a late read on a connection given up
	}
	b := *dst
	if b == r.resp {
		if room := r.max - b.Size(); int64(len(p)) > room {
			p = p[:max(room, 0)]
		}
	}
	if _, err := b.Write(p); err != nil {
		r.err = err
	}
}

// bind attaches the recorder to the connection the Transport chose. A retried
// request binds again to a new connection: what the failed attempt recorded is
// discarded so the recording is the exchange that answered.
func (r *recorder) bind(c net.Conn) {
	r.detach()
	r.mu.Lock()
	r.reset()
	r.remote = c.RemoteAddr()
	rc, ok := c.(*recConn)
	r.h2 = !ok
	if ok {
		r.conn = rc
	}
	r.mu.Unlock()
	if ok {
		rc.rec.Store(r)
	}
}

func (r *recorder) reset() {
	limit, dir := r.req.limit, r.req.dir
	r.req.Close()
	r.resp.Close()
	r.req, r.resp = newBuffer(limit, dir), newBuffer(limit, dir)
}

// detach stops recording from the bound connection.
func (r *recorder) detach() {
	r.mu.Lock()
	c := r.conn
	r.conn = nil
	r.mu.Unlock()
	if c != nil {
		c.rec.CompareAndSwap(r, nil)
	}
}

// finish ends the recording for good; captures still in flight are dropped.
func (r *recorder) finish() {
	r.detach()
	r.mu.Lock()
	r.done = true
	r.mu.Unlock()
}
