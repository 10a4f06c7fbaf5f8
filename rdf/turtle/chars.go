package turtle

// Character classes of the Turtle grammar (RDF 1.1 Turtle §6.5) that
// N-Triples does not share; the shared ones are in rdf/internal/chars.

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
