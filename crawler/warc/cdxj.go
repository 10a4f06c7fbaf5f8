package warc

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// CDXJ lines follow pywb's format, "urlkey timestamp14 {json}", and are exactly
// what warcio.js 2.4.11's cdx-index prints for the same file (it prints them in
// file order; ours are sorted bytewise, as pywb expects). Which records are
// indexed and how a response is paired with its request mirror warcio.js.

// cdxItem is what indexing needs of a record; blocks are not kept.
type cdxItem struct {
	typ, uri, date, warcType string
	payloadDigest            string
	status, mime             string // from the HTTP header; "" when absent
	hasStatus                bool
	method                   string // request line method, for requests
	reqBody                  []byte // request payload, for non-GET requests
	reqMime                  string
	offset, length           int64
}

// maxQuerySize is warcio.js's DEFAULT_MAX_QUERY_SIZE for non-GET request bodies.
const maxQuerySize = 4096

// reqBodyIndexed is as much of a request body as the key can show: its base64
// form is cut to maxQuerySize characters.
const reqBodyIndexed = maxQuerySize / 4 * 3

// indexHead returns as much of a block as indexing reads, for a record of
// type typ: nothing but for HTTP messages, then their head and, for requests,
// the first reqBodyIndexed bytes of the body. It fails when the head is not
// within maxHTTPHeader bytes, a record indexed by reading the file back.
func indexHead(typ string, c Content) ([]byte, error) {
	if typ != "response" && typ != "request" && typ != "revisit" {
		return nil, nil
	}
	extra := 0
	if typ == "request" {
		extra = reqBodyIndexed
	}
	for n := min(c.Size(), 4<<10); ; n = min(c.Size(), n*4) {
		buf := make([]byte, n)
		if _, err := c.ReadAt(buf, 0); err != nil && err != io.EOF {
			return nil, err
		}
		if i := bytes.Index(buf, []byte("\r\n\r\n")); i >= 0 && i+4+extra <= len(buf) {
			return buf[:i+4+extra], nil
		}
		if n == c.Size() {
			return buf, nil
		}
		if n >= maxHTTPHeader {
			return nil, errNoHeaderEnd
		}
	}
}

// tsReplacer turns a WARC-Date into the digits of a CDXJ timestamp.
var tsReplacer = strings.NewReplacer("-", "", ":", "", "T", "")

// IndexFile returns the sorted CDXJ lines of the WARC file at path, all
// in memory (WriteIndex writes them in bounded memory).
func IndexFile(path string) ([]string, error) {
	var x indexer
	if err := readIndex(path, &x, nil); err != nil {
		return nil, err
	}
	return x.lines(filepath.Base(path))
}

// Skip tells WriteIndexExcept which records to leave out, by their
// offset and header.
type Skip func(offset int64, h Fields) bool

// readIndex adds the records of the WARC file at path to x.
func readIndex(path string, x *indexer, skip Skip) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("warc: %w", err)
	}
	defer f.Close()
	r := NewReader(f, path)
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if skip != nil && skip(rec.Offset, rec.Header) {
			continue
		}
		it := summarize(rec.Header, rec.Block)
		it.offset, it.length = rec.Offset, rec.Length
		x.add(it)
	}
}

// indexer pairs records in file order the way warcio.js does (a response
// with the request before or after it for the same URI) and renders the
// sorted CDXJ lines of the file at the end. The Writer feeds it as it
// writes, which saves reading the file back. With spill set, it hands
// over its entries whenever chunk of them have gathered, so that it holds
// no more than that.
type indexer struct {
	pairs  [][2]*cdxItem // an indexed record and its request, if any
	last   *cdxItem      // the record waiting for its pair
	reread bool          // a record could not be summarised as written: index the file by reading it
	chunk  int
	spill  func([][2]*cdxItem)
}

func (x *indexer) add(cur *cdxItem) {
	prev := x.last
	x.last = cur
	switch {
	case prev == nil:
	case prev.uri != cur.uri:
		x.emit(prev, nil)
	case cur.typ == "request" && (prev.typ == "response" || prev.typ == "revisit"):
		x.last = nil
		x.emit(prev, cur)
	case (cur.typ == "response" || cur.typ == "revisit") && prev.typ == "request":
		x.last = nil
		x.emit(cur, prev)
	default:
		x.emit(prev, nil)
	}
}

