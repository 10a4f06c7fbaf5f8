package eval

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mneme-archive/mneme/rdf"
)

// spillFile is a temporary file of records, each a row of IDs and
// optionally some terms: where DISTINCT, GROUP BY and ORDER BY put what
// does not fit in memory. The file is unlinked as soon as it is created,
// so nothing is left behind even if the process dies.
type spillFile struct {
	ex  *Exec
	f   *os.File
	w   *bufio.Writer
	n   int
	buf []byte
}

func (ex *Exec) newSpill() (*spillFile, error) {
	f, err := os.CreateTemp(ex.TempDir, "mneme-spill-*")
	if err != nil {
		return nil, fmt.Errorf("spilling query rows to disk: %w", err)
	}
	_ = os.Remove(f.Name())
	return &spillFile{ex: ex, f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// write appends a record: seq (an ordering tie-breaker, 0 when unused),
// the row, and the terms.
func (s *spillFile) write(seq uint64, row []ID, terms []rdf.Term) error {
	b := binary.AppendUvarint(s.buf[:0], seq)
	b = binary.AppendUvarint(b, uint64(len(row)))
	for _, id := range row {
		b = binary.LittleEndian.AppendUint64(b, uint64(id))
	}
	b = binary.AppendUvarint(b, uint64(len(terms)))
	for _, t := range terms {
		b = append(b, byte(t.Kind))
		for _, str := range [3]string{t.Value, t.Datatype, t.Lang} {
			b = binary.AppendUvarint(b, uint64(len(str)))
			b = append(b, str...)
		}
	}
	s.buf = b
	s.n++
	if _, err := s.w.Write(b); err != nil {
		return fmt.Errorf("spilling query rows to disk: %w", err)
	}
	return nil
}

// reader finishes writing and reads the records back from the start.
func (s *spillFile) reader() (*spillReader, error) {
	if err := s.w.Flush(); err != nil {
		return nil, fmt.Errorf("spilling query rows to disk: %w", err)
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return &spillReader{ex: s.ex, s: s, r: bufio.NewReaderSize(s.f, 64<<10)}, nil
}

func (s *spillFile) close() { _ = s.f.Close() }

// spillReader reads a spillFile's records back in order.
type spillReader struct {
	ex  *Exec
	s   *spillFile
	r   *bufio.Reader
	buf []byte
}

var errSpillCorrupt = errors.New("reading spilled query rows: corrupt record")

// next returns the next record; row is nil at the end. terms is reused
// by the next call.
func (r *spillReader) next(terms []rdf.Term) (seq uint64, row []ID, _ []rdf.Term, err error) {
	seq, err = binary.ReadUvarint(r.r)
	if errors.Is(err, io.EOF) {
		return 0, nil, terms, nil
	}
	if err != nil {
		return 0, nil, terms, err
	}
	n, err := binary.ReadUvarint(r.r)
	if err != nil || n > 1<<20 {
		return 0, nil, terms, errSpillCorrupt
	}
	row = r.ex.newRow(nil)
	if int(n) > len(row) {
		row = make([]ID, n)
	}
	var b [8]byte
	for i := range int(n) {
		if _, err := io.ReadFull(r.r, b[:]); err != nil {
			return 0, nil, terms, errSpillCorrupt
		}
		row[i] = ID(binary.LittleEndian.Uint64(b[:]))
	}
	nt, err := binary.ReadUvarint(r.r)
	if err != nil || nt > 1<<20 {
		return 0, nil, terms, errSpillCorrupt
	}
	terms = terms[:0]
	for range nt {
		kind, err := r.r.ReadByte()
		if err != nil {
			return 0, nil, terms, errSpillCorrupt
		}
		var strs [3]string
		for i := range strs {
			l, err := binary.ReadUvarint(r.r)
			if err != nil || l > 1<<31 {
				return 0, nil, terms, errSpillCorrupt
			}
			r.buf = append(r.buf[:0], make([]byte, l)...)
			if _, err := io.ReadFull(r.r, r.buf); err != nil {
				return 0, nil, terms, errSpillCorrupt
			}
			strs[i] = string(r.buf)
		}
		terms = append(terms, rdf.Term{Kind: rdf.Kind(kind), Value: strs[0], Datatype: strs[1], Lang: strs[2]})
	}
	return seq, row, terms, nil
}

// spillIter yields the rows of a spill file, closing it at the end.
type spillIter struct{ r *spillReader }

func (s *spillIter) next() ([]ID, error) {
	_, row, _, err := s.r.next(nil)
	return row, err
}

func (s *spillIter) close() { s.r.s.close() }

// rowsIter reads s back as an iter.
func (s *spillFile) rowsIter() (iter, error) {
	r, err := s.reader()
	if err != nil {
		s.close()
		return nil, err
	}
	return &spillIter{r: r}, nil
}

// full reports whether the rows held in memory reached the bound.
func (ex *Exec) full() bool { return ex.memRows >= ex.maxRows() }
