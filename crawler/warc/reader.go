package warc

import (
	"bufio"
	"errors"
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

// Reader iterates the records of a gzip-per-record WARC stream. Parsing is
// gowarc's, told to take the header exactly as written (no fixing of fields);
// any syntax error or spec violation it finds (a wrong block digest, a missing
// end-of-record marker, a malformed field) fails the record.
type Reader struct {
	name string
	cr   *countReader
	br   *bufio.Reader
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
// short, a bad gzip member or a malformed header is an error naming the
// offset of the member.
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
	if magic, _ := r.br.Peek(2); len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return fail(errors.New("not the start of a gzip member"))
	}
	rec, _, validation, err := r.u.Unmarshal(r.br)
	if err != nil {
		if rec != nil {
			rec.Close()
		}
		return fail(err)
	}
	out := &Record{Version: rec.Version().String(), Offset: start}
	for _, nv := range *rec.WarcHeader() {
		out.Header = append(out.Header, Field{nv.Name, nv.Value})
	}
	raw, err := rec.Block().RawBytes()
	if err == nil {
		out.Block, err = io.ReadAll(raw)
	}
	if cerr := rec.Close(); err == nil {
		err = cerr // the end-of-record marker and the gzip trailer are checked here
	}
	if err == nil && !validation.Valid() {
		err = validation
	}
	if err != nil {
		return fail(err)
	}
	if want, herr := rec.ContentLength(); herr != nil || want != int64(len(out.Block)) {
		return fail(fmt.Errorf("block has %d bytes, Content-Length says %q", len(out.Block), out.Header.Get("Content-Length")))
	}
	out.Length = r.pos() - start
	return out, nil
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
