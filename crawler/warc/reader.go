package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"

	"github.com/nlnwa/gowarc"
)

// Record is one record read back from a WARC file.
type Record struct {
	Version string // e.g. "WARC/1.1"
	Header  Fields // WARC header fields in file order
	Block   []byte // the record block
	Offset  int64  // offset of the record's gzip member in the file
	Length  int64  // compressed length of the member
}

// Type returns the WARC-Type.
func (r *Record) Type() string { return r.Header.Get("WARC-Type") }

// Reader iterates the records of a gzip-per-record WARC stream.
//
// Each gzip member is inflated whole first, so that a member cut short or
// corrupted is caught here (gowarc v1.6.0's unmarshaler panics on a gzip stream
// that ends mid-header). The complete member is then parsed by gowarc, told to
// take the header exactly as written (no fixing of fields); any syntax error or
// spec violation it finds (a wrong block digest, a missing end-of-record
// marker, a malformed field) fails the record, as do bytes after the record
// inside its member.
type Reader struct {
	name string
	cr   *countReader
	br   *bufio.Reader
	zr   *gzip.Reader
	u    gowarc.Unmarshaler
}

// NewReader reads records from r; name labels errors.
func NewReader(r io.Reader, name string) *Reader {
	cr := &countReader{r: r}
	return &Reader{
		name: name,
		cr:   cr,
		br:   bufio.NewReaderSize(cr, 256<<10),
		u: gowarc.NewUnmarshaler(
			gowarc.WithSyntaxErrorPolicy(gowarc.ErrFail),
			gowarc.WithSpecViolationPolicy(gowarc.ErrWarn),
			gowarc.WithUnknownRecordTypePolicy(gowarc.ErrIgnore),
			gowarc.WithSkipParseBlock(),
			gowarc.WithAddMissingDigest(false),
			gowarc.WithFixContentLength(false),
			gowarc.WithFixDigest(false),
			gowarc.WithFixSyntaxErrors(false),
		),
	}
}

// pos is the file offset of the next unread byte.
func (r *Reader) pos() int64 { return r.cr.n - int64(r.br.Buffered()) }

// Next returns the next record, or io.EOF after the last one. A record cut
// short, a bad gzip member or a malformed record is an error naming the
// offset of its member.
func (r *Reader) Next() (*Record, error) {
	start := r.pos()
	if _, err := r.br.Peek(1); err == io.EOF {
		return nil, io.EOF
	}
	fail := func(err error) (*Record, error) {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("warc: %s: record at offset %d: %w", r.name, start, err)
	}
	member, err := r.inflate()
	if err != nil {
		return fail(err)
	}
	length := r.pos() - start
	rest := bytes.NewReader(member)
	mr := bufio.NewReader(rest)
	rec, _, validation, err := r.u.Unmarshal(mr)
	if err != nil {
		if rec != nil {
			rec.Close()
		}
		return fail(err)
	}
	out := &Record{Version: rec.Version().String(), Offset: start, Length: length}
	for _, nv := range *rec.WarcHeader() {
		out.Header = append(out.Header, Field{nv.Name, nv.Value})
	}
	raw, err := rec.Block().RawBytes()
	if err == nil {
		out.Block, err = io.ReadAll(raw)
	}
	if cerr := rec.Close(); err == nil {
		err = cerr // the end-of-record marker is checked here
	}
	if err == nil && !validation.Valid() {
		err = validation
	}
	if err == nil && mr.Buffered()+rest.Len() > 0 {
		err = fmt.Errorf("%d bytes follow the record in its gzip member", mr.Buffered()+rest.Len())
	}
	if err != nil {
		return fail(err)
	}
	if want, herr := rec.ContentLength(); herr != nil || want != int64(len(out.Block)) {
		return fail(fmt.Errorf("block has %d bytes, Content-Length says %q", len(out.Block), out.Header.Get("Content-Length")))
	}
	return out, nil
}

// inflate reads one whole gzip member, trailer and checksum included.
func (r *Reader) inflate() ([]byte, error) {
	var err error
	if r.zr == nil {
		r.zr, err = gzip.NewReader(r.br)
	} else {
		err = r.zr.Reset(r.br)
	}
	if err != nil {
		return nil, fmt.Errorf("not a gzip member: %w", err)
	}
	r.zr.Multistream(false)
	b, err := io.ReadAll(r.zr)
	if err != nil {
		return nil, fmt.Errorf("gzip member: %w", err)
	}
	return b, nil
}

// ReadFile returns every record of the WARC file at path.
func ReadFile(path string) ([]*Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("warc: %w", err)
	}
	defer f.Close()
	var out []*Record
	r := NewReader(f, path)
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, rec)
	}
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
