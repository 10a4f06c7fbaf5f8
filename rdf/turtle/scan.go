package turtle

import (
	"strings"
	"unicode/utf8"

	"github.com/mneme-archive/mneme/rdf/internal/chars"
)

// Scanners for the tokens with inner structure: IRIs, strings, blank node
// labels, language tags, numbers and names.

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
		if !chars.IsHex(c) {
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
	if !chars.PNCharsU(r) && !chars.IsDigit(r) {
		return "", l.errHere("blank node label")
	}
	l.buf = utf8.AppendRune(l.buf[:0], l.next())
	for {
		r := l.peek()
		switch {
		case chars.PNChars(r):
			l.buf = utf8.AppendRune(l.buf, l.next())
		case r == '.' && l.dotContinues(chars.PNChars):
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
	if !chars.IsLetter(l.peek()) {
		return "", l.errHere("letter after '@'")
	}
	l.buf = l.buf[:0]
	for chars.IsLetter(l.peek()) {
		l.buf = append(l.buf, byte(l.next()))
	}
	for l.peek() == '-' {
		l.buf = append(l.buf, byte(l.next()))
		r := l.peek()
		if !chars.IsLetter(r) && !chars.IsDigit(r) {
			return "", l.errHere("letter or digit in language tag")
		}
		for r := l.peek(); chars.IsLetter(r) || chars.IsDigit(r); r = l.peek() {
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
		case chars.IsDigit(d):
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
	for chars.IsDigit(l.peek()) {
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
	return chars.IsDigit(r)
}

// name reads a prefixed name or a bare keyword (a, true, false, PREFIX,
// BASE, GRAPH).
func (l *lexer) name(t token) (token, error) {
	l.buf = l.buf[:0]
	if l.peek() != ':' {
		l.buf = utf8.AppendRune(l.buf, l.next())
		for {
			r := l.peek()
			if chars.PNChars(r) {
				l.buf = utf8.AppendRune(l.buf, l.next())
			} else if r == '.' && l.dotContinues(chars.PNChars) {
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
	if !(chars.PNCharsU(r) || r == ':' || chars.IsDigit(r) || r == '%' || r == '\\') {
		t.text = ""
		return t, nil
	}
	for {
		r := l.peek()
		switch {
		case chars.PNChars(r) || r == ':':
			l.buf = utf8.AppendRune(l.buf, l.next())
		case r == '%':
			l.buf = append(l.buf, byte(l.next()))
			for i := 0; i < 2; i++ {
				if !chars.IsHex(l.peek()) {
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
		case r == '.' && l.dotContinues(continuesLocal):
			l.buf = append(l.buf, byte(l.next()))
		default:
			t.text = string(l.buf)
			return t, nil
		}
	}
}

func continuesLocal(r rune) bool { return chars.PNChars(r) || r == ':' || r == '%' || r == '\\' }
