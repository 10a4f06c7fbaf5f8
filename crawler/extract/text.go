package extract

import (
	"bytes"
	"unicode/utf8"
)

// textBuf collects document text with whitespace runs collapsed to one space,
// up to a byte limit.
type textBuf struct {
	b     []byte
	max   int
	space bool // the last byte kept (or pending) is a space
}

func (t *textBuf) reset() { t.b, t.space = t.b[:0], false }

// write appends text, collapsing whitespace; what exceeds max is dropped.
// Text that needs no collapsing and fits is appended whole; other text is
// copied word by word.
func (t *textBuf) write(p []byte) {
	if len(t.b)+1+len(p) <= t.max && collapsed(p) {
		if t.space && len(t.b) > 0 {
			t.b = append(t.b, ' ')
		}
		t.space = false
		t.b = append(t.b, p...)
		return
	}
	t.writeWords(p)
}

// writeWords is write word by word.
func (t *textBuf) writeWords(p []byte) {
	for len(p) > 0 {
		i := 0
		for i < len(p) && isSpace(p[i]) {
			i++
		}
		if i > 0 {
			t.space = true
			p = p[i:]
		}
		j := 0
		for j < len(p) && !isSpace(p[j]) {
			j++
		}
		if j == 0 {
			return
		}
		word := p[:j]
		p = p[j:]
		sep := t.space && len(t.b) > 0
		room := t.max - len(t.b)
		if sep {
			room--
		}
		if room <= 0 {
			return
		}
		if sep {
			t.b = append(t.b, ' ')
		}
		t.space = false
		t.b = append(t.b, word[:min(len(word), room)]...)
	}
}

// collapsed reports whether p is words separated by single spaces, with
// no whitespace at either end: text that collapsing leaves as it is.
// Long text (a paragraph's) is checked with the vectorised searches of
// package bytes rather than byte by byte.
func collapsed(p []byte) bool {
	if len(p) == 0 || p[0] == ' ' || p[len(p)-1] == ' ' {
		return false
	}
	if len(p) >= 64 {
		for _, c := range []byte{'\n', '\t', '\r', '\f'} {
			if bytes.IndexByte(p, c) >= 0 {
				return false
			}
		}
		return !bytes.Contains(p, doubleSpace)
	}
	space := false
	for _, c := range p {
		if c > ' ' {
			space = false
			continue
		}
		if c != ' ' && spaces[c] || c == ' ' && space {
			return false
		}
		space = c == ' '
	}
	return true
}

var doubleSpace = []byte("  ")

// separate makes the next text start a new word, as an element boundary does.
func (t *textBuf) separate() { t.space = true }

// string returns the text, cut back to a whole UTF-8 character.
func (t *textBuf) string() string { return string(validPrefix(t.b)) }

// validPrefix drops a partial UTF-8 sequence left at the end by a byte limit.
func validPrefix(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// window returns at most size bytes of s around byte offset at, on character
// boundaries.
func window(s string, at, size int) string {
	if len(s) <= size {
		return s
	}
	start := min(max(at-size/2, 0), len(s)-size)
	end := start + size
	for start > 0 && !utf8.RuneStart(s[start]) {
		start++
	}
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[start:end]
}
