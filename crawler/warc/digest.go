package warc

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Content is a record block that can be read twice: once for its digests, which
// precede it in the record header, and once to write it. *bytes.Reader,
// *strings.Reader and *io.SectionReader (over a spill file, say) all fit. A
// Content that also has a method Bytes() ([]byte, bool), as crawler/fetch's
// Buffer does, is read straight from that slice whenever Bytes reports true.
type Content interface {
	io.ReaderAt
	Size() int64
}

// inMemory is the optional Content method that exposes the bytes themselves.
type inMemory interface {
	Bytes() ([]byte, bool)
}

// memBlock is a block built in memory, read straight from its bytes.
type memBlock []byte

func (b memBlock) Size() int64           { return int64(len(b)) }
func (b memBlock) Bytes() ([]byte, bool) { return b, true }
func (b memBlock) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("warc: negative offset")
	}
	if off >= int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// copyPool recycles the buffers copyContent reads through.
var copyPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// copyContent writes all of c to dst, from memory when c exposes its bytes.
func copyContent(dst io.Writer, c Content) error {
	if m, ok := c.(inMemory); ok {
		if b, ok := m.Bytes(); ok && int64(len(b)) == c.Size() {
			_, err := dst.Write(b)
			return err
		}
	}
	buf := copyPool.Get().(*[]byte)
	defer copyPool.Put(buf)
	_, err := io.CopyBuffer(dst, sectionOf(c), *buf)
	return err
}

// maxHTTPHeader bounds the HTTP header block we look for in a response.
const maxHTTPHeader = 1 << 20

func sectionOf(c Content) *io.SectionReader { return io.NewSectionReader(c, 0, c.Size()) }

// formatSHA1 renders a digest the way Heritrix does: "sha1:" and base32.
func formatSHA1(h hash.Hash) string {
	return "sha1:" + base32.StdEncoding.EncodeToString(h.Sum(nil))
}

// BlockDigest returns the WARC-Block-Digest of c: sha1 in base32 over all of it.
func BlockDigest(c Content) (string, error) {
	h := sha1.New()
	if err := copyContent(h, c); err != nil {
		return "", fmt.Errorf("warc: block digest: %w", err)
	}
	return formatSHA1(h), nil
}

// PayloadDigest returns the WARC-Payload-Digest of a raw HTTP response: sha1 in
// base32 of its entity body with any chunked transfer coding removed, exactly as
// net/http reads it (content coding such as gzip stays). This is what WARC 1.1
// calls the payload and what internetarchive/gowarc's verifier recomputes. It
// fails when the body cannot be read whole (cut short, or malformed chunking):
// such a response is written without a payload digest and never deduplicated.
func PayloadDigest(resp Content) (string, error) {
	r, err := http.ReadResponse(bufio.NewReader(sectionOf(resp)), nil)
	if err != nil {
		return "", fmt.Errorf("warc: payload digest: response head: %w", err)
	}
	defer r.Body.Close()
	h := sha1.New()
	buf := copyPool.Get().(*[]byte)
	defer copyPool.Put(buf)
	if _, err := io.CopyBuffer(h, r.Body, *buf); err != nil {
		return "", fmt.Errorf("warc: payload digest: body: %w", err)
	}
	return formatSHA1(h), nil
}

// checkSHA1 accepts a digest as formatSHA1 renders it: "sha1:" and the 32
// base32 characters of 20 bytes.
func checkSHA1(d string) error {
	b32, ok := strings.CutPrefix(d, "sha1:")
	if ok && len(b32) == 32 {
		if _, err := base32.StdEncoding.DecodeString(b32); err == nil {
			return nil
		}
	}
	return fmt.Errorf("warc: %q is not a sha1 digest in base32 (\"sha1:\" and 32 characters)", d)
}

// errNoHeaderEnd reports an HTTP message without the blank line that ends its head.
var errNoHeaderEnd = errors.New("no blank line ends the HTTP header")

// httpHeaderLen returns the length of the status line and header fields of a raw
// HTTP message, blank line included.
func httpHeaderLen(c Content) (int64, error) {
	br := bufio.NewReader(io.LimitReader(sectionOf(c), maxHTTPHeader))
	var n int64
	lineStart := true // whether the next read begins a new line
	for {
		line, err := br.ReadSlice('\n')
		n += int64(len(line))
		if err == bufio.ErrBufferFull {
			lineStart = false // a very long header line: read on to its end
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("warc: %w (read %d bytes)", errNoHeaderEnd, n)
		}
		blank := lineStart && len(bytes.TrimRight(line, "\r\n")) == 0
		if blank && n > int64(len(line)) {
			return n, nil
		}
		lineStart = true
	}
}
