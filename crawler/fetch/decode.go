package fetch

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mneme-archive/mneme/crawler/canon"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// locationParser resolves Location values; a Canonicalizer is stateless.
var locationParser = canon.New(canon.Options{})

// analyse fills in what the crawl loop and the extractor need from a response
// head and entity: decoded body, media type, charset, redirect target and
// Retry-After.
func (f *Fetcher) analyse(res *Result, entity *Buffer) {
	f.decode(res, entity)

	ct := res.Header.Get("Content-Type")
	res.MediaType = mediaType(ct)
	var head [1024]byte
	n, _ := res.Body.ReadAt(head[:], 0)
	if res.MediaType == "" && res.Body.Size() > 0 {
		res.MediaType = mediaType(http.DetectContentType(head[:n]))
	}
	if isText(res.MediaType) {
		var certain bool
		res.encoding, res.Charset, certain = charset.DetermineEncoding(head[:n], ct)
		// Undeclared and ASCII in its first KB, a page falls back to
		// windows-1252, which would garble UTF-8 further on: look at the whole
		// body when it is at hand.
		if !certain && res.Charset == "windows-1252" {
			if b, ok := res.Body.Bytes(); ok && utf8.Valid(b) {
				res.encoding, res.Charset = encoding.Nop, "utf-8"
			}
		}
	}

	if loc := res.Header.Get("Location"); loc != "" && res.Status >= 300 && res.Status < 400 {
		if u, err := locationParser.Resolve(res.URL, loc); err == nil {
			res.Location = u
		} else if res.Err == nil {
			res.Err = fmt.Errorf("fetch: %s: redirect: %w", res.URL.Href, err)
		}
	}
	if ra := res.Header.Get("Retry-After"); ra != "" {
		date, _ := http.ParseTime(res.Header.Get("Date"))
		res.RetryAfter, res.HasRetryAfter = ParseRetryAfter(ra, date, time.Now())
	}
}

// mediaType returns the lowercase "type/subtype" of a Content-Type value.
func mediaType(ct string) string {
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.ToLower(strings.TrimSpace(ct))
}

// isText reports whether a media type is character data worth decoding.
func isText(mt string) bool {
	switch {
	case strings.HasPrefix(mt, "text/"), strings.HasSuffix(mt, "+xml"), strings.HasSuffix(mt, "+json"):
		return true
	}
	switch mt {
	case "application/xml", "application/json", "application/javascript", "application/ecmascript", "application/x-javascript":
		return true
	}
	return false
}

// gzipPool recycles gzip readers, whose window buffers are the costly part.
var gzipPool sync.Pool // *gzip.Reader

// decode removes the content coding of the entity into res.Body, keeping at
// most MaxDecodedSize bytes so that a small bomb cannot fill the disk.
func (f *Fetcher) decode(res *Result, entity *Buffer) {
	coding := strings.ToLower(strings.TrimSpace(res.Header.Get("Content-Encoding")))
	if coding == "" || coding == "identity" {
		res.Body = entity // already bounded by MaxBodySize
		return
	}
	var (
		dec     io.Reader
		release func()
		err     error
	)
	src := bufio.NewReader(entity.Reader())
	switch coding {
	case "gzip", "x-gzip":
		var zr *gzip.Reader
		if v := gzipPool.Get(); v != nil {
			zr = v.(*gzip.Reader)
			err = zr.Reset(src)
		} else {
			zr, err = gzip.NewReader(src)
		}
		dec, release = zr, func() { gzipPool.Put(zr) }
	case "deflate":
		// RFC 9110's deflate is zlib-wrapped, but many servers send raw deflate.
		if b, perr := src.Peek(2); perr == nil && (uint16(b[0])<<8|uint16(b[1]))%31 == 0 && b[0]&0x0f == 8 {
			dec, err = zlib.NewReader(src)
		} else {
			fr := flate.NewReader(src)
			dec, release = fr, func() { fr.Close() }
		}
	default:
		err = fmt.Errorf("unsupported content coding %q", coding)
	}
	if err != nil {
		res.Body = entity
		res.DecodeErr = fmt.Errorf("fetch: %s: %w", res.URL.Href, err)
		return
	}
	body := newBuffer(f.cfg.MemoryLimit, f.cfg.TempDir)
	n, err := io.Copy(body, io.LimitReader(dec, f.cfg.MaxDecodedSize))
	if err == nil && n == f.cfg.MaxDecodedSize {
		var one [1]byte
		if k, _ := io.ReadFull(dec, one[:]); k > 0 {
			res.BodyTruncated = true
		}
	}
	if release != nil {
		release()
	}
	if err != nil && !(res.Truncated != "" && errors.Is(err, io.ErrUnexpectedEOF)) {
		res.DecodeErr = fmt.Errorf("fetch: %s: %s body: %w", res.URL.Href, coding, err)
	}
	entity.Close()
	res.Body = body
}

// Encoding returns the detected character encoding of a text body, nil for
// other media types.
func (r *Result) Encoding() encoding.Encoding { return r.encoding }

// Text returns the body decoded to UTF-8 for a text media type (invalid
// sequences become U+FFFD). A UTF-8 body, and any non-text body, comes back
// unchanged, invalid bytes included: decoding it would only cost time.
func (r *Result) Text() io.Reader {
	if r.Body == nil {
		return strings.NewReader("")
	}
	body := r.Body.Reader()
	if r.encoding == nil || r.Charset == "utf-8" {
		return body
	}
	return transform.NewReader(body, r.encoding.NewDecoder())
}

// TextBytes returns what Text reads, in a slice of its own.
func (r *Result) TextBytes() ([]byte, error) {
	if r.Body != nil && (r.encoding == nil || r.Charset == "utf-8") {
		if b, ok := r.Body.Bytes(); ok {
			return bytes.Clone(b), nil
		}
	}
	return io.ReadAll(r.Text())
}
