package extract

import (
	"bytes"
	"io"
	"strings"
	"sync"

	nethtml "golang.org/x/net/html"
)

// tokenizer is what a pass over HTML reads: x/net/html's Tokenizer has
// these methods, and scanner implements them over a document in memory.
type tokenizer interface {
	Next() nethtml.TokenType
	Err() error
	Text() []byte
	TagName() (name []byte, hasAttr bool)
	TagAttr() (key, val []byte, moreAttr bool)
}

// scanner tokenizes an HTML document held in memory exactly as
// x/net/html's Tokenizer does (the same tokens, names, attributes and
// text; its states are followed case by case), at a fraction of its cost:
// it finds the next '<' of text and raw text with bytes.IndexByte instead
// of reading byte by byte, it never copies the document, and it unescapes
// and lower-cases only what is asked for, copying only the values that
// need it. The extractor's tests run both on the same documents.
type scanner struct {
	b      []byte
	pos    int
	maxBuf int
	err    error
	tt     nethtml.TokenType
	rawTag string // lower-case name of the raw-text element whose text comes next

	// The current token: its raw span, the span of its text or tag name,
	// and for a start tag the spans of its attributes.
	rawStart        int
	dataStart       int
	dataEnd         int
	textIsRaw       bool
	convertNUL      bool
	attrs           [][4]int        // key start, key end, value start, value end
	keys            map[string]bool // the attributes' lower-cased names, in a tag with many
	nAttr           int             // attributes returned so far
	keyBuf, nameBuf []byte          // lower-cased copies of names with capitals
	nameUpper       bool            // the tag name has capitals or NULs
	// skipText, set by the reader between tokens, says that it would
	// ignore the next text token: the scanner goes on to the tag after it
	// (raw text, and text at the end of the document, still come).
	skipText bool
}

func newScanner(b []byte, maxBuf int) *scanner {
	return &scanner{b: b, maxBuf: maxBuf}
}

// Err returns io.EOF at the end of the document, or why it stopped.
func (z *scanner) Err() error { return z.err }

