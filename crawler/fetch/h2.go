package fetch

import (
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// synthesize writes the HTTP/1.1-style form of an HTTP/2 exchange: request
// line and fields as the Transport sent them (pseudo-headers become the
// request line and Host), status line and fields as received, each sorted by
// name since HPACK keeps no order worth preserving, and the entity as read.
func (f *Fetcher) synthesize(hreq *http.Request, resp *http.Response, entity *Buffer) (req, rsp *Buffer, err error) {
	var b strings.Builder
	b.WriteString(hreq.Method + " " + hreq.URL.RequestURI() + " HTTP/2.0\r\nHost: " + hreq.URL.Host + "\r\n")
	writeFields(&b, hreq.Header)
	b.WriteString("\r\n")
	req = newBuffer(f.cfg.MemoryLimit, f.cfg.TempDir)
	if _, err = io.WriteString(req, b.String()); err != nil {
		return req, nil, err
	}

	b.Reset()
	b.WriteString("HTTP/2.0 " + strconv.Itoa(resp.StatusCode) + " " + http.StatusText(resp.StatusCode) + "\r\n")
	writeFields(&b, resp.Header)
	b.WriteString("\r\n")
	rsp = newBuffer(f.cfg.MemoryLimit, f.cfg.TempDir)
	if _, err = io.WriteString(rsp, b.String()); err != nil {
		return req, rsp, err
	}
	_, err = io.Copy(rsp, entity.Reader())
	return req, rsp, err
}

func writeFields(b *strings.Builder, h http.Header) {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			b.WriteString(k + ": " + strings.NewReplacer("\r", " ", "\n", " ").Replace(v) + "\r\n")
		}
	}
}
