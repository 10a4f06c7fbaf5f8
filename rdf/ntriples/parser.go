package ntriples

import (
	"io"
	"unsafe"

	"github.com/mneme-archive/mneme/rdf"
)

// Syntax selects the line format: N-Triples (default graph only) or
// N-Quads (an optional graph label before the final '.').
type Syntax uint8

const (
	NTriples Syntax = iota
	NQuads
)

func (s Syntax) String() string {
	if s == NQuads {
		return "N-Quads"
	}
	return "N-Triples"
}

// ChunkParser parses the statements of a chunk of complete lines held in
// memory. It is the core of Reader, and a loader can run one ChunkParser
// per goroutine on chunks of one file (see Chunker and CountLines).
//
// A chunk must end at a line break: right after a '\n', before a '\r', or
// at the end of the input. The chunk is read in place and the returned
// quads point into it, so it must not change while they are in use.
type ChunkParser struct {
	syntax    Syntax
	name      string
	data      []byte
	pos       int
	line      int    // number of the line pos is on
	lineStart int    // offset in data where that line starts, for columns
	scratch   []byte // decoded escapes of the current statement
}

// NewChunkParser returns a parser for the given syntax; opts.Name names
// the input in errors (opts.Base is unused: these formats only allow
// absolute IRIs). Call Reset before Next.
func NewChunkParser(s Syntax, opts rdf.ParseOptions) *ChunkParser {
	return &ChunkParser{syntax: s, name: opts.Name, line: 1}
}

// Reset makes p parse chunk, whose first line has number firstLine.
func (p *ChunkParser) Reset(chunk []byte, firstLine int) {
	p.data, p.pos, p.line, p.lineStart = chunk, 0, firstLine, 0
}

// Line returns the number of the line the parser is on. Once Next has
// returned io.EOF it is the number of the line that follows the chunk,
// that is the firstLine to give the next chunk.
func (p *ChunkParser) Line() int { return p.line }

// Next returns the next statement of the chunk, or io.EOF at its end.
// The quad's strings stay valid until the next call of Next or Reset and
// while the chunk is unchanged.
//
// A syntax error is a *rdf.ParseError; the following call of Next goes on
// with the next line.
func (p *ChunkParser) Next() (rdf.Quad, error) {
	d := p.data
	i := p.pos
	for {
		if i >= len(d) {
			p.pos = i
			return rdf.Quad{}, io.EOF
		}
		switch d[i] {
		case ' ', '\t':
			i++
			continue
		case '\n':
			i++
		case '\r':
			i++
			if i < len(d) && d[i] == '\n' {
				i++
			}
		case '#':
			end, err := p.comment(i)
			if err != nil {
				p.pos = end
				return rdf.Quad{}, err
			}
			i = end
			continue
		default:
			p.scratch = p.scratch[:0]
			q, end, err := p.statement(i)
			if err != nil {
				p.pos = lineEnd(d, end)
				return rdf.Quad{}, err
			}
			p.pos = end
			return q, nil
		}
		p.line++
		p.lineStart = i
	}
}

// statement parses one statement starting at d[i] (not blank). It returns
// the offset after it, or the offset of the error.
func (p *ChunkParser) statement(i int) (q rdf.Quad, _ int, err error) {
	d := p.data
	switch d[i] {
	case '<':
		q.S, i, err = p.iriTerm(i)
	case '_':
		q.S, i, err = p.blankTerm(i)
	case '"':
		return q, i, p.errorAt(i, "a literal cannot be a subject: expected an IRI or a blank node")
	default:
		return q, i, p.errorAt(i, "expected a subject (IRI or blank node), found %s", p.found(i))
	}
	if err != nil {
		return q, i, err
	}

	i = skipSpace(d, i)
	switch peek(d, i) {
	case '<':
		q.P, i, err = p.iriTerm(i)
	case '_':
		return q, i, p.errorAt(i, "a blank node cannot be a predicate: expected an IRI")
	case '"':
		return q, i, p.errorAt(i, "a literal cannot be a predicate: expected an IRI")
	default:
		return q, i, p.errorAt(i, "expected a predicate (IRI), found %s", p.found(i))
	}
	if err != nil {
		return q, i, err
	}

	i = skipSpace(d, i)
	switch peek(d, i) {
	case '<':
		q.O, i, err = p.iriTerm(i)
	case '"':
		q.O, i, err = p.literal(i)
	case '_':
		q.O, i, err = p.blankTerm(i)
	default:
		return q, i, p.errorAt(i, "expected an object (IRI, blank node or literal), found %s", p.found(i))
	}
	if err != nil {
		return q, i, err
	}

	i = skipSpace(d, i)
	if p.syntax == NQuads {
		switch peek(d, i) {
		case '<':
			q.G, i, err = p.iriTerm(i)
		case '_':
			q.G, i, err = p.blankTerm(i)
		case '"':
			return q, i, p.errorAt(i, "a literal cannot be a graph label: expected an IRI or a blank node")
		case '.':
		default:
			return q, i, p.errorAt(i, "expected a graph label (IRI or blank node) or '.', found %s", p.found(i))
		}
		if err != nil {
			return q, i, err
		}
		i = skipSpace(d, i)
	}

	if peek(d, i) != '.' {
		return q, i, p.missingDot(i, !q.G.IsZero())
	}
	i = skipSpace(d, i+1)
	switch peek(d, i) {
	case '\n', '\r':
	case '#':
		i, err = p.comment(i)
	default:
		if i < len(d) {
			return q, i, p.errorAt(i, "expected the end of the line after '.', found %s (one statement per line)", p.found(i))
		}
	}
	return q, i, err
}

func (p *ChunkParser) missingDot(i int, hasGraph bool) error {
	c := peek(p.data, i)
	switch {
	case p.syntax == NTriples && (c == '<' || c == '_'):
		return p.errorAt(i, "expected '.' to end the triple, found %s (N-Triples has no graph label: use N-Quads)", p.found(i))
	case p.syntax == NTriples:
		return p.errorAt(i, "expected '.' to end the triple, found %s", p.found(i))
	case hasGraph && (c == '<' || c == '_'):
		return p.errorAt(i, "expected '.' to end the quad, found %s (a statement has at most one graph label)", p.found(i))
	}
	return p.errorAt(i, "expected '.' to end the quad, found %s", p.found(i))
}

func (p *ChunkParser) iriTerm(i int) (rdf.Term, int, error) {
	v, i, err := p.iri(i)
	return rdf.Term{Kind: rdf.KindIRI, Value: v}, i, err
}

func (p *ChunkParser) blankTerm(i int) (rdf.Term, int, error) {
	v, i, err := p.blank(i)
	return rdf.Term{Kind: rdf.KindBlank, Value: v}, i, err
}

// peek returns d[i], or 0 past the end (0 is never valid where peek is
// used, so it reads as "something else").
func peek(d []byte, i int) byte {
	if i < len(d) {
		return d[i]
	}
	return 0
}

func skipSpace(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\t') {
		i++
	}
	return i
}

// lineEnd returns the offset of the line break at or after i, or len(d).
func lineEnd(d []byte, i int) int {
	for i < len(d) && d[i] != '\n' && d[i] != '\r' {
		i++
	}
	return i
}

// str returns the bytes as a string without copying; the string is only
// valid while the bytes are unchanged.
func str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
