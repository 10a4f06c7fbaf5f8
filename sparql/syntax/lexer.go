package syntax

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokKind classifies a token. Keywords are not told apart here: they are
// tokName tokens that the parser compares case-insensitively, since most
// SPARQL keywords are also valid prefix names.
type tokKind uint8

const (
	tokEOF     tokKind = iota
	tokIRI             // <...>; text is the unescaped, unresolved IRI
	tokPName           // prefix:local; text is the whole name with escapes removed
	tokBlank           // _:label; text is the label
	tokVar             // ?x or $x; text is the name
	tokLang            // @en; text is the tag
	tokString          // any string form; text is the unescaped value
	tokInteger         // text is the lexical form, sign included
	tokDecimal
	tokDouble
	tokName  // a bare word: keyword, function name or 'a'
	tokNil   // ( ) with only whitespace inside
	tokAnon  // [ ] with only whitespace inside
	tokPunct // operators and delimiters; text is the symbol
)

// token is one lexical unit with its byte offset in the query text.
type token struct {
	kind tokKind
	text string
	pos  int
	// prefix and local split a tokPName at its first colon.
	prefix, local string
}

func (t token) String() string {
	switch t.kind {
	case tokEOF:
		return "end of input"
	case tokIRI:
		return "<" + t.text + ">"
	case tokBlank:
		return "_:" + t.text
	case tokVar:
		return "?" + t.text
	case tokLang:
		return "@" + t.text
	case tokString:
		return strconv.Quote(t.text)
	case tokNil:
		return "()"
	case tokAnon:
		return "[]"
	case tokPunct:
		return "'" + t.text + "'"
	}
	return t.text
}

// lexer turns the query text into tokens on demand.
type lexer struct {
	src string
	pos int
}

// next returns the next token or a *Error.
func (l *lexer) next() (token, error) {
	if err := l.skipSpace(); err != nil {
		return token{}, err
	}
	start := l.pos
	if l.pos >= len(l.src) {
		return token{kind: tokEOF, pos: start}, nil
	}
	c := l.src[l.pos]
	switch {
	case c == '<':
		if iri, ok, err := l.tryIRI(); err != nil {
			return token{}, err
		} else if ok {
			return token{kind: tokIRI, text: iri, pos: start}, nil
		}
		if strings.HasPrefix(l.src[l.pos:], "<=") {
			l.pos += 2
			return token{kind: tokPunct, text: "<=", pos: start}, nil
		}
		l.pos++
		return token{kind: tokPunct, text: "<", pos: start}, nil
	case c == '?' || c == '$':
		n := l.scanVarName(l.pos + 1)
		if n == 0 {
			if c == '?' {
				l.pos++
				return token{kind: tokPunct, text: "?", pos: start}, nil
			}
			return token{}, l.errAt(start, "expected a variable name after '$'")
		}
		name := l.src[l.pos+1 : l.pos+1+n]
		l.pos += 1 + n
		return token{kind: tokVar, text: name, pos: start}, nil
	case c == '"' || c == '\'':
		s, err := l.scanString()
		if err != nil {
			return token{}, err
		}
		return token{kind: tokString, text: s, pos: start}, nil
	case c == '@':
		i := l.pos + 1
		for i < len(l.src) && isAlpha(l.src[i]) {
			i++
		}
		if i == l.pos+1 {
			return token{}, l.errAt(start, "expected a language tag after '@'")
		}
		for i < len(l.src) && l.src[i] == '-' {
			j := i + 1
			for j < len(l.src) && (isAlpha(l.src[j]) || isDigit(l.src[j])) {
				j++
			}
			if j == i+1 {
				return token{}, l.errAt(i, "expected letters or digits after '-' in the language tag")
			}
			i = j
		}
		tag := l.src[l.pos+1 : i]
		l.pos = i
		return token{kind: tokLang, text: tag, pos: start}, nil
	case c == '_' && strings.HasPrefix(l.src[l.pos:], "_:"):
		return l.scanBlank()
	case isDigit(c) || c == '.' && l.pos+1 < len(l.src) && isDigit(l.src[l.pos+1]):
		return l.scanNumber(start, start)
	case (c == '+' || c == '-') && l.pos+1 < len(l.src) && (isDigit(l.src[l.pos+1]) || l.src[l.pos+1] == '.' && l.pos+2 < len(l.src) && isDigit(l.src[l.pos+2])):
		return l.scanNumber(start, start+1)
	case c == '(' || c == '[':
		closer := byte(')')
		kind := tokNil
		if c == '[' {
			closer, kind = ']', tokAnon
		}
		i := l.pos + 1
		for i < len(l.src) && isSpace(l.src[i]) {
			i++
		}
		if i < len(l.src) && l.src[i] == closer {
			l.pos = i + 1
			return token{kind: kind, text: l.src[start:l.pos], pos: start}, nil
		}
		l.pos++
		return token{kind: tokPunct, text: string(c), pos: start}, nil
	case c == ':' || startsName(l.src[l.pos:]):
		return l.scanName()
	}
	for _, p := range [...]string{"&&", "||", "!=", ">=", "^^", "{", "}", ")", "]", ".", ";", ",", "*", "/", "+", "-", "!", "=", ">", "^", "|"} {
		if strings.HasPrefix(l.src[l.pos:], p) {
			l.pos += len(p)
			return token{kind: tokPunct, text: p, pos: start}, nil
		}
	}
	r, _ := utf8.DecodeRuneInString(l.src[l.pos:])
	return token{}, l.errAt(start, "unexpected character "+strconv.QuoteRune(r))
}