func (x *indexer) emit(rec, req *cdxItem) {
	if rec != nil && indexed(rec) {
		x.pairs = append(x.pairs, [2]*cdxItem{rec, req})
		if x.spill != nil && len(x.pairs) >= x.chunk {
			x.spill(x.pairs)
			x.pairs = nil
		}
	}
}

// lines renders the sorted CDXJ lines of the records added (but those
// spilled), for the file called file.
func (x *indexer) lines(file string) ([]string, error) {
	x.emit(x.last, nil)
	x.last = nil
	return renderLines(x.pairs, file)
}

// renderLines renders the sorted CDXJ lines of pairs, for the file called
// file.
func renderLines(pairs [][2]*cdxItem, file string) ([]string, error) {
	// The lines of a file's last entries are rendered when it is finished,
	// which for the last file is while the crawl waits to end: on every core.
	lines := make([]string, len(pairs))
	parts := min(runtime.GOMAXPROCS(0), 1+len(pairs)/1024)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for part := range parts {
		lo, hi := part*len(lines)/parts, (part+1)*len(lines)/parts
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				p := pairs[i]
				if lines[i], errs[part] = cdxLine(p[0], p[1], file); errs[part] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	sort.Strings(lines)
	return lines, nil
}

// WriteIndex writes the CDXJ of the WARC file at path beside it, as
// name-without-.warc.gz + ".cdxj", replacing the old index atomically. Its
// memory is bounded: entries beyond a chunk wait in sorted run files.
func WriteIndex(path string) error {
	return writeIndexChunked(path, defaultIndexChunk, nil)
}

// WriteIndexExcept is WriteIndex leaving out the records skip names: a
// resumed crawl's records that were never committed (see package
// crawler) stay in the file but out of its index.
func WriteIndexExcept(path string, skip Skip) error {
	return writeIndexChunked(path, defaultIndexChunk, skip)
}

func writeIndexChunked(path string, chunk int, skip Skip) error {
	file := filepath.Base(path)
	runs := &cdxRuns{path: path}
	x := indexer{chunk: chunk, spill: func(pairs [][2]*cdxItem) {
		if runs.err == nil {
			runs.err = runs.add(pairs, file)
		}
	}}
	err := readIndex(path, &x, skip)
	if err == nil {
		err = runs.err
	}
	var lines []string
	if err == nil {
		lines, err = x.lines(file)
	}
	if err != nil {
		runs.remove()
		return err
	}
	return runs.write(lines)
}

// writeIndexFrom writes the CDXJ lines next returns, in order, as the
// index of the WARC file at path.
func writeIndexFrom(path string, next func() (string, bool, error)) error {
	out := IndexPath(path)
	tmp, err := os.CreateTemp(filepath.Dir(out), filepath.Base(out)+".tmp*")
	if err != nil {
		return fmt.Errorf("warc: %w", err)
	}
	bw := bufio.NewWriter(tmp)
	for {
		l, ok, nerr := next()
		if nerr != nil || !ok {
			err = nerr
			break
		}
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), out)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("warc: writing index of %s: %w", path, err)
	}
	return nil
}

// IndexPath is where WriteIndex puts the CDXJ of the WARC file at path.
func IndexPath(path string) string {
	return strings.TrimSuffix(path, ".warc.gz") + ".cdxj"
}

// indexed is warcio.js's filter: no requests, warcinfo or warc-fields records.
func indexed(it *cdxItem) bool {
	switch it.typ {
	case "request", "warcinfo":
		return false
	case "metadata", "resource":
		return it.warcType != ctWarcFields
	}
	return true
}

