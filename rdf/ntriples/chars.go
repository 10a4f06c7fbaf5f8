package ntriples

import "github.com/mneme-archive/mneme/rdf/internal/chars"

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
		labelASCII[c] = chars.IsLetter(byte(c)) || chars.IsDigit(byte(c))
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

func hexValue(c byte) rune {
	if chars.IsDigit(c) {
		return rune(c - '0')
	}
	return rune(c|0x20-'a') + 10
}

// hasScheme reports whether iri starts with a URI scheme and ':'
// (ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"), that is whether it is
// absolute as N-Triples requires.
func hasScheme(iri string) bool {
	if len(iri) == 0 || !chars.IsLetter(iri[0]) {
		return false
	}
	for i := 1; i < len(iri); i++ {
		c := iri[i]
		switch {
		case c == ':':
			return true
		case chars.IsLetter(c), chars.IsDigit(c), c == '+', c == '-', c == '.':
		default:
			return false
		}
	}
	return false
}
