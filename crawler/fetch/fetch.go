package fetch

import (
	"context"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync"
	"time"

	"github.com/mneme-archive/mneme/crawler/canon"
	"golang.org/x/text/encoding"
)

// Request is one URL to fetch.
type Request struct {
	URL canon.URL
	// Via is the URL the request was discovered from, sent as Referer.
	Via string
	// IfNoneMatch and IfModifiedSince make the request conditional, for
	// revisits: pass the ETag and Last-Modified values of the last capture
	// exactly as the server sent them.
	IfNoneMatch     string
	IfModifiedSince string
	// Header holds further request fields (Cookie, Accept-Language …).
	Header http.Header
	// SkipBody, when set, is asked once the response head has arrived; if
	// it returns true the body is not downloaded (the connection is
	// closed) and Result.BodySkipped is set: a revisit whose headers say
	// the content has not changed.
	SkipBody func(status int, h http.Header) bool
}

// Truncation reasons, the WARC 1.1 WARC-Truncated values; "disconnect" is a
// body cut off by the server.
const (
	TruncatedLength     = "length"
	TruncatedTime       = "time"
	TruncatedDisconnect = "disconnect"
)

// Result is the outcome of one fetch. Close releases its buffers.
type Result struct {
	URL      canon.URL
	Status   int    // HTTP status code, or a negative Heritrix code (Status*) when no response came
	Err      error  // why the fetch failed or was cut short; nil for a whole response
	Proto    string // "HTTP/1.1", "HTTP/2.0" …
	Header   http.Header
	IP       string    // address of the server that answered
	Start    time.Time // when the fetch began
	Duration time.Duration

	// Request and Response are the exchange as it went over the wire (see the
	// package comment for HTTP/2), ready for warc.Exchange. Response is nil
	// when no response head arrived, and Request is then nil when nothing was
	// sent; whenever Response is set, so is Request. (Check for nil before
	// storing them in a warc.Content: a nil *Buffer is a non-nil interface.)
	Request  *Buffer
	Response *Buffer

	Truncated     string // "", TruncatedLength, TruncatedTime or TruncatedDisconnect
	BodySkipped   bool   // Request.SkipBody declined the body: only the head was received
	ContentLength int64  // entity bytes received (after chunking, before content decoding)
	Digest        string // "sha1:" + base32 of those bytes, Heritrix's content digest

	// Body is the entity with its content coding (gzip, deflate) removed,
	// decompressed to at most Config.MaxDecodedSize bytes: for analysis only,
	// never archived. An uncoded entity is Body as it is.
	Body          *Buffer
	BodyTruncated bool  // decoding stopped at MaxDecodedSize
	DecodeErr     error // unsupported or corrupt content coding; Body then holds what decoded

	MediaType string // lowercase type/subtype from Content-Type, sniffed when absent
	Charset   string // detected character set of a text body ("utf-8", "shift_jis" …)
	encoding  encoding.Encoding

	// Location is the resolved Location of a redirect (3xx); its Href is ""
	// when there is none or it cannot be resolved.
	Location canon.URL
	// RetryAfter is the parsed Retry-After (429, 503, 3xx); HasRetryAfter
	// tells a zero delay from none.
	RetryAfter    time.Duration
	HasRetryAfter bool
}

// Annotations returns the Heritrix crawl.log annotations this fetch earns:
// "lenTrunc", "timeTrunc" or "midFetchTrunc" for a cut body.
func (r *Result) Annotations() []string {
	switch r.Truncated {
	case TruncatedLength:
		return []string{"lenTrunc"}
	case TruncatedTime:
		return []string{"timeTrunc"}
	case TruncatedDisconnect:
		return []string{"midFetchTrunc"}
	}
	return nil
}

// Close releases the result's buffers and temporary files.
func (r *Result) Close() error {
	var errs []error
	seen := make(map[*Buffer]bool, 3)
	for _, b := range []*Buffer{r.Request, r.Response, r.Body} {
		if b != nil && !seen[b] {
			seen[b] = true
			errs = append(errs, b.Close())
		}
	}
	r.Request, r.Response, r.Body = nil, nil, nil
	return errors.Join(errs...)
}