// summarize takes what indexing needs from a record's header and block; the
// block may be cut short after indexHead bytes. The caller sets the offset
// and length.
func summarize(h Fields, block []byte) *cdxItem {
	it := &cdxItem{
		typ:           h.Get("WARC-Type"),
		uri:           h.Get("WARC-Target-URI"),
		date:          h.Get("WARC-Date"),
		warcType:      h.Get("Content-Type"),
		payloadDigest: h.Get("WARC-Payload-Digest"),
	}
	switch {
	case it.typ == "response", it.typ == "request", it.typ == "revisit" && len(block) > 0:
		line, h, body := splitHTTP(block)
		// The index keeps its entries a while: copy what it takes of the
		// head, which would keep the whole head in memory.
		if it.typ == "request" {
			it.method, _, _ = strings.Cut(line, " ")
			it.method = strings.Clone(it.method)
			if it.method != "GET" { // only other methods' bodies go into the key
				it.reqBody = bytes.Clone(body[:min(len(body), reqBodyIndexed)])
			}
			it.reqMime = strings.Clone(h.Get("Content-Type"))
			return it
		}
		it.status, it.hasStatus = jsNumber(splitRemainder(line)), true
		if ct := strings.Join(h.GetAll("Content-Type"), ", "); ct != "" {
			ct, _, _ = strings.Cut(ct, ";")
			it.mime = strings.Clone(strings.TrimSpace(ct))
		}
	}
	return it
}

// splitHTTP parses an HTTP head as warcio.js does: the first line, then fields
// up to the first blank line (folded lines continue a value), then the body.
func splitHTTP(block []byte) (string, Fields, []byte) {
	head, body, found := bytes.Cut(block, []byte("\r\n\r\n"))
	if !found {
		body = nil
	}
	first, rest, _ := strings.Cut(string(head), "\n")
	var fs Fields
	var name, value string
	flush := func() {
		if value != "" {
			fs = append(fs, Field{name, value})
		}
		value = ""
	}
	for _, l := range strings.Split(rest, "\n") {
		if value != "" && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) {
			value += strings.TrimRight(l, " \t\r\n")
			continue
		}
		flush()
		if n, v, ok := strings.Cut(l, ":"); ok {
			name, value = strings.TrimLeft(n, " \t"), strings.TrimSpace(v)
		}
	}
	flush()
	return strings.TrimRight(first, " \t\r\n"), fs, body
}

// splitRemainder returns the second space-separated part of a status line.
func splitRemainder(line string) string {
	parts := strings.SplitN(line, " ", 3)
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}

// jsNumber renders String(Number(s)) for a status code.
func jsNumber(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "0"
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return "NaN"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// cdxLine renders one entry; keys come in warcio.js's order.
func cdxLine(rec, req *cdxItem, file string) (string, error) {
	keyURL := rec.uri
	var extra [][2]string
	if req != nil && req.method != "GET" {
		// warcio.js folds a non-GET request body into the key; this is its
		// encoding for bodies of other types than form, JSON, text and multipart.
		query := "__wb_post_data=" + base64.StdEncoding.EncodeToString(req.reqBody)
		if len(query) > maxQuerySize {
			query = query[:maxQuerySize]
		}
		sep := "?"
		if strings.Index(keyURL, "?") > 0 {
			sep = "&"
		}
		keyURL += sep + "__wb_method=" + req.method + "&" + query
		extra = [][2]string{{"method", req.method}, {"requestBody", query}}
	}
	ts := tsReplacer.Replace(rec.date)
	if len(ts) > 14 {
		ts = ts[:14]
	}
	fields := [][2]string{{"url", rec.uri}}
	mime := rec.mime
	switch rec.typ {
	case "revisit":
		mime = "warc/revisit"
	case "response", "request":
	default:
		mime = rec.warcType
	}
	if mime != "" {
		fields = append(fields, [2]string{"mime", mime})
	}
	if rec.hasStatus {
		fields = append(fields, [2]string{"status", rec.status})
	}
	if _, d, ok := strings.Cut(rec.payloadDigest, ":"); ok {
		fields = append(fields, [2]string{"digest", d})
	}
	fields = append(fields,
		[2]string{"length", strconv.FormatInt(rec.length, 10)},
		[2]string{"offset", strconv.FormatInt(rec.offset, 10)},
		[2]string{"filename", file})
	fields = append(fields, extra...)

	var b bytes.Buffer
	b.WriteString(cdxKey(keyURL) + " " + ts + " {")
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // JSON.stringify leaves <, > and & alone
	str := func(s string) error {
		if err := enc.Encode(s); err != nil {
			return err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
		return nil
	}
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := str(f[0]); err != nil {
			return "", err
		}
		b.WriteByte(':')
		if err := str(f[1]); err != nil {
			return "", err
		}
	}
	b.WriteByte('}')
	return b.String(), nil
}
