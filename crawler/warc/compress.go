package warc

import (
	"bytes"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
)

// maxBuffered is the largest record block compressed in memory, outside the
// writer's lock; larger blocks are compressed straight into the file under
// it, so memory stays bounded whatever the size of a record.
const maxBuffered = 4 << 20

// freeMembers recycles the buffers records are compressed into; like the
// compressors, they are kept across garbage collections.
var freeMembers = make(chan *bytes.Buffer, 64)

func getMember() *bytes.Buffer {
	select {
	case b := <-freeMembers:
		return b
	default:
		return new(bytes.Buffer)
	}
}

func putMember(b *bytes.Buffer) {
	if b == nil || b.Cap() > 2*maxBuffered {
		return
	}
	b.Reset()
	select {
	case freeMembers <- b:
	default:
	}
}

// compressAll compresses each record of at most maxBuffered bytes into its
// own gzip member in members, reusing the buffers already there; larger ones
// are left nil for appendMember to stream.
func (w *Writer) compressAll(members []*bytes.Buffer, recs []record, infoID string) error {
	for i, r := range recs {
		if r.block.Size() > maxBuffered {
			continue
		}
		if members[i] == nil {
			members[i] = getMember()
		}
		members[i].Reset()
		if err := w.compress(members[i], r, infoID); err != nil {
			return err
		}
	}
	return nil
}

// compressor is a gzip writer at the writer's level, one that stores
// (Config.StoreSmall), and the buffer record headers are rendered into, all
// reused from record to record.
type compressor struct {
	gz, store *gzip.Writer
	head      []byte
}

// compress writes one record as a gzip member to dst.
func (w *Writer) compress(dst io.Writer, r record, infoID string) error {
	c := <-w.gzs
	defer func() { w.gzs <- c }()
	c.head = r.appendHeader(c.head[:0], infoID)
	gz := c.gz
	if int64(len(c.head))+r.block.Size()+4 <= int64(w.cfg.StoreSmall) {
		gz = c.store
	}
	gz.Reset(dst)
	if _, err := gz.Write(c.head); err != nil {
		return err
	}
	if err := copyContent(gz, r.block); err != nil {
		return fmt.Errorf("reading block of %s: %w", r.id, err)
	}
	if _, err := gz.Write([]byte("\r\n\r\n")); err != nil {
		return err
	}
	return gz.Close()
}

// appendMember appends a record to the file: its compressed member, or when
// there is none (a large record) the record compressed on the way.
func (w *Writer) appendMember(r record, member *bytes.Buffer) (Location, error) {
	var n int64
	if member != nil {
		m, err := w.bw.Write(member.Bytes())
		if err != nil {
			return Location{}, err
		}
		n = int64(m)
	} else {
		cw := &countWriter{w: w.bw}
		if err := w.compress(cw, r, w.infoID); err != nil {
			return Location{}, err
		}
		n = cw.n
	}
	loc := Location{File: w.name, Offset: w.size, Length: n, RecordID: r.id}
	w.size += n
	return loc, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
