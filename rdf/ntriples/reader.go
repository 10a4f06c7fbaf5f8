package ntriples

import (
	"errors"
	"fmt"
	"io"

	"github.com/mneme-archive/mneme/rdf"
)

// Reader streams the statements of an N-Triples or N-Quads document. It
// implements rdf.Reader: the quads it returns are valid until the next
// call of Next, and after a syntax error Next goes on with the next line.
type Reader struct {
	chunks *Chunker
	p      *ChunkParser
	done   bool
}

// NewReader returns a reader of the N-Triples document r.
func NewReader(r io.Reader, opts rdf.ParseOptions) *Reader {
	return newReader(r, NTriples, opts)
}

// NewQuadReader returns a reader of the N-Quads document r.
func NewQuadReader(r io.Reader, opts rdf.ParseOptions) *Reader {
	return newReader(r, NQuads, opts)
}

func newReader(r io.Reader, s Syntax, opts rdf.ParseOptions) *Reader {
	return &Reader{chunks: NewChunker(r), p: NewChunkParser(s, opts)}
}

// Next returns the next statement, io.EOF at the end of the input, a
// *rdf.ParseError for a syntax error, or the error of the underlying
// reader.
func (r *Reader) Next() (rdf.Quad, error) {
	for {
		q, err := r.p.Next()
		if err != io.EOF || r.done {
			return q, err
		}
		chunk, err := r.chunks.Next()
		switch {
		case err == nil:
			r.p.Reset(chunk, r.p.Line())
		case err == io.EOF:
			r.done = true
		case errors.Is(err, ErrLineTooLong):
			line := r.p.Line()
			if err := r.chunks.SkipLine(); err != nil {
				return rdf.Quad{}, r.readError(err)
			}
			return rdf.Quad{}, &rdf.ParseError{Name: r.p.name, Line: line, Col: 1,
				Msg: fmt.Sprintf("line longer than %d bytes: skipped", r.chunks.max)}
		default:
			return rdf.Quad{}, r.readError(err)
		}
	}
}

func (r *Reader) readError(err error) error {
	if r.p.name == "" {
		return err
	}
	return fmt.Errorf("%s: %w", r.p.name, err)
}