// selfClosing reports whether the start tag just scanned ends in "/>",
// which x/net/html's Tokenizer returns as a SelfClosingTagToken (the
// scanner returns a StartTagToken: the extractor reads both alike).
func (z *scanner) selfClosing() bool {
	if z.tt != nethtml.StartTagToken || z.err != nil || z.pos-2 <= z.rawStart || z.b[z.pos-2] != '/' {
		return false
	}
	// As the Tokenizer, not when the '/' ends the last attribute's
	// unquoted value (<p a=/>).
	return len(z.attrs) == 0 || z.pos-2 != z.attrs[len(z.attrs)-1][3]-1
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// Next scans the next token and returns its type.
func (z *scanner) Next() nethtml.TokenType {
	z.rawStart, z.dataStart, z.dataEnd = z.pos, z.pos, z.pos
	z.attrs, z.nAttr = z.attrs[:0], 0
	if z.err != nil {
		z.tt = nethtml.ErrorToken
		return z.tt
	}
	z.tt = z.next()
	if z.tt != nethtml.ErrorToken && z.maxBuf > 0 && z.pos-z.rawStart >= z.maxBuf {
		z.err = nethtml.ErrBufferExceeded
		z.tt = nethtml.ErrorToken
	}
	return z.tt
}

func (z *scanner) next() nethtml.TokenType {
	if z.rawTag != "" {
		if z.rawTag == "plaintext" {
			z.pos, z.err = len(z.b), io.EOF
			z.dataEnd = z.pos
			z.textIsRaw = true
		} else {
			z.readRawOrRCDATA()
		}
		if z.dataEnd > z.dataStart {
			z.convertNUL = true
			return nethtml.TextToken
		}
	}
	z.textIsRaw, z.convertNUL = false, false
	for {
		i := bytes.IndexByte(z.b[z.pos:], '<')
		if i < 0 || z.pos+i+1 >= len(z.b) {
			z.pos = len(z.b)
			break
		}
		lt := z.pos + i
		c := z.b[lt+1]
		var tt nethtml.TokenType
		switch {
		case isLetter(c):
			tt = nethtml.StartTagToken
		case c == '/':
			tt = nethtml.EndTagToken
		case c == '!' || c == '?':
			tt = nethtml.CommentToken
		default:
			z.pos = lt + 1
			continue
		}
		if z.rawStart < lt {
			if !z.skipText || z.maxBuf > 0 && lt-z.rawStart >= z.maxBuf {
				z.pos, z.dataEnd = lt, lt
				return nethtml.TextToken
			}
			z.rawStart = lt // the text is not wanted: the tag is the token
		}
		z.pos = lt + 2
		switch tt {
		case nethtml.StartTagToken:
			return z.readStartTag()
		case nethtml.EndTagToken:
			if z.pos >= len(z.b) {
				z.pos = len(z.b)
				z.dataEnd = z.pos
				return nethtml.TextToken
			}
			c = z.b[z.pos]
			z.pos++
			if c == '>' {
				return nethtml.CommentToken // "</>"
			}
			if isLetter(c) {
				if !z.readTag(false) {
					return nethtml.ErrorToken
				}
				return nethtml.EndTagToken
			}
			z.pos--
			z.readUntilCloseAngle()
			return nethtml.CommentToken
		default:
			if c == '!' {
				z.readMarkupDeclaration()
			} else {
				z.pos--
				z.readUntilCloseAngle()
			}
			return nethtml.CommentToken
		}
	}
	if z.rawStart < z.pos {
		z.dataEnd = z.pos
		return nethtml.TextToken
	}
	z.err = io.EOF
	return nethtml.ErrorToken
}

// readByte returns the next byte, or false at the end (and sets io.EOF).
func (z *scanner) readByte() (byte, bool) {
	if z.pos >= len(z.b) {
		z.err = io.EOF
		return 0, false
	}
	c := z.b[z.pos]
	z.pos++
	return c, true
}

// afterLT moves past the next "<" and returns the byte after it; false at
// the end of the document.
func (z *scanner) afterLT() (byte, bool) {
	i := bytes.IndexByte(z.b[z.pos:], '<')
	if i < 0 {
		z.pos, z.err = len(z.b), io.EOF
		return 0, false
	}
	z.pos += i + 1
	return z.readByte()
}

func (z *scanner) skipWhiteSpace() bool {
	i := z.pos
	for i < len(z.b) && isSpace(z.b[i]) {
		i++
	}
	z.pos = i
	if i == len(z.b) {
		z.err = io.EOF
		return false
	}
	return true
}

// readRawOrRCDATA reads up to the end tag of the raw-text element.
func (z *scanner) readRawOrRCDATA() {
	if z.rawTag == "script" {
		z.readScript()
		z.dataEnd = z.pos
		z.textIsRaw = true
		z.rawTag = ""
		return
	}
	for {
		c, ok := z.afterLT()
		if !ok {
			break
		}
		if c != '/' {
			z.pos--
			continue
		}
		if z.readRawEndTag() || z.err != nil {
			break
		}
	}
	z.dataEnd = z.pos
	z.textIsRaw = z.rawTag != "textarea" && z.rawTag != "title"
	z.rawTag = ""
}

// readRawEndTag reads "foo>" after "</" when foo is the raw-text element's
// name, and then backs up to the "<"; it reports whether it did.
func (z *scanner) readRawEndTag() bool {
	for i := 0; i < len(z.rawTag); i++ {
		c, ok := z.readByte()
		if !ok {
			return false
		}
		if c != z.rawTag[i] && c != z.rawTag[i]-('a'-'A') {
			z.pos--
			return false
		}
	}
	c, ok := z.readByte()
	if !ok {
		return false
	}
	switch c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		z.pos -= 3 + len(z.rawTag)
		return true
	}
	z.pos--
	return false
}

// The states of a script's text.
const (
	data = iota
	escaped
	escapedDash
	escapedDashDash
	doubleEscaped
	doubleEscapedDash
	doubleEscapedDashDash
)

// readScript reads up to the end of a script, following the escape
// states of the HTML tokenizer for "<!--" and "<script" inside it.
func (z *scanner) readScript() {
	state := data
	for {
		if state == data {
			c, ok := z.afterLT()
			if !ok {
				return
			}
			switch c {
			case '/':
				if z.readRawEndTag() || z.err != nil {
					return
				}
			case '!':
				if c, ok = z.readByte(); !ok {
					return
				}
				if c != '-' {
					z.pos--
					continue
				}
				if c, ok = z.readByte(); !ok {
					return
				}
				if c != '-' {
					z.pos--
					continue
				}
				state = escapedDashDash
			default:
				z.pos--
			}
			continue
		}
		c, ok := z.readByte()
		if !ok {
			return
		}
		switch state {
		case escaped, escapedDash, escapedDashDash:
			switch {
			case c == '-' && state == escaped:
				state = escapedDash
			case c == '-':
				state = escapedDashDash
			case c == '<':
				state = z.escapedLessThan()
				if state < 0 {
					return
				}
			case c == '>' && state == escapedDashDash:
				state = data
			default:
				state = escaped
			}
		default: // double escaped
			switch {
			case c == '-' && state == doubleEscaped:
				state = doubleEscapedDash
			case c == '-':
				state = doubleEscapedDashDash
			case c == '<':
				d, ok := z.readByte()
				if !ok {
					return
				}
				state = doubleEscaped
				if d != '/' {
					z.pos--
					continue
				}
				if z.readRawEndTag() {
					z.pos += len("</script>")
					state = escaped
				} else if z.err != nil {
					return
				}
			case c == '>' && state == doubleEscapedDashDash:
				state = data
			default:
				state = doubleEscaped
			}
		}
	}
}

