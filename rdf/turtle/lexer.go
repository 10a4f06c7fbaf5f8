package turtle

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/mneme-archive/mneme/rdf/internal/chars"
)

type tokKind uint8

const (
	tEOF     tokKind = iota
	tIRI             // <...>, text is the unresolved IRI with UCHARs decoded
	tPName           // prefix:local, text is the unescaped local part
	tBlank           // _:label, text is the label as written
	tString          // any of the four string forms, text is the value
	tAtWord          // @word: a language tag or @prefix / @base
	tInteger         // text is the lexical form as written
	tDecimal
	tDouble
	tTrue
	tFalse
	tA      // the keyword a
	tPrefix // SPARQL-style PREFIX (any case)
	tBase   // SPARQL-style BASE (any case)
	tGraph  // TriG GRAPH (any case)
	tDot
	tSemicolon
	tComma
	tLBracket
	tRBracket
	tLParen
	tRParen
	tLBrace
	tRBrace
	tCarets // ^^
)

type token struct {
	kind      tokKind
	text      string
	prefix    string // tPName only
	line, col int
}

// describe names a token for error messages.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tIRI:
		return "IRI <" + clip(t.text) + ">"
	case tPName:
		return "prefixed name " + clip(t.prefix+":"+t.text)
	case tBlank:
		return "blank node _:" + clip(t.text)
	case tString:
		return "string literal"
	case tAtWord:
		return "'@" + clip(t.text) + "'"
	case tInteger, tDecimal, tDouble:
		return "number " + clip(t.text)
	case tTrue:
		return "'true'"
	case tFalse:
		return "'false'"
	case tA:
		return "'a'"
	case tPrefix:
		return "PREFIX"
	case tBase:
		return "BASE"
	case tGraph:
		return "GRAPH"
	}
	return "'" + punct[t.kind] + "'"
}

var punct = map[tokKind]string{
	tDot: ".", tSemicolon: ";", tComma: ",", tLBracket: "[", tRBracket: "]",
	tLParen: "(", tRParen: ")", tLBrace: "{", tRBrace: "}", tCarets: "^^",
}

func clip(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		r := []rune(s)
		return string(r[:40]) + "…"
	}
	return s
}

const (
	runeEOF     = -1
	runeInvalid = -2 // a byte sequence that is not UTF-8
)

// errLex carries a lexical error with its position up to the parser.
type errLex struct {
	line, col int
	msg       string
}

func (e *errLex) Error() string { return e.msg }

// lexer turns the input into tokens. It holds a fixed window of the
// input and the text of the current token, nothing more.
type lexer struct {
	r         io.Reader
	in        []byte // input window: in[pos:end] is read but not consumed
	pos, end  int
	eof       bool // r has no more bytes (or failed, see ioErr)
	ioErr     error
	line, col int // position of the next rune
	buf       []byte
	started   bool // the byte order mark check is done
}

// bufSize bounds the lookahead the lexer may need (a run of dots inside a
// name) and is all the input the parser ever holds besides one token.
const bufSize = 64 << 10

func newLexer(r io.Reader) *lexer {
	return &lexer{r: r, in: make([]byte, bufSize), line: 1, col: 1}
}

// fill reads until need bytes are buffered or the input ends.
func (l *lexer) fill(need int) {
	if l.pos > 0 {
		l.end = copy(l.in, l.in[l.pos:l.end])
		l.pos = 0
	}
	for l.end < need && !l.eof {
		n, err := l.r.Read(l.in[l.end:])
		l.end += n
		if err != nil {
			l.eof = true
			if err != io.EOF {
				l.ioErr = err
			}
		}
	}
}

