package turtle

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
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

// lexer turns the input into tokens. It keeps only the bufio buffer and
// the text of the current token.
type lexer struct {
	r         *bufio.Reader
	line, col int // position of the next rune
	buf       []byte
	ioErr     error
}

// bufSize bounds the lookahead the lexer may need (a run of dots inside a
// name) and is all the input the parser ever holds besides one token.
const bufSize = 64 << 10

func newLexer(r io.Reader) *lexer {
	return &lexer{r: bufio.NewReaderSize(r, bufSize), line: 1, col: 1}
}

// peekAt decodes the rune starting off bytes ahead; it returns runeEOF at
// the end of input and runeInvalid for bytes that are not UTF-8.
func (l *lexer) peekAt(off int) (rune, int) {
	b, err := l.r.Peek(off + utf8.UTFMax)
	if len(b) <= off {
		if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) && l.ioErr == nil {
			l.ioErr = err
		}
		return runeEOF, 0
	}
	b = b[off:]
	if b[0] < utf8.RuneSelf {
		return rune(b[0]), 1
	}
	r, n := utf8.DecodeRune(b)
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
	l.r.Discard(n)
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
	if err := l.skipSpace(); err != nil {
		return token{}, err
	}
	t := token{line: l.line, col: l.col}
	r := l.peek()
	var err error
	switch {
	case r == runeEOF:
		if l.ioErr != nil {
			return t, l.errAt(l.line, l.col, "read error: %v", l.ioErr)
		}
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
	case isDigit(r) || r == '+' || r == '-':
		t.kind, t.text, err = l.number()
	case r == '.':
		if d, _ := l.peekAt(1); isDigit(d) {
			t.kind, t.text, err = l.number()
		} else {
			l.next()
			t.kind = tDot
		}
	case r == ':' || isPNCharsBase(r):
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

// iriRef reads <...> and returns its content with UCHARs decoded.
func (l *lexer) iriRef() (string, error) {
	l.next() // <
	l.buf = l.buf[:0]
	for {
		line, col := l.line, l.col
		r := l.next()
		switch {
		case r == '>':
			return string(l.buf), nil
		case r == '\\':
			if c := l.peek(); c != 'u' && c != 'U' {
				return "", l.errHere("'u' or 'U' of a numeric escape in IRI")
			}
			u, err := l.uchar(line, col)
			if err != nil {
				return "", err
			}
			if isIRIForbidden(u) {
				return "", l.errAt(line, col, "escaped character U+%04X is not allowed in an IRI", u)
			}
			l.buf = utf8.AppendRune(l.buf, u)
		case r == runeEOF:
			return "", l.errAt(line, col, "expected '>' to end the IRI, found end of input")
		case r == runeInvalid:
			return "", l.errAt(line, col, "invalid UTF-8 in IRI")
		case isIRIForbidden(r):
			return "", l.errAt(line, col, "character %s is not allowed in an IRI", describeRune(r))
		default:
			l.buf = utf8.AppendRune(l.buf, r)
		}
	}
}

// uchar reads the u/U and hex digits following a backslash at line:col.
func (l *lexer) uchar(line, col int) (rune, error) {
	n := 4
	if l.next() == 'U' {
		n = 8
	}
	var v rune
	for i := 0; i < n; i++ {
		c := l.peek()
		if !isHex(c) {
			return 0, l.errHere("hex digit in numeric escape")
		}
		l.next()
		v = v<<4 | hexVal(c)
	}
	if v >= 0xD800 && v <= 0xDFFF || v > utf8.MaxRune {
		return 0, l.errAt(line, col, "numeric escape U+%X is not a Unicode scalar value", v)
	}
	return v, nil
}

func hexVal(c rune) rune {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// str reads any of the four string forms and returns the decoded value.
func (l *lexer) str() (string, error) {
	startLine, startCol := l.line, l.col
	q := l.next()
	long := false
	if a, _ := l.peekAt(0); a == q {
		if b, _ := l.peekAt(1); b == q {
			l.next()
			l.next()
			long = true
		} else {
			l.next()
			return "", nil // empty short string
		}
	}
	l.buf = l.buf[:0]
	for {
		line, col := l.line, l.col
		r := l.next()
		switch {
		case r == q:
			if !long {
				return string(l.buf), nil
			}
			a, _ := l.peekAt(0)
			b, _ := l.peekAt(1)
			if a == q && b == q {
				l.next()
				l.next()
				return string(l.buf), nil
			}
			l.buf = utf8.AppendRune(l.buf, r)
		case r == '\\':
			c := l.peek()
			if c == 'u' || c == 'U' {
				u, err := l.uchar(line, col)
				if err != nil {
					return "", err
				}
				l.buf = utf8.AppendRune(l.buf, u)
				continue
			}
			e, ok := echars[c]
			if !ok {
				return "", l.errHere("escape character (one of t b n r f \" ' \\ u U)")
			}
			l.next()
			l.buf = append(l.buf, e)
		case r == runeEOF:
			return "", l.errAt(startLine, startCol, "string literal is not closed before the end of input")
		case r == runeInvalid:
			return "", l.errAt(line, col, "invalid UTF-8 in string literal")
		case !long && (r == '\n' || r == '\r'):
			return "", l.errAt(line, col, "line break in a single-line string literal (use \"\"\" or \\n)")
		default:
			l.buf = utf8.AppendRune(l.buf, r)
		}
	}
}

var echars = map[rune]byte{
	't': '\t', 'b': '\b', 'n': '\n', 'r': '\r', 'f': '\f', '"': '"', '\'': '\'', '\\': '\\',
}

// blankLabel reads _:label.
func (l *lexer) blankLabel() (string, error) {
	l.next() // _
	if l.peek() != ':' {
		return "", l.errHere("':' after '_' of a blank node label")
	}
	l.next()
	r := l.peek()
	if !isPNCharsU(r) && !isDigit(r) {
		return "", l.errHere("blank node label")
	}
	l.buf = utf8.AppendRune(l.buf[:0], l.next())
	for {
		r := l.peek()
		switch {
		case isPNChars(r):
			l.buf = utf8.AppendRune(l.buf, l.next())
		case r == '.' && l.dotContinues(isPNChars):
			l.buf = append(l.buf, '.')
			l.next()
		default:
			return string(l.buf), nil
		}
	}
}

// dotContinues reports whether the run of dots at the next rune is
// followed by a rune for which cont holds, so that the dots belong inside
// a name rather than ending the statement.
func (l *lexer) dotContinues(cont func(rune) bool) bool {
	off := 0
	for {
		r, n := l.peekAt(off)
		if r != '.' {
			return cont(r)
		}
		off += n
		if off >= bufSize-utf8.UTFMax {
			return false
		}
	}
}

// atWord reads @ followed by a language tag shaped word.
func (l *lexer) atWord() (string, error) {
	l.next() // @
	if !isLetter(l.peek()) {
		return "", l.errHere("letter after '@'")
	}
	l.buf = l.buf[:0]
	for isLetter(l.peek()) {
		l.buf = append(l.buf, byte(l.next()))
	}
	for l.peek() == '-' {
		l.buf = append(l.buf, byte(l.next()))
		r := l.peek()
		if !isLetter(r) && !isDigit(r) {
			return "", l.errHere("letter or digit in language tag")
		}
		for r := l.peek(); isLetter(r) || isDigit(r); r = l.peek() {
			l.buf = append(l.buf, byte(l.next()))
		}
	}
	return string(l.buf), nil
}

// number reads INTEGER, DECIMAL or DOUBLE.
func (l *lexer) number() (tokKind, string, error) {
	l.buf = l.buf[:0]
	if r := l.peek(); r == '+' || r == '-' {
		l.buf = append(l.buf, byte(l.next()))
	}
	digits := l.digits()
	kind := tInteger
	if l.peek() == '.' {
		d, _ := l.peekAt(1)
		switch {
		case isDigit(d):
			l.buf = append(l.buf, byte(l.next()))
			l.digits()
			kind = tDecimal
		case digits > 0 && (d == 'e' || d == 'E') && l.exponentAt(2):
			l.buf = append(l.buf, byte(l.next()))
			kind = tDecimal
		}
	}
	if kind == tInteger && digits == 0 {
		return 0, "", l.errHere("digit")
	}
	if r := l.peek(); r == 'e' || r == 'E' {
		if !l.exponentAt(1) {
			l.buf = append(l.buf, byte(l.next()))
			if r := l.peek(); r == '+' || r == '-' {
				l.buf = append(l.buf, byte(l.next()))
			}
			return 0, "", l.errHere("digit in exponent")
		}
		l.buf = append(l.buf, byte(l.next()))
		if r := l.peek(); r == '+' || r == '-' {
			l.buf = append(l.buf, byte(l.next()))
		}
		l.digits()
		kind = tDouble
	}
	return kind, string(l.buf), nil
}

func (l *lexer) digits() int {
	n := 0
	for isDigit(l.peek()) {
		l.buf = append(l.buf, byte(l.next()))
		n++
	}
	return n
}

// exponentAt reports whether [+-]?[0-9] follows at byte offset off (the
// offset just after an 'e').
func (l *lexer) exponentAt(off int) bool {
	r, _ := l.peekAt(off)
	if r == '+' || r == '-' {
		r, _ = l.peekAt(off + 1)
	}
	return isDigit(r)
}

// name reads a prefixed name or a bare keyword (a, true, false, PREFIX,
// BASE, GRAPH).
func (l *lexer) name(t token) (token, error) {
	l.buf = l.buf[:0]
	if l.peek() != ':' {
		l.buf = utf8.AppendRune(l.buf, l.next())
		for {
			r := l.peek()
			if isPNChars(r) {
				l.buf = utf8.AppendRune(l.buf, l.next())
			} else if r == '.' && l.dotContinues(isPNChars) {
				l.buf = append(l.buf, byte(l.next()))
			} else {
				break
			}
		}
	}
	if l.peek() != ':' {
		word := string(l.buf)
		switch {
		case word == "a":
			t.kind = tA
		case word == "true":
			t.kind = tTrue
		case word == "false":
			t.kind = tFalse
		case strings.EqualFold(word, "PREFIX"):
			t.kind = tPrefix
		case strings.EqualFold(word, "BASE"):
			t.kind = tBase
		case strings.EqualFold(word, "GRAPH"):
			t.kind = tGraph
		default:
			return t, l.errAt(t.line, t.col, "expected ':' after prefix %q, found %s", word, describeRune(l.peek()))
		}
		return t, nil
	}
	t.kind = tPName
	t.prefix = string(l.buf)
	l.next() // :
	l.buf = l.buf[:0]
	r := l.peek()
	if !(isPNCharsU(r) || r == ':' || isDigit(r) || r == '%' || r == '\\') {
		t.text = ""
		return t, nil
	}
	for first := true; ; first = false {
		r := l.peek()
		switch {
		case isPNChars(r) || r == ':':
			l.buf = utf8.AppendRune(l.buf, l.next())
		case r == '%':
			l.buf = append(l.buf, byte(l.next()))
			for i := 0; i < 2; i++ {
				if !isHex(l.peek()) {
					return t, l.errHere("hex digit after '%' in local name")
				}
				l.buf = append(l.buf, byte(l.next()))
			}
		case r == '\\':
			l.next()
			if !isLocalEscapable(l.peek()) {
				return t, l.errHere("escapable character after '\\' in local name")
			}
			l.buf = append(l.buf, byte(l.next()))
		case r == '.' && !first && l.dotContinues(continuesLocal):
			l.buf = append(l.buf, byte(l.next()))
		default:
			t.text = string(l.buf)
			return t, nil
		}
	}
}

func continuesLocal(r rune) bool { return isPNChars(r) || r == ':' || r == '%' || r == '\\' }