// escapedLessThan follows "<" in an escaped script: the state that comes
// next, or -1 when the script ends (its end tag or the document's).
func (z *scanner) escapedLessThan() int {
	c, ok := z.readByte()
	if !ok {
		return -1
	}
	if c == '/' {
		if z.readRawEndTag() || z.err != nil {
			return -1
		}
		return escaped
	}
	if !isLetter(c) {
		z.pos--
		return data
	}
	z.pos--
	for i := 0; i < len("script"); i++ {
		if c, ok = z.readByte(); !ok {
			return -1
		}
		if c != "script"[i] && c != "SCRIPT"[i] {
			z.pos--
			return escaped
		}
	}
	if c, ok = z.readByte(); !ok {
		return -1
	}
	switch c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		return doubleEscaped
	}
	z.pos--
	return escaped
}

// readComment reads a comment after its "<!--".
func (z *scanner) readComment() {
	dashes, beginning := 0, true
	for {
		c, ok := z.readByte()
		if !ok {
			return
		}
		switch c {
		case '-':
			dashes++
			continue
		case '>':
			if dashes >= 2 || beginning {
				return
			}
		case '!':
			if dashes >= 2 {
				if c, ok = z.readByte(); !ok {
					return
				} else if c == '>' {
					return
				} else if c == '-' {
					dashes, beginning = 1, false
					continue
				}
			}
		}
		dashes, beginning = 0, false
	}
}

func (z *scanner) readUntilCloseAngle() {
	i := bytes.IndexByte(z.b[z.pos:], '>')
	if i < 0 {
		z.pos = len(z.b)
		z.err = io.EOF
		return
	}
	z.pos += i + 1
}

// readMarkupDeclaration reads what follows "<!": a comment, or a doctype
// or bogus comment, both of which end at the next ">".
func (z *scanner) readMarkupDeclaration() {
	if z.pos+2 <= len(z.b) && z.b[z.pos] == '-' && z.b[z.pos+1] == '-' {
		z.pos += 2
		z.readComment()
		return
	}
	if z.pos+2 > len(z.b) {
		z.pos = len(z.b)
		z.err = io.EOF
		return
	}
	z.readUntilCloseAngle()
}

