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
)

// Content is a record block that can be read twice: once for its digests, which
// precede it in the record header, and once to write it. *bytes.Reader,
// *strings.Reader and *io.SectionReader (over a spill file, say) all fit.
type Content interface {
	io.ReaderAt
	Size() int64
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
	if _, err := io.Copy(h, sectionOf(c)); err != nil {
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
	if _, err := io.Copy(h, r.Body); err != nil {
		return "", fmt.Errorf("warc: payload digest: body: %w", err)
	}
	return formatSHA1(h), nil
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