// copyPool recycles the read buffer of the body loop.
var copyPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// Fetch fetches one URL. It always returns a Result, never following a
// redirect; failures are in Result.Status and Result.Err.
func (f *Fetcher) Fetch(ctx context.Context, req Request) *Result {
	res := &Result{URL: req.URL, Start: time.Now()}
	defer func() { res.Duration = time.Since(res.Start) }()
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" || req.URL.Host == "" {
		res.Status = StatusUnfetchable
		res.Err = fmt.Errorf("fetch: %s: only http and https URLs with a host can be fetched", req.URL.Href)
		return res
	}

	ctx, cancelTotal := context.WithTimeoutCause(ctx, f.cfg.TotalTimeout, errTotalTimeout)
	defer cancelTotal()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	rec := &recorder{
		req:  newBuffer(f.cfg.MemoryLimit, f.cfg.TempDir),
		resp: newBuffer(f.cfg.MemoryLimit, f.cfg.TempDir),
		max:  f.cfg.MaxBodySize + 2<<20, // body limit plus header and read-ahead room
	}
	trace := &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) { rec.bind(info.Conn) }}
	hreq, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), http.MethodGet, req.URL.Href, nil)
	if err != nil {
		rec.finish()
		rec.req.Close()
		rec.resp.Close()
		res.Status = StatusUnfetchable
		res.Err = fmt.Errorf("fetch: %s: %w", req.URL.Href, err)
		return res
	}
	f.setHeaders(hreq, req)

	resp, err := f.tr.RoundTrip(hreq)
	if err != nil {
		rec.finish()
		res.Status = classify(err, context.Cause(ctx))
		res.Err = fmt.Errorf("fetch: %s: %w", req.URL.Href, errCause(err, ctx))
		res.Request = keep(rec.req)
		rec.resp.Close()
		return res
	}
	res.Status, res.Proto, res.Header = resp.StatusCode, resp.Proto, resp.Header
	entity := newBuffer(f.cfg.MemoryLimit, f.cfg.TempDir)
	if req.SkipBody != nil && req.SkipBody(resp.StatusCode, resp.Header) {
		res.BodySkipped = true
	} else {
		f.readBody(ctx, cancel, resp, entity, res)
	}
	resp.Body.Close()
	rec.finish()

	if rec.remote != nil {
		if a, ok := rec.remote.(*net.TCPAddr); ok {
			res.IP = a.IP.String()
		} else {
			res.IP = rec.remote.String()
		}
	}
	if rec.h2 {
		rec.req.Close()
		rec.resp.Close()
		res.Request, res.Response, err = f.synthesize(hreq, resp, entity)
	} else {
		res.Request, res.Response, err = rec.req, rec.resp, rec.err
	}
	if err != nil && res.Err == nil {
		res.Err = fmt.Errorf("fetch: %s: recording: %w", req.URL.Href, err)
	}
	f.analyse(res, entity)
	return res
}

// keep returns b when it holds anything and closes it otherwise.
func keep(b *Buffer) *Buffer {
	if b.Size() == 0 {
		b.Close()
		return nil
	}
	return b
}

// errCause prefers our own timeout errors to the "context canceled" they cause.
func errCause(err error, ctx context.Context) error {
	if c := context.Cause(ctx); errors.Is(c, errTotalTimeout) || errors.Is(c, errReadIdle) || errors.Is(c, errTooSlow) {
		return c
	}
	return err
}

func (f *Fetcher) setHeaders(hreq *http.Request, req Request) {
	h := hreq.Header
	for k, vs := range req.Header {
		h[k] = append([]string(nil), vs...)
	}
	h.Set("User-Agent", f.cfg.UserAgent)
	if h.Get("Accept") == "" {
		h.Set("Accept", DefaultAccept)
	}
	h.Set("Accept-Encoding", "gzip, deflate") // the codings analyse can undo
	if req.Via != "" {
		h.Set("Referer", req.Via)
	}
	if req.IfNoneMatch != "" {
		h.Set("If-None-Match", req.IfNoneMatch)
	}
	if req.IfModifiedSince != "" {
		h.Set("If-Modified-Since", req.IfModifiedSince)
	}
}

// readBody copies the entity into dst up to MaxBodySize, digesting it, with a
// read-idle timer that cancels the fetch when the server stalls and, with
// Config.MinRate, a rate check that cuts a body trickling in more slowly
// (checked as bytes arrive: a gap longer than the idle timeout is the idle
// timer's).
func (f *Fetcher) readBody(ctx context.Context, cancel context.CancelCauseFunc, resp *http.Response, dst *Buffer, res *Result) {
	idle := time.AfterFunc(f.cfg.ReadIdleTimeout, func() { cancel(errReadIdle) })
	defer idle.Stop()
	window, windowStart, windowBytes := f.cfg.MinRateWindow, time.Now(), int64(0)
	bp := copyPool.Get().(*[]byte)
	defer copyPool.Put(bp)
	buf := *bp
	h := sha1.New()
	limit := f.cfg.MaxBodySize
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			idle.Reset(f.cfg.ReadIdleTimeout)
			p := buf[:n]
			if rest := limit - res.ContentLength; int64(n) > rest {
				p = p[:rest]
				res.Truncated = TruncatedLength
				res.Err = fmt.Errorf("fetch: %s: body longer than %d bytes", res.URL.Href, limit)
			}
			h.Write(p)
			if _, werr := dst.Write(p); werr != nil && res.Err == nil {
				res.Err = werr
			}
			res.ContentLength += int64(len(p))
			if res.Truncated != "" {
				break
			}
			if f.cfg.MinRate > 0 {
				if since := time.Since(windowStart); since >= window {
					if got := res.ContentLength - windowBytes; float64(got) < f.cfg.MinRate*since.Seconds() {
						cancel(errTooSlow)
						res.Truncated = TruncatedTime
						res.Err = fmt.Errorf("fetch: %s: body cut after %d bytes: %w (%d bytes in %v, under %.0f bytes/s)",
							res.URL.Href, res.ContentLength, errTooSlow, got, since.Round(time.Millisecond), f.cfg.MinRate)
						break
					}
					windowStart, windowBytes = time.Now(), res.ContentLength
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			cause := context.Cause(ctx)
			if errors.Is(cause, errTotalTimeout) || errors.Is(cause, errReadIdle) || errors.Is(cause, errTooSlow) {
				res.Truncated = TruncatedTime
			} else {
				res.Truncated = TruncatedDisconnect
			}
			res.Err = fmt.Errorf("fetch: %s: body cut after %d bytes: %w", res.URL.Href, res.ContentLength, errCause(err, ctx))
			break
		}
	}
	res.Digest = "sha1:" + base32.StdEncoding.EncodeToString(h.Sum(nil))
}