// rawElements are the elements whose content is text up to their end tag.
var rawElements = []string{"iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "textarea", "title", "xmp"}

func (z *scanner) readStartTag() nethtml.TokenType {
	if !z.readTag(true) {
		return nethtml.ErrorToken
	}
	name := z.b[z.dataStart:z.dataEnd]
	if len(name) < len("xmp") {
		return nethtml.StartTagToken // p, a, li … the tags of most of a page
	}
	for _, r := range rawElements {
		if len(name) == len(r) && equalFoldASCII(name, r) {
			z.rawTag = r
			break
		}
	}
	// A self-closing tag reads as a start tag here: the extractor treats
	// both alike.
	return nethtml.StartTagToken
}

// equalFoldASCII reports whether b is s (lower-case) but for ASCII case.
func equalFoldASCII(b []byte, s string) bool {
	for i := range b {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// readTag reads a tag's name and attributes after its "<" and first
// letter; false at the end of the document.
func (z *scanner) readTag(saveAttr bool) bool {
	z.readTagName()
	if !z.skipWhiteSpace() {
		return false
	}
	for {
		c, ok := z.readByte()
		if !ok {
			return false
		}
		if c == '>' {
			return true
		}
		z.pos--
		ks, ke := z.readTagAttrKey()
		vs, ve := z.readTagAttrVal()
		if saveAttr && ks != ke && !z.seenKey(ks, ke) {
			z.attrs = append(z.attrs, [4]int{ks, ke, vs, ve})
		}
		if !z.skipWhiteSpace() {
			return false
		}
	}
}

// seenKey reports whether the tag has an attribute of the same name
// (ASCII case aside) before: only the first is kept. Past a few
// attributes the names go in a set, so that a tag with thousands of them
// costs no more than the tokenizer's map.
func (z *scanner) seenKey(ks, ke int) bool {
	k := z.b[ks:ke]
	if len(z.attrs) < 16 {
		for _, a := range z.attrs {
			if a[1]-a[0] == len(k) && equalFoldBytes(z.b[a[0]:a[1]], k) {
				return true
			}
		}
		return false
	}
	if len(z.attrs) == 16 {
		if z.keys == nil {
			z.keys = map[string]bool{}
		}
		clear(z.keys)
		for _, a := range z.attrs {
			z.keys[lowerString(z.b[a[0]:a[1]])] = true
		}
	}
	name := lowerString(k)
	if z.keys[name] {
		return true
	}
	z.keys[name] = true
	return false
}

// lowerString returns b with its ASCII letters lower-cased, as the
// tokenizer compares attribute names.
func lowerString(b []byte) string {
	out := []byte(string(b))
	for i, c := range out {
		if 'A' <= c && c <= 'Z' {
			out[i] = c + 'a' - 'A'
		}
	}
	return string(out)
}

// equalFoldBytes reports whether a and b, of the same length, differ only
// in the case of ASCII letters.
func equalFoldBytes(a, b []byte) bool {
	for i := range a {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func (z *scanner) readTagName() {
	z.dataStart = z.pos - 1
	z.nameUpper = isUpper(z.b[z.dataStart])
	for i := z.pos; i < len(z.b); i++ {
		c := z.b[i]
		switch {
		case c > '>':
			z.nameUpper = z.nameUpper || isUpper(c)
			continue
		case isSpace(c):
			z.pos, z.dataEnd = i+1, i
			return
		case c == '/' || c == '>':
			z.pos, z.dataEnd = i, i
			return
		case c == 0:
			z.nameUpper = true // lower replaces it
		}
	}
	z.pos, z.dataEnd = len(z.b), len(z.b)
	z.err = io.EOF
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

func (z *scanner) readTagAttrKey() (start, end int) {
	start = z.pos
	for {
		c, ok := z.readByte()
		if !ok {
			z.err = nil // the caller's skipWhiteSpace sets it again
			return start, z.pos
		}
		switch c {
		case '=':
			if start+1 == z.pos {
				continue // an "=" first is part of the name
			}
			fallthrough
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			z.pos--
			return start, z.pos
		}
	}
}

func (z *scanner) readTagAttrVal() (start, end int) {
	start, end = z.pos, z.pos
	if !z.skipWhiteSpace() {
		z.err = nil
		return
	}
	c, _ := z.readByte()
	if c == '/' {
		return
	}
	if c != '=' {
		z.pos--
		return
	}
	if !z.skipWhiteSpace() {
		z.err = nil
		return
	}
	q, _ := z.readByte()
	switch q {
	case '>':
		z.pos--
		return z.pos, z.pos
	case '\'', '"':
		start = z.pos
		i := bytes.IndexByte(z.b[z.pos:], q)
		if i < 0 {
			z.pos = len(z.b)
			return start, z.pos
		}
		z.pos += i + 1
		return start, z.pos - 1
	}
	start = z.pos - 1
	for z.pos < len(z.b) {
		c := z.b[z.pos]
		z.pos++
		switch c {
		case ' ', '\n', '\r', '\t', '\f':
			return start, z.pos - 1
		case '>':
			z.pos--
			return start, z.pos
		}
	}
	return start, z.pos
}

// Text returns the text of a text token: newlines normalized, NULs of raw
// text replaced and, but in raw text, character references unescaped.
func (z *scanner) Text() []byte {
	if z.tt != nethtml.TextToken {
		return nil
	}
	s := z.b[z.dataStart:z.dataEnd]
	unescape := !z.textIsRaw && bytes.IndexByte(s, '&') >= 0
	nul := z.convertNUL && bytes.IndexByte(s, 0) >= 0
	if !unescape && !nul && bytes.IndexByte(s, '\r') < 0 {
		return s
	}
	s = convertNewlines(bytes.Clone(s))
	if nul {
		s = bytes.ReplaceAll(s, []byte{0}, []byte("\ufffd"))
	}
	if !z.textIsRaw {
		s = []byte(nethtml.UnescapeString(string(s)))
	}
	return s
}

// convertNewlines turns "\r\n" and "\r" into "\n", as the tokenizer does.
func convertNewlines(s []byte) []byte {
	out := s[:0]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\r' {
			c = '\n'
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		}
		out = append(out, c)
	}
	return out
}

// TagName returns the lower-cased name of a tag and whether it has
// attributes.
func (z *scanner) TagName() ([]byte, bool) {
	switch z.tt {
	case nethtml.StartTagToken, nethtml.EndTagToken:
	default:
		return nil, false
	}
	if z.dataStart >= z.dataEnd {
		return nil, false
	}
	name := z.b[z.dataStart:z.dataEnd]
	if z.nameUpper {
		name = z.lower(&z.nameBuf, name)
	}
	z.dataStart = z.dataEnd // as the tokenizer: a second call returns nothing
	return name, z.nAttr < len(z.attrs)
}

// TagAttr returns the next attribute of a start tag: its lower-cased name
// and its value unescaped.
func (z *scanner) TagAttr() (key, val []byte, moreAttr bool) {
	if z.tt != nethtml.StartTagToken || z.nAttr >= len(z.attrs) {
		return nil, nil, false
	}
	a := z.attrs[z.nAttr]
	z.nAttr++
	more := z.nAttr < len(z.attrs)
	key = z.lower(&z.keyBuf, z.b[a[0]:a[1]])
	v := z.b[a[2]:a[3]]
	if len(v) == 0 {
		return key, nil, more // the tokenizer's copy of an empty value is nil
	}
	if bytes.IndexByte(v, '&') < 0 && bytes.IndexByte(v, '\r') < 0 && bytes.IndexByte(v, 0) < 0 {
		return key, v, more
	}
	return key, attrValue(v), more
}

// lower returns b lower-cased (ASCII), in buf when it has capitals, with
// a NUL replaced as the tokenizer does.
func (z *scanner) lower(buf *[]byte, b []byte) []byte {
	plain := true
	for _, c := range b {
		if 'A' <= c && c <= 'Z' || c == 0 {
			plain = false
			break
		}
	}
	if plain {
		return b
	}
	out := (*buf)[:0]
	for _, c := range b {
		switch {
		case 'A' <= c && c <= 'Z':
			out = append(out, c+'a'-'A')
		case c == 0:
			out = append(out, "\ufffd"...)
		default:
			out = append(out, c)
		}
	}
	*buf = out
	return out
}

// attrValue is what the tokenizer makes of an attribute value holding a
// NUL, a carriage return or a character reference: NULs replaced,
// newlines normalized, and each reference unescaped by the rules for
// attributes, which x/net/html does not export. A reference's value
// depends only on its text and on whether "=" follows it, so the
// tokenizer itself is asked once for each (refValue).
func attrValue(v []byte) []byte {
	v = convertNewlines(bytes.ReplaceAll(v, []byte{0}, []byte("\ufffd")))
	amp := bytes.IndexByte(v, '&')
	if amp < 0 {
		return v
	}
	out := make([]byte, 0, len(v))
	for amp >= 0 {
		out = append(out, v[:amp]...)
		v = v[amp:]
		n := refLen(v)
		out = append(out, refValue(string(v[:n]), n < len(v) && v[n] == '=')...)
		v = v[n:]
		amp = bytes.IndexByte(v, '&')
	}
	return append(out, v...)
}

// refLen is the length of the character reference s begins with ('&'
// first), as the tokenizer reads it: "&#", an optional "x", digits, or
// "&" and letters and digits; then an optional ";".
func refLen(s []byte) int {
	i := 1
	digit := func(c byte, hex bool) bool {
		return '0' <= c && c <= '9' || hex && ('a' <= c && c <= 'f' || 'A' <= c && c <= 'F')
	}
	if i < len(s) && s[i] == '#' {
		i++
		hex := i < len(s) && (s[i] == 'x' || s[i] == 'X')
		if hex {
			i++
		}
		for i < len(s) && digit(s[i], hex) {
			i++
		}
	} else {
		for i < len(s) && (isLetter(s[i]) || digit(s[i], false)) {
			i++
		}
	}
	if i < len(s) && s[i] == ';' {
		i++
	}
	return i
}

// refs caches the values of the character references met in attributes.
var refs = struct {
	sync.Mutex
	m map[string][]byte
}{m: map[string][]byte{}}

// maxRefs bounds refs: past it, values are computed every time.
const maxRefs = 4096

// refValue returns the value of reference ref in an attribute (followed
// by "=" when eq), as the tokenizer gives it.
func refValue(ref string, eq bool) []byte {
	key := ref
	if eq {
		key += "="
	}
	refs.Lock()
	v, ok := refs.m[key]
	refs.Unlock()
	if ok {
		return v
	}
	z := nethtml.NewTokenizer(strings.NewReader(`<a v="` + key + `">`))
	z.Next()
	_, v, _ = z.TagAttr()
	if eq {
		v = v[:len(v)-1] // the "=", which follows the reference's value
	}
	refs.Lock()
	if len(refs.m) < maxRefs {
		refs.m[key] = v
	}
	refs.Unlock()
	return v
}
