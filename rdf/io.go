package rdf

import (
	"fmt"
)

// Reader streams the quads of one serialized document.
//
// Next returns the next quad, or io.EOF after the last one. The strings of
// the returned quad may share memory with the reader's buffers and stay
// valid only until the following call of Next: that is what lets the
// line-based parsers run without allocating per triple. Clone a quad to
// keep it.
//
// A syntax error is returned as a *ParseError. Readers of line-based
// formats (N-Triples, N-Quads) resume at the next line when Next is called
// again after an error; other readers return the same error from then on.
type Reader interface {
	Next() (Quad, error)
}

// PrefixReader is a Reader that also reports the prefix declarations it
// has read so far (prefix name → namespace IRI), so that a conversion can
// keep them.
type PrefixReader interface {
	Reader
	Prefixes() map[string]string
}

// Writer serializes quads. Close flushes what is buffered and ends the
// document; it does not close the underlying io.Writer.
type Writer interface {
	Write(Quad) error
	Close() error
}

// ParseOptions are the settings every reader takes.
type ParseOptions struct {
	// Name identifies the input in error messages (usually a file name).
	Name string
	// Base is the base IRI against which relative IRIs are resolved.
	Base string
}

// WriteOptions are the settings every writer takes; formats without
// prefixes or base ignore them.
type WriteOptions struct {
	// Prefixes maps prefix names to namespace IRIs for Turtle and TriG.
	Prefixes map[string]string
	// Base, when set, is written as @base and IRIs are not relativized
	// against it unless the writer documents otherwise.
	Base string
}

// ParseError is a syntax error at a position of an input.
type ParseError struct {
	Name string // input name, as in ParseOptions.Name; may be empty
	Line int    // 1-based line
	Col  int    // 1-based column, counted in characters (runes)
	Msg  string
}

func (e *ParseError) Error() string {
	name := e.Name
	if name == "" {
		name = "<input>"
	}
	return fmt.Sprintf("%s:%d:%d: %s", name, e.Line, e.Col, e.Msg)
}
