package turtle

// Character classes of the Turtle grammar (RDF 1.1 Turtle §6.5).

func isPNCharsBase(r rune) bool {
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

func isPNCharsU(r rune) bool { return r == '_' || isPNCharsBase(r) }

func isPNChars(r rune) bool {
	switch {
	case isPNCharsU(r), r == '-', r >= '0' && r <= '9', r == 0xB7,
		r >= 0x300 && r <= 0x36F, r >= 0x203F && r <= 0x2040:
		return true
	}
	return false
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func isHex(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// isLocalEscapable reports the characters PN_LOCAL_ESC may escape with '\'.
func isLocalEscapable(r rune) bool {
	switch r {
	case '_', '~', '.', '-', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', '/', '?', '#', '@', '%':
		return true
	}
	return false
}

// isIRIForbidden reports the characters IRIREF does not allow unescaped.
func isIRIForbidden(r rune) bool {
	switch r {
	case '<', '>', '"', '{', '}', '|', '^', '`', '\\':
		return true
	}
	return r <= 0x20
}
