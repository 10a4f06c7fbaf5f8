package ntriples

import (
	"errors"
	"fmt"
	"io"
	"unsafe"

	"github.com/mneme-archive/mneme/rdf"
)

// flushAt is the buffered size at which the writer passes its buffer on.
const flushAt = 64 << 10

// Writer writes quads as N-Triples or N-Quads, one statement per line in
// canonical form (rdf.Term.Append). It buffers its output and allocates
// nothing per quad; Close flushes it.
type Writer struct {
	w      io.Writer
	syntax Syntax
	buf    []byte
	err    error // sticky error of the underlying writer
}

// NewWriter returns a writer of N-Triples to w.
func NewWriter(w io.Writer) *Writer { return newWriter(w, NTriples) }

// NewQuadWriter returns a writer of N-Quads to w.
func NewQuadWriter(w io.Writer) *Writer { return newWriter(w, NQuads) }

func newWriter(w io.Writer, s Syntax) *Writer {
	return &Writer{w: w, syntax: s, buf: make([]byte, 0, flushAt+4<<10)}
}

var errClosed = errors.New("ntriples: write after Close")

// Write writes q. A quad the syntax cannot hold (in a named graph for
// N-Triples, or not valid RDF: literal subject, relative IRI, malformed
// blank node label...) is refused with an error and nothing is written;
// the writer stays usable.
func (w *Writer) Write(q rdf.Quad) error {
	if w.err != nil {
		return w.err
	}
	if w.syntax == NTriples && !q.G.IsZero() {
		return fmt.Errorf("ntriples: cannot write a quad in named graph %s as N-Triples, which has only the default graph: use N-Quads", q.G)
	}
	if err := q.Validate(); err != nil {
		return fmt.Errorf("ntriples: cannot write %s: %w", q, err)
	}
	for _, t := range [...]rdf.Term{q.S, q.P, q.O, q.G} {
		if err := checkTerm(t); err != "" {
			return fmt.Errorf("ntriples: cannot write %s: %s %s", q, t, err)
		}
	}
	w.buf = q.Append(w.buf)
	w.buf = append(w.buf, '\n')
	if len(w.buf) >= flushAt {
		return w.flush()
	}
	return nil
}

// checkTerm checks what rdf.Quad.Validate leaves to the syntax: IRIs must
// be absolute and blank node labels must match BLANK_NODE_LABEL, or the
// output could not be read back.
func checkTerm(t rdf.Term) string {
	switch t.Kind {
	case rdf.KindIRI:
		if !hasScheme(t.Value) {
			return "is a relative IRI"
		}
	case rdf.KindBlank:
		if b := bytesOf(t.Value); len(b) == 0 || labelEnd(b, 0) != len(b) {
			return "is not a valid blank node label"
		}
	case rdf.KindLiteral:
		if t.Datatype != rdf.XSDString && t.Datatype != rdf.RDFLangString && !hasScheme(t.Datatype) {
			return "has a relative datatype IRI"
		}
		if end, bad := scanLangTag(bytesOf(t.Lang), 0); t.Lang != "" && (bad >= 0 || end != len(t.Lang)) {
			return "has a malformed language tag"
		}
	}
	return ""
}

func (w *Writer) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	if _, err := w.w.Write(w.buf); err != nil {
		w.err = err
		return err
	}
	w.buf = w.buf[:0]
	return nil
}

// Close flushes the buffered output. It does not close the underlying
// writer; writing after Close is an error.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	err := w.flush()
	if err == nil {
		w.err = errClosed
	}
	return err
}

// bytesOf returns the bytes of s without copying, for the scanners the
// parser uses; they only read them.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
