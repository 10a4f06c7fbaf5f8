package ntriples

// Byte classes for the ASCII fast paths. A zero entry means "ordinary
// character, keep scanning"; the scanners handle every non-zero byte
// (delimiters, escapes, forbidden characters, non-ASCII) on a slower path.
var (
	// iriStop marks the bytes that end a run of plain IRIREF characters:
	// #x00-#x20 < > " { } | ^ ` \ and all non-ASCII bytes.
	iriStop [256]bool
	// stringStop marks the bytes that end a run of plain
	// STRING_LITERAL_QUOTE characters: " \ LF CR and all non-ASCII bytes.
	stringStop [256]bool
	// labelASCII marks the ASCII bytes allowed after the first character of
	// a BLANK_NODE_LABEL: PN_CHARS and '.'.
	labelASCII [256]bool
)

func init() {
	for c := 0; c < 256; c++ {
		iriStop[c] = c <= 0x20 || c >= 0x80
		stringStop[c] = c >= 0x80
		labelASCII[c] = isLetter(byte(c)) || isDigit(byte(c))
	}
	for _, c := range []byte("<>\"{}|^`\\") {
		iriStop[c] = true
	}
	for _, c := range []byte("\"\\\n\r") {
		stringStop[c] = true
	}
	for _, c := range []byte("_-.") {
		labelASCII[c] = true
	}
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }

func hexValue(c byte) rune {
	if isDigit(c) {
		return rune(c - '0')
	}
	return rune(c|0x20-'a') + 10
}

// isPNCharsBase reports whether a non-ASCII rune is in PN_CHARS_BASE.
func isPNCharsBase(r rune) bool {
	switch {
	case r >= 0xC0 && r <= 0xD6, r >= 0xD8 && r <= 0xF6, r >= 0xF8 && r <= 0x2FF,
		r >= 0x370 && r <= 0x37D, r >= 0x37F && r <= 0x1FFF, r >= 0x200C && r <= 0x200D,
		r >= 0x2070 && r <= 0x218F, r >= 0x2C00 && r <= 0x2FEF, r >= 0x3001 && r <= 0xD7FF,
		r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFFD, r >= 0x10000 && r <= 0xEFFFF:
		return true
	}
	return false
}

// isPNCharsExtra reports whether a non-ASCII rune is one of the characters
// PN_CHARS adds to PN_CHARS_BASE (allowed in a label but not first).
func isPNCharsExtra(r rune) bool {
	return r == 0xB7 || (r >= 0x300 && r <= 0x36F) || (r >= 0x203F && r <= 0x2040)
}

// hasScheme reports whether iri starts with a URI scheme and ':'
// (ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"), that is whether it is
// absolute as N-Triples requires.
func hasScheme(iri string) bool {
	if len(iri) == 0 || !isLetter(iri[0]) {
		return false
	}
	for i := 1; i < len(iri); i++ {
		c := iri[i]
		switch {
		case c == ':':
			return true
		case isLetter(c), isDigit(c), c == '+', c == '-', c == '.':
		default:
			return false
		}
	}
	return false
}
