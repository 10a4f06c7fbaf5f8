// Package chars holds the character classes that the N-Triples and Turtle
// grammars share (PN_CHARS_BASE, PN_CHARS_U, PN_CHARS, HEX), so that both
// parsers and the Turtle writer agree on them.
package chars

// char is a byte (for the parsers' ASCII fast paths) or a rune.
type char interface{ ~byte | ~rune }

// IsDigit reports whether c is an ASCII digit.
func IsDigit[C char](c C) bool { return c >= '0' && c <= '9' }

// IsLetter reports whether c is an ASCII letter.
func IsLetter[C char](c C) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// IsHex reports whether c is a HEX digit: [0-9A-Fa-f].
func IsHex[C char](c C) bool { return IsDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// PNCharsBase reports whether r is in PN_CHARS_BASE.
func PNCharsBase(r rune) bool {
	switch {
	case r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		return true
	case r < 0xC0:
		return false
	case r <= 0xD6, r >= 0xD8 && r <= 0xF6, r >= 0xF8 && r <= 0x2FF,
		r >= 0x370 && r <= 0x37D, r >= 0x37F && r <= 0x1FFF,
		r >= 0x200C && r <= 0x200D, r >= 0x2070 && r <= 0x218F,
		r >= 0x2C00 && r <= 0x2FEF, r >= 0x3001 && r <= 0xD7FF,
		r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFFD,
		r >= 0x10000 && r <= 0xEFFFF:
		return true
	}
	return false
}

// PNCharsU reports whether r is in PN_CHARS_U: PN_CHARS_BASE or '_'.
func PNCharsU(r rune) bool { return r == '_' || PNCharsBase(r) }

// PNChars reports whether r is in PN_CHARS: PN_CHARS_U, '-', a digit,
// U+00B7, U+0300–U+036F or U+203F–U+2040.
func PNChars(r rune) bool {
	switch {
	case PNCharsU(r), r == '-', IsDigit(r), r == 0xB7,
		r >= 0x300 && r <= 0x36F, r >= 0x203F && r <= 0x2040:
		return true
	}
	return false
}
