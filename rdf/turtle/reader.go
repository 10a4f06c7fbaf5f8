package turtle

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"strconv"

	"github.com/mneme-archive/mneme/rdf"
)

// MaxDepth bounds the nesting of [ ] and ( ) so that hostile input cannot
// make the parser's stack grow without limit.
const MaxDepth = 1000

// Reader parses Turtle or TriG. It implements rdf.PrefixReader.
type Reader struct {
	lex      *lexer
	name     string
	trig     bool
	base     string
	prefixes map[string]string

	peeked  token
	hasPeek bool

	stack   []frame
	graph   rdf.Term // graph of the triples being read
	inGraph bool     // inside a TriG { } block

	out    []rdf.Quad // quads completed by the last step, handed out first
	outPos int
	bnodes uint64
	err    error
}

// NewReader returns a reader of the Turtle document r.
func NewReader(r io.Reader, opts rdf.ParseOptions) *Reader {
	return newReader(r, opts, false)
}

// NewTriGReader returns a reader of the TriG document r; quads of named
// graphs carry their graph in Quad.G.
func NewTriGReader(r io.Reader, opts rdf.ParseOptions) *Reader {
	return newReader(r, opts, true)
}

func newReader(r io.Reader, opts rdf.ParseOptions, trig bool) *Reader {
	return &Reader{
		lex:      newLexer(r),
		name:     opts.Name,
		trig:     trig,
		base:     opts.Base,
		prefixes: map[string]string{},
		out:      make([]rdf.Quad, 0, 4),
	}
}

// Prefixes returns a copy of the prefix declarations read so far.
func (p *Reader) Prefixes() map[string]string { return maps.Clone(p.prefixes) }

// Next returns the next quad, io.EOF at the end of the document, or the
// first syntax error (a *rdf.ParseError), which it keeps returning.
func (p *Reader) Next() (rdf.Quad, error) {
	for {
		if p.outPos < len(p.out) {
			q := p.out[p.outPos]
			p.outPos++
			return q, nil
		}
		if p.err != nil {
			return rdf.Quad{}, p.err
		}
		p.out, p.outPos = p.out[:0], 0
		if err := p.step(); err != nil {
			p.err = p.wrap(err)
		}
	}
}

// wrap turns a lexer or parser error into a *rdf.ParseError; a failure of
// the underlying reader, which may show as a truncated token, is returned
// as itself with the position reached.
func (p *Reader) wrap(err error) error {
	if ioErr := p.lex.ioErr; ioErr != nil {
		name := p.name
		if name == "" {
			name = "<input>"
		}
		return fmt.Errorf("%s:%d:%d: reading input: %w", name, p.lex.line, p.lex.col, ioErr)
	}
	var le *errLex
	if errors.As(err, &le) {
		return &rdf.ParseError{Name: p.name, Line: le.line, Col: le.col, Msg: le.msg}
	}
	return err
}

func (p *Reader) token() (token, error) {
	if p.hasPeek {
		p.hasPeek = false
		return p.peeked, nil
	}
	return p.lex.token()
}

func (p *Reader) unread(t token) { p.peeked, p.hasPeek = t, true }

func (p *Reader) peekToken() (token, error) {
	t, err := p.token()
	if err == nil {
		p.unread(t)
	}
	return t, err
}

func (p *Reader) errorf(t token, format string, args ...any) error {
	return &errLex{line: t.line, col: t.col, msg: fmt.Sprintf(format, args...)}
}

func (p *Reader) expected(t token, what string) error {
	return p.errorf(t, "expected %s, found %s", what, t.describe())
}

func (p *Reader) emit(s, pr, o rdf.Term) {
	p.out = append(p.out, rdf.Quad{S: s, P: pr, O: o, G: p.graph})
}

func (p *Reader) newBlank() rdf.Term {
	p.bnodes++
	return rdf.Blank("_g" + strconv.FormatUint(p.bnodes, 10))
}

// blank maps a label written in the document to its term (see the package
// documentation for why labels starting with '_' are changed).
func blank(label string) rdf.Term {
	if label[0] == '_' {
		return rdf.Blank("_" + label)
	}
	return rdf.Blank(label)
}
