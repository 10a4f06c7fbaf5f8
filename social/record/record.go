// Package record archives what a social campaign receives: an
// http.RoundTripper that writes every API request and response as a WARC
// request/response pair (crawler/warc, CDXJ indexed), and resource records
// for data that came otherwise, all with credentials removed (see
// Redactor): no Authorization header, cookie, token or secret value
// reaches a WARC byte, and the exchanges it reports for the campaign log
// and RDF are redacted the same way.
package record

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mneme-archive/mneme/crawler/warc"
)

// DefaultMaxBody is how much of a response body is archived; the rest is
// still handed to the platform, and the record is marked truncated.
const DefaultMaxBody = 64 << 20

// Exchange is one request as the campaign log and RDF see it: redacted.
type Exchange struct {
	Method   string
	URL      string // redacted
	Status   int    // 0 when no response came
	Date     time.Time
	Duration time.Duration
	Bytes    int64  // response body bytes received
	RecordID string // the response record's WARC-Record-ID, without <>; "" when none was written
	File     string // WARC file of the record
	Offset   int64  // and its offset there
	Err      string // what went wrong (redacted): no response, or the body cut short
	sent     string // the URL as sent, to match a platform's Post.Source; never written anywhere
}

// Sent reports whether the exchange was a request for u, as the platform
// named it (with its credentials) or redacted.
func (e Exchange) Sent(u string) bool { return u == e.sent || u == e.URL }

// Recorder is the recording transport.
type Recorder struct {
	next    http.RoundTripper
	w       *warc.Writer
	red     *Redactor
	maxBody int64

	mu  sync.Mutex
	got []Exchange
}

// NewRecorder records the exchanges made through next into w, removing
// what red finds. A nil next is http.DefaultTransport.
func NewRecorder(next http.RoundTripper, w *warc.Writer, red *Redactor) *Recorder {
	if next == nil {
		next = http.DefaultTransport
	}
	return &Recorder{next: next, w: w, red: red, maxBody: DefaultMaxBody}
}

// Take returns the exchanges made since the last call, oldest first.
func (r *Recorder) Take() []Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.got
	r.got = nil
	return out
}

func (r *Recorder) note(e Exchange) {
	r.mu.Lock()
	r.got = append(r.got, e)
	r.mu.Unlock()
}

// RoundTrip sends req, archives the exchange and returns the response with
// its body as received (unredacted: the platform reads it; the runner
// redacts what it stores).
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	ex := Exchange{Method: req.Method, URL: r.red.URL(req.URL), Date: start, sent: req.URL.String()}
	reqBody, err := requestBody(req)
	if err != nil {
		ex.Err = r.red.String(err.Error())
		r.note(ex)
		return nil, err
	}
	resp, err := r.next.RoundTrip(req)
	ex.Duration = time.Since(start)
	if err != nil {
		ex.Err = r.red.String(err.Error())
		r.note(ex)
		return nil, err
	}
	ex.Status = resp.StatusCode
	body, readErr := io.ReadAll(io.LimitReader(resp.Body, r.maxBody+1))
	ex.Duration, ex.Bytes = time.Since(start), int64(len(body))
	truncated := ""
	rest := resp.Body
	switch {
	case readErr != nil:
		truncated = warc.TruncatedDisconnect
		ex.Err = r.red.String(fmt.Sprintf("body cut short after %d bytes: %v", len(body), readErr))
	case int64(len(body)) > r.maxBody:
		truncated = warc.TruncatedLength
		body = body[:r.maxBody]
	}
	capt, werr := r.w.WriteExchange(warc.Exchange{
		URL:       ex.URL,
		Date:      start,
		Request:   bytes.NewReader(r.requestBytes(req, reqBody)),
		Response:  bytes.NewReader(r.responseBytes(resp, body)),
		Truncated: truncated,
	})
	if werr != nil {
		resp.Body.Close()
		ex.Err = r.red.String("archiving: " + werr.Error())
		r.note(ex)
		return nil, fmt.Errorf("archiving %s: %w", ex.URL, werr)
	}
	ex.RecordID = strings.Trim(capt.Response.RecordID, "<>")
	ex.File, ex.Offset = capt.Response.File, capt.Response.Offset
	r.note(ex)
	// The platform reads the body as it came, its failure included.
	var rd io.Reader = bytes.NewReader(body)
	switch {
	case readErr != nil:
		rd = io.MultiReader(rd, errReader{readErr})
	case truncated == warc.TruncatedLength:
		rd = io.MultiReader(rd, rest)
	}
	resp.Body = readCloser{rd, rest}
	if truncated != warc.TruncatedLength {
		rest.Close()
	}
	return resp, nil
}

// requestBody reads a request's body and puts it back for sending.
func requestBody(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	b, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("reading the body of the request to %s: %w", req.URL.Redacted(), err)
	}
	req.Body = io.NopCloser(bytes.NewReader(b))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	return b, nil
}

// requestBytes renders the request as sent, redacted.
func (r *Recorder) requestBytes(req *http.Request, body []byte) []byte {
	var b bytes.Buffer
	target := "/"
	if u, err := url.Parse(r.red.URL(req.URL)); err == nil {
		target = u.RequestURI()
	}
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\n", req.Method, target)
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	fmt.Fprintf(&b, "Host: %s\r\n", host)
	h := r.red.Header(req.Header)
	if len(body) > 0 {
		body = r.red.Bytes(body)
		h.Set("Content-Length", strconv.Itoa(len(body)))
	}
	writeHeader(&b, h)
	b.Write(body)
	return b.Bytes()
}

// responseBytes renders the response as received, redacted: the body is
// the entity as the client library read it (transfer coding removed), so
// the head says its length.
func (r *Recorder) responseBytes(resp *http.Response, body []byte) []byte {
	var b bytes.Buffer
	status := resp.Status
	if status == "" {
		status = strconv.Itoa(resp.StatusCode) + " " + http.StatusText(resp.StatusCode)
	}
	fmt.Fprintf(&b, "HTTP/1.1 %s\r\n", status)
	h := r.red.Header(resp.Header)
	body = r.red.Bytes(body)
	h.Del("Transfer-Encoding")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	writeHeader(&b, h)
	b.Write(body)
	return b.Bytes()
}

// writeHeader writes h in sorted order, then the blank line.
func writeHeader(b *bytes.Buffer, h http.Header) {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, v := range h[name] {
			v = strings.NewReplacer("\r", " ", "\n", " ").Replace(v)
			fmt.Fprintf(b, "%s: %s\r\n", name, v)
		}
	}
	b.WriteString("\r\n")
}

// Resource archives data that did not come as an HTTP exchange, redacted,
// and returns its record id (without <>).
func (r *Recorder) Resource(uri, contentType string, body []byte) (string, error) {
	locs, err := r.w.WriteResources([]warc.Resource{{URI: r.red.String(uri), ContentType: contentType, Body: r.red.Bytes(body)}})
	if err != nil {
		return "", err
	}
	return strings.Trim(locs[0].RecordID, "<>"), nil
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

type readCloser struct {
	io.Reader
	c io.Closer
}

func (rc readCloser) Close() error {
	err := rc.c.Close()
	if errors.Is(err, http.ErrBodyReadAfterClose) {
		return nil
	}
	return err
}