// skipSpace skips whitespace and comments.
func (l *lexer) skipSpace() error {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case isSpace(c):
			l.pos++
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' && l.src[l.pos] != '\r' {
				l.pos++
			}
		default:
			return nil
		}
	}
	return nil
}

// tryIRI matches IRIREF at l.pos. It reports ok=false, leaving l.pos, when
// the text is not an IRI reference (then '<' is the less-than operator).
func (l *lexer) tryIRI() (string, bool, error) {
	var b strings.Builder
	i := l.pos + 1
	for i < len(l.src) {
		c := l.src[i]
		switch {
		case c == '>':
			l.pos = i + 1
			return b.String(), true, nil
		case c == '\\':
			r, n, err := l.scanUChar(i)
			if err != nil {
				return "", false, err
			}
			if r <= 0x20 || strings.ContainsRune("<>\"{}|^`\\", r) {
				return "", false, l.errAt(i, "escaped character "+strconv.QuoteRune(r)+" is not allowed in an IRI")
			}
			b.WriteRune(r)
			i += n
		case c <= 0x20 || strings.IndexByte("<\"{}|^`", c) >= 0:
			return "", false, nil
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", false, nil
}

// scanUChar decodes \uXXXX or \UXXXXXXXX at i, returning the rune and the
// escape's length. Surrogates are rejected: they are not characters.
func (l *lexer) scanUChar(i int) (rune, int, error) {
	if i+1 >= len(l.src) || (l.src[i+1] != 'u' && l.src[i+1] != 'U') {
		return 0, 0, l.errAt(i, `expected \u or \U escape`)
	}
	n := 4
	if l.src[i+1] == 'U' {
		n = 8
	}
	if i+2+n > len(l.src) {
		return 0, 0, l.errAt(i, "incomplete \\"+string(l.src[i+1])+" escape")
	}
	v, err := strconv.ParseUint(l.src[i+2:i+2+n], 16, 32)
	if err != nil {
		return 0, 0, l.errAt(i, "expected "+strconv.Itoa(n)+" hex digits in the escape")
	}
	r := rune(v)
	if !utf8.ValidRune(r) {
		return 0, 0, l.errAt(i, "escape \\"+l.src[i+1:i+2+n]+" is not a valid character")
	}
	return r, 2 + n, nil
}

// scanString reads any of the four string forms.
func (l *lexer) scanString() (string, error) {
	start := l.pos
	q := l.src[l.pos]
	long := strings.HasPrefix(l.src[l.pos:], strings.Repeat(string(q), 3))
	if long {
		l.pos += 3
	} else {
		l.pos++
	}
	var b strings.Builder
	for {
		if l.pos >= len(l.src) {
			return "", l.errAt(start, "unterminated string")
		}
		c := l.src[l.pos]
		switch {
		case c == q && !long:
			l.pos++
			return b.String(), nil
		case c == q && strings.HasPrefix(l.src[l.pos:], strings.Repeat(string(q), 3)):
			// A long string may end with up to two quotes before the closing three.
			for strings.HasPrefix(l.src[l.pos+1:], strings.Repeat(string(q), 3)) {
				b.WriteByte(q)
				l.pos++
			}
			l.pos += 3
			return b.String(), nil
		case (c == '\n' || c == '\r') && !long:
			return "", l.errAt(l.pos, "line break in a short string (use \"\"\" for long strings)")
		case c == '\\':
			if l.pos+1 >= len(l.src) {
				return "", l.errAt(l.pos, "unterminated escape")
			}
			e := l.src[l.pos+1]
			if e == 'u' || e == 'U' {
				r, n, err := l.scanUChar(l.pos)
				if err != nil {
					return "", err
				}
				b.WriteRune(r)
				l.pos += n
				continue
			}
			i := strings.IndexByte(`tbnrf"'\`, e)
			if i < 0 {
				return "", l.errAt(l.pos, "unknown escape \\"+string(e))
			}
			b.WriteByte("\t\b\n\r\f\"'\\"[i])
			l.pos += 2
		default:
			r, n := utf8.DecodeRuneInString(l.src[l.pos:])
			if r == utf8.RuneError && n == 1 {
				return "", l.errAt(l.pos, "invalid UTF-8")
			}
			b.WriteString(l.src[l.pos : l.pos+n])
			l.pos += n
		}
	}
}

// scanNumber reads INTEGER, DECIMAL or DOUBLE starting at digits (after
// an optional sign at start).
func (l *lexer) scanNumber(start, digits int) (token, error) {
	i := digits
	for i < len(l.src) && isDigit(l.src[i]) {
		i++
	}
	kind := tokInteger
	if i < len(l.src) && l.src[i] == '.' && i+1 < len(l.src) && isDigit(l.src[i+1]) {
		kind = tokDecimal
		i++
		for i < len(l.src) && isDigit(l.src[i]) {
			i++
		}
	} else if i < len(l.src) && l.src[i] == '.' && i > digits && i+1 < len(l.src) && (l.src[i+1] == 'e' || l.src[i+1] == 'E') {
		// "1.e5" is a DOUBLE; "1." alone is an integer followed by '.'.
		i++
		kind = tokDecimal
	}
	if i < len(l.src) && (l.src[i] == 'e' || l.src[i] == 'E') {
		j := i + 1
		if j < len(l.src) && (l.src[j] == '+' || l.src[j] == '-') {
			j++
		}
		if j < len(l.src) && isDigit(l.src[j]) {
			for j < len(l.src) && isDigit(l.src[j]) {
				j++
			}
			i, kind = j, tokDouble
		} else if kind == tokDecimal && l.src[i-1] == '.' {
			return token{}, l.errAt(i, "expected exponent digits")
		}
	}
	l.pos = i
	return token{kind: kind, text: l.src[start:i], pos: start}, nil
}

// scanVarName returns the length of the VARNAME at i.
func (l *lexer) scanVarName(i int) int {
	j := i
	for j < len(l.src) {
		r, n := utf8.DecodeRuneInString(l.src[j:])
		if isPNCharsU(r) || unicodeIsDigit(r) || (j > i && (r == 0xB7 || r >= 0x300 && r <= 0x36F || r >= 0x203F && r <= 0x2040)) {
			j += n
			continue
		}
		break
	}
	return j - i
}

// scanBlank reads BLANK_NODE_LABEL.
func (l *lexer) scanBlank() (token, error) {
	start := l.pos
	i := l.pos + 2
	r, n := utf8.DecodeRuneInString(l.src[i:])
	if !(isPNCharsU(r) || unicodeIsDigit(r)) {
		return token{}, l.errAt(i, "expected a blank node label after '_:'")
	}
	i += n
	i = l.scanNameChars(i, false)
	l.pos = i
	return token{kind: tokBlank, text: l.src[start+2 : i], pos: start}, nil
}

// scanNameChars consumes PN_CHARS and inner dots from i and returns the
// end; a trailing dot is left out. With local set it also accepts the
// PN_LOCAL extras ':' '%xx' and '\'-escapes (validated by the caller).
func (l *lexer) scanNameChars(i int, local bool) int {
	end := i
	for i < len(l.src) {
		r, n := utf8.DecodeRuneInString(l.src[i:])
		switch {
		case isPNChars(r) || local && r == ':':
			i += n
			end = i
		case r == '.':
			i += n
		case local && r == '%' && i+2 < len(l.src) && isHex(l.src[i+1]) && isHex(l.src[i+2]):
			i += 3
			end = i
		case local && r == '\\' && i+1 < len(l.src) && strings.IndexByte("_~.-!$&'()*+,;=/?#@%", l.src[i+1]) >= 0:
			i += 2
			end = i
		default:
			return end
		}
	}
	return end
}

// scanName reads a bare word or a prefixed name.
func (l *lexer) scanName() (token, error) {
	start := l.pos
	i := l.pos
	if l.src[i] != ':' {
		i = l.scanNameChars(i, false)
	}
	if i >= len(l.src) || l.src[i] != ':' {
		word := l.src[start:i]
		for _, r := range word {
			if !(isAlpha(byte(r)) && r < utf8.RuneSelf || r == '_' || r >= '0' && r <= '9') {
				return token{}, l.errAt(start, "unexpected word "+strconv.Quote(word)+" (a prefixed name needs ':')")
			}
		}
		l.pos = i
		return token{kind: tokName, text: word, pos: start}, nil
	}
	prefix := l.src[start:i]
	i++ // colon
	lstart := i
	if i < len(l.src) {
		r, n := utf8.DecodeRuneInString(l.src[i:])
		switch {
		case isPNCharsU(r) || r == ':' || unicodeIsDigit(r):
			i = l.scanNameChars(i+n, true)
		case r == '%' || r == '\\':
			i = l.scanNameChars(i, true)
		}
	}
	raw := l.src[lstart:i]
	local, err := l.unescapeLocal(raw, lstart)
	if err != nil {
		return token{}, err
	}
	l.pos = i
	return token{kind: tokPName, text: prefix + ":" + local, prefix: prefix, local: local, pos: start}, nil
}

// unescapeLocal removes the backslash of PN_LOCAL_ESC; %xx stays as is.
func (l *lexer) unescapeLocal(raw string, at int) (string, error) {
	if !strings.Contains(raw, `\`) {
		return raw, nil
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		if raw[i] == '\\' {
			i++
			if i >= len(raw) {
				return "", l.errAt(at+i, "incomplete escape in a prefixed name")
			}
		}
		b.WriteByte(raw[i])
	}
	return b.String(), nil
}

// startsName reports whether s starts with PN_CHARS_BASE (a prefix or a
// keyword).
func startsName(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isPNCharsBase(r)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isHex(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
func unicodeIsDigit(r rune) bool { return r >= '0' && r <= '9' }

func isPNCharsBase(r rune) bool {
	switch {
	case r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z',
		r >= 0xC0 && r <= 0xD6, r >= 0xD8 && r <= 0xF6, r >= 0xF8 && r <= 0x2FF,
		r >= 0x370 && r <= 0x37D, r >= 0x37F && r <= 0x1FFF, r >= 0x200C && r <= 0x200D,
		r >= 0x2070 && r <= 0x218F, r >= 0x2C00 && r <= 0x2FEF, r >= 0x3001 && r <= 0xD7FF,
		r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFFD, r >= 0x10000 && r <= 0xEFFFF:
		return true
	}
	return false
}

func isPNCharsU(r rune) bool { return r == '_' || isPNCharsBase(r) }

func isPNChars(r rune) bool {
	return isPNCharsU(r) || r == '-' || unicodeIsDigit(r) || r == 0xB7 ||
		r >= 0x300 && r <= 0x36F || r >= 0x203F && r <= 0x2040
}