// peekAt decodes the rune starting off bytes ahead; it returns runeEOF at
// the end of input and runeInvalid for bytes that are not UTF-8.
func (l *lexer) peekAt(off int) (rune, int) {
	p := l.pos + off
	if p < l.end && l.in[p] < utf8.RuneSelf {
		return rune(l.in[p]), 1
	}
	if p+utf8.UTFMax > l.end && !l.eof {
		l.fill(min(off+utf8.UTFMax, len(l.in)))
		p = l.pos + off
	}
	if p >= l.end {
		return runeEOF, 0
	}
	r, n := utf8.DecodeRune(l.in[p:l.end])
	if r == utf8.RuneError && n == 1 {
		return runeInvalid, 1
	}
	return r, n
}

func (l *lexer) peek() rune {
	r, _ := l.peekAt(0)
	return r
}

// next consumes one rune and returns it.
func (l *lexer) next() rune {
	r, n := l.peekAt(0)
	if n == 0 {
		return runeEOF
	}
	l.pos += n
	if r == '\n' {
		l.line++
		l.col = 1
	} else {
		l.col++
	}
	return r
}

func (l *lexer) errAt(line, col int, format string, args ...any) error {
	return &errLex{line: line, col: col, msg: fmt.Sprintf(format, args...)}
}

// errHere reports an error at the next rune, naming it as found.
func (l *lexer) errHere(expected string) error {
	return l.errAt(l.line, l.col, "expected %s, found %s", expected, describeRune(l.peek()))
}

func describeRune(r rune) string {
	switch r {
	case runeEOF:
		return "end of input"
	case runeInvalid:
		return "a byte that is not UTF-8"
	}
	if r < 0x20 || r == 0x7f {
		return fmt.Sprintf("character U+%04X", r)
	}
	return fmt.Sprintf("%q", r)
}

// skipSpace skips white space and comments.
func (l *lexer) skipSpace() error {
	for {
		switch l.peek() {
		case ' ', '\t', '\r', '\n':
			l.next()
		case '#':
			for {
				r := l.peek()
				if r == '\n' || r == '\r' || r == runeEOF {
					break
				}
				if r == runeInvalid {
					return l.errAt(l.line, l.col, "invalid UTF-8 in comment")
				}
				l.next()
			}
		default:
			return nil
		}
	}
}

// token reads the next token.
func (l *lexer) token() (token, error) {
	if !l.started {
		// Editors on some systems start UTF-8 files with a byte order
		// mark; it is not part of the document, nor counted in columns.
		l.started = true
		if r, n := l.peekAt(0); r == 0xFEFF {
			l.pos += n
		}
	}
	if err := l.skipSpace(); err != nil {
		return token{}, err
	}
	t := token{line: l.line, col: l.col}
	r := l.peek()
	var err error
	switch {
	case r == runeEOF:
		t.kind = tEOF
	case r == runeInvalid:
		return t, l.errAt(l.line, l.col, "invalid UTF-8")
	case r == '<':
		t.kind = tIRI
		t.text, err = l.iriRef()
	case r == '"' || r == '\'':
		t.kind = tString
		t.text, err = l.str()
	case r == '_':
		t.kind = tBlank
		t.text, err = l.blankLabel()
	case r == '@':
		t.kind = tAtWord
		t.text, err = l.atWord()
	case chars.IsDigit(r) || r == '+' || r == '-':
		t.kind, t.text, err = l.number()
	case r == '.':
		if d, _ := l.peekAt(1); chars.IsDigit(d) {
			t.kind, t.text, err = l.number()
		} else {
			l.next()
			t.kind = tDot
		}
	case r == ':' || chars.PNCharsBase(r):
		return l.name(t)
	case r == '^':
		l.next()
		if l.peek() != '^' {
			return t, l.errHere("'^' of '^^'")
		}
		l.next()
		t.kind = tCarets
	default:
		k, ok := punctKinds[r]
		if !ok {
			return t, l.errAt(l.line, l.col, "unexpected %s", describeRune(r))
		}
		l.next()
		t.kind = k
	}
	return t, err
}

var punctKinds = map[rune]tokKind{
	';': tSemicolon, ',': tComma, '[': tLBracket, ']': tRBracket,
	'(': tLParen, ')': tRParen, '{': tLBrace, '}': tRBrace,
}
