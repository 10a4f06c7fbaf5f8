package nlp

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is a part of a text, by byte offsets [Start, End).
type Span struct{ Start, End int }

// abbreviations end with a full stop that does not end a sentence.
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true, "jr": true, "sr": true,
	"inc": true, "ltd": true, "co": true, "corp": true, "vs": true, "etc": true, "e.g": true, "i.e": true,
	"no": true, "fig": true, "mt": true, "gen": true, "gov": true, "sen": true, "rep": true,
}

// Sentences splits text into sentences: a sentence ends at '.', '!' or
// '?' (with any closing quotes or brackets) followed by white space and
// then an upper-case letter, a digit or an opening quote, unless the full
// stop ends a known abbreviation or a single initial ("J. Smith"); line
// breaks that separate blocks (two or more) end a sentence too. Leading
// and trailing white space is left out of each span.
func Sentences(text string) []Span {
	var out []Span
	start := 0
	emit := func(end int) {
		s, e := start, end
		for s < e {
			r, n := utf8.DecodeRuneInString(text[s:])
			if !unicode.IsSpace(r) {
				break
			}
			s += n
		}
		for e > s {
			r, n := utf8.DecodeLastRuneInString(text[:e])
			if !unicode.IsSpace(r) {
				break
			}
			e -= n
		}
		if e > s {
			out = append(out, Span{s, e})
		}
		start = end
	}
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\n' && strings.HasPrefix(strings.TrimLeft(text[i+n:], " \t\r"), "\n"):
			emit(i)
		case r == '.' || r == '!' || r == '?':
			j := i + n
			for j < len(text) && strings.ContainsRune(`"')]”’»`, rune(text[j])) {
				j++
			}
			if j < len(text) && !isSpaceByte(text[j]) {
				break
			}
			k := j
			for k < len(text) && isSpaceByte(text[k]) {
				k++
			}
			if k < len(text) {
				next, _ := utf8.DecodeRuneInString(text[k:])
				if !unicode.IsUpper(next) && !unicode.IsDigit(next) && !strings.ContainsRune(`"'“‘«(`, next) {
					break
				}
			}
			if r == '.' && abbreviated(text[start:i]) {
				break
			}
			emit(j)
			i = j
			continue
		}
		i += n
	}
	emit(len(text))
	return out
}

func isSpaceByte(b byte) bool { return b == ' ' || b == '\n' || b == '\t' || b == '\r' }

// abbreviated reports whether before ends with an abbreviation or an
// initial, so that a full stop after it ends no sentence.
func abbreviated(before string) bool {
	w := before
	if i := strings.LastIndexFunc(before, unicode.IsSpace); i >= 0 {
		w = before[i+1:]
	}
	w = strings.TrimLeft(w, `"'(“‘`)
	if utf8.RuneCountInString(w) == 1 {
		r, _ := utf8.DecodeRuneInString(w)
		return unicode.IsUpper(r)
	}
	return abbreviations[strings.ToLower(w)]
}
