package ntriples

import (
	"unicode/utf8"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/internal/chars"
)

// iri parses the IRIREF starting at d[i] == '<' and returns its value and
// the offset after '>'. The common case (no escape, ASCII) is one scan and
// no copy; otherwise iriSlow validates and decodes.
func (p *ChunkParser) iri(i int) (string, int, error) {
	d := p.data
	j := i + 1
	for j < len(d) && !iriStop[d[j]] {
		j++
	}
	if j < len(d) && d[j] == '>' {
		v := str(d[i+1 : j])
		if !hasScheme(v) {
			return "", i, p.relativeIRI(i, v)
		}
		return v, j + 1, nil
	}
	return p.iriSlow(i, j)
}

// iriSlow goes on from d[j], the first byte iri's fast scan stopped at.
func (p *ChunkParser) iriSlow(i, j int) (string, int, error) {
	d := p.data
	escaped := false
	for {
		c := peek(d, j)
		switch {
		case c == '>':
			var v string
			if escaped {
				off := len(p.scratch)
				p.scratch = unescape(p.scratch, d[i+1:j])
				v = str(p.scratch[off:])
			} else {
				v = str(d[i+1 : j])
			}
			if !hasScheme(v) {
				return "", i, p.relativeIRI(i, v)
			}
			return v, j + 1, nil
		case c == '\\':
			if e := peek(d, j+1); e != 'u' && e != 'U' {
				return "", j + 1, p.errorAt(j+1, "expected 'u' or 'U' after '\\' in an IRI (only \\uXXXX and \\UXXXXXXXX escapes are allowed there), found %s", p.found(j+1))
			}
			n, err := p.uchar(j)
			if err != nil {
				return "", j, err
			}
			escaped = true
			j += n
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(d[j:])
			if r == utf8.RuneError && n == 1 {
				return "", j, p.errorAt(j, "%s in an IRI", p.found(j))
			}
			j += n
		case j >= len(d) || c == '\n' || c == '\r':
			return "", j, p.errorAt(j, "expected '>' to end the IRI, found %s", p.found(j))
		case iriStop[c]:
			return "", j, p.errorAt(j, "%s is not allowed in an IRI (write it as \\u%04X)", p.found(j), c)
		default:
			j++
		}
	}
}

func (p *ChunkParser) relativeIRI(i int, v string) error {
	return p.errorAt(i, "relative IRI <%s>: %s allows only absolute IRIs (with a scheme such as http:)", v, p.syntax)
}

// uchar checks the UCHAR at d[j] == '\\' followed by 'u' or 'U' and
// returns its length.
func (p *ChunkParser) uchar(j int) (int, error) {
	d := p.data
	n := 4
	if d[j+1] == 'U' {
		n = 8
	}
	var r uint32
	for k := j + 2; k < j+2+n; k++ {
		c := peek(d, k)
		if !chars.IsHex(c) {
			return 0, p.errorAt(k, "expected %d hex digits after \\%c, found %s", n, d[j+1], p.found(k))
		}
		r = r<<4 | uint32(hexValue(c))
	}
	if r > utf8.MaxRune || (r >= 0xD800 && r <= 0xDFFF) {
		return 0, p.errorAt(j, "escape %s is not a Unicode character", d[j:j+2+n])
	}
	return 2 + n, nil
}

// literal parses the literal starting at d[i] == '"': the string, then an
// optional language tag or datatype.
func (p *ChunkParser) literal(i int) (rdf.Term, int, error) {
	d := p.data
	j := i + 1
	for j < len(d) && !stringStop[d[j]] {
		j++
	}
	var lex string
	if j < len(d) && d[j] == '"' {
		lex = str(d[i+1 : j])
		j++
	} else {
		var err error
		if lex, j, err = p.stringSlow(i, j); err != nil {
			return rdf.Term{}, j, err
		}
	}
	k := skipSpace(d, j)
	switch peek(d, k) {
	case '@':
		lang, k, err := p.langTag(k)
		return rdf.Term{Kind: rdf.KindLiteral, Value: lex, Datatype: rdf.RDFLangString, Lang: lang}, k, err
	case '^':
		if peek(d, k+1) != '^' {
			return rdf.Term{}, k + 1, p.errorAt(k+1, "expected '^^' before the datatype IRI, found '^' then %s", p.found(k+1))
		}
		k = skipSpace(d, k+2)
		if peek(d, k) != '<' {
			return rdf.Term{}, k, p.errorAt(k, "expected a datatype IRI after '^^', found %s", p.found(k))
		}
		dt, k, err := p.iri(k)
		return rdf.Term{Kind: rdf.KindLiteral, Value: lex, Datatype: dt}, k, err
	}
	return rdf.Term{Kind: rdf.KindLiteral, Value: lex, Datatype: rdf.XSDString}, j, nil
}

// stringSlow goes on from d[j], the first byte literal's fast scan stopped
// at, and returns the decoded string and the offset after the closing '"'.
func (p *ChunkParser) stringSlow(i, j int) (string, int, error) {
	d := p.data
	escaped := false
	for {
		c := peek(d, j)
		switch {
		case c == '"':
			if !escaped {
				return str(d[i+1 : j]), j + 1, nil
			}
			off := len(p.scratch)
			p.scratch = unescape(p.scratch, d[i+1:j])
			return str(p.scratch[off:]), j + 1, nil
		case c == '\\':
			escaped = true
			switch peek(d, j+1) {
			case 't', 'b', 'n', 'r', 'f', '"', '\'', '\\':
				j += 2
			case 'u', 'U':
				n, err := p.uchar(j)
				if err != nil {
					return "", j, err
				}
				j += n
			default:
				return "", j + 1, p.errorAt(j+1, "invalid escape: expected one of t b n r f \" ' \\ u U after '\\', found %s", p.found(j+1))
			}
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(d[j:])
			if r == utf8.RuneError && n == 1 {
				return "", j, p.errorAt(j, "%s in a literal", p.found(j))
			}
			j += n
		case j >= len(d) || c == '\n' || c == '\r':
			return "", j, p.errorAt(j, "expected '\"' to end the literal, found %s", p.found(j))
		default:
			j++
		}
	}
}

// unescape appends src to dst with its ECHAR and UCHAR escapes decoded;
// src has been validated.
func unescape(dst, src []byte) []byte {
	for k := 0; k < len(src); k++ {
		c := src[k]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		k++
		switch src[k] {
		case 't':
			dst = append(dst, '\t')
		case 'b':
			dst = append(dst, '\b')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 'f':
			dst = append(dst, '\f')
		case 'u', 'U':
			n := 4
			if src[k] == 'U' {
				n = 8
			}
			var r rune
			for _, h := range src[k+1 : k+1+n] {
				r = r<<4 | hexValue(h)
			}
			dst = utf8.AppendRune(dst, r)
			k += n
		default: // " ' and \ stand for themselves
			dst = append(dst, src[k])
		}
	}
	return dst
}

// langTag parses LANGTAG at d[k] == '@' and returns the tag without '@'.
func (p *ChunkParser) langTag(k int) (string, int, error) {
	d := p.data
	end, bad := scanLangTag(d, k+1)
	switch {
	case bad == k+1:
		return "", bad, p.errorAt(bad, "expected a letter to start the language tag after '@', found %s", p.found(bad))
	case bad >= 0:
		return "", bad, p.errorAt(bad, "expected letters or digits after '-' in the language tag, found %s", p.found(bad))
	}
	return str(d[k+1 : end]), end, nil
}

// scanLangTag matches [a-zA-Z]+ ('-' [a-zA-Z0-9]+)* at b[s]. It returns
// the end of the match, or bad >= 0: where a letter or digit was needed.
func scanLangTag(b []byte, s int) (end, bad int) {
	j := s
	for j < len(b) && chars.IsLetter(b[j]) {
		j++
	}
	if j == s {
		return j, j
	}
	for peek(b, j) == '-' {
		j++
		t := j
		for j < len(b) && (chars.IsLetter(b[j]) || chars.IsDigit(b[j])) {
			j++
		}
		if j == t {
			return j, j
		}
	}
	return j, -1
}

// blank parses BLANK_NODE_LABEL at d[i] == '_' and returns the label
// without "_:".
func (p *ChunkParser) blank(i int) (string, int, error) {
	d := p.data
	if peek(d, i+1) != ':' {
		return "", i + 1, p.errorAt(i+1, "expected ':' after '_' to start a blank node, found %s", p.found(i+1))
	}
	s := i + 2
	end := labelEnd(d, s)
	if end == s {
		return "", s, p.errorAt(s, "expected a blank node label after '_:', found %s", p.found(s))
	}
	return str(d[s:end]), end, nil
}

// labelEnd returns the end of the blank node label that starts at d[s]:
// (PN_CHARS_U | [0-9]) ((PN_CHARS | '.')* PN_CHARS)?. It returns s when
// d[s] cannot start a label. Invalid UTF-8 ends the label.
func labelEnd(d []byte, s int) int {
	j := s
	if c := peek(d, j); c < utf8.RuneSelf {
		if !labelASCII[c] || c == '-' || c == '.' {
			return s
		}
		j++
	} else {
		r, n := utf8.DecodeRune(d[j:])
		if (r == utf8.RuneError && n == 1) || !chars.PNCharsBase(r) {
			return s
		}
		j += n
	}
	for j < len(d) {
		if c := d[j]; c < utf8.RuneSelf {
			if !labelASCII[c] {
				break
			}
			j++
			continue
		}
		r, n := utf8.DecodeRune(d[j:])
		if (r == utf8.RuneError && n == 1) || !chars.PNChars(r) {
			break
		}
		j += n
	}
	for d[j-1] == '.' { // a label cannot end with '.': it ends the statement
		j--
	}
	return j
}

// comment skips the comment at d[i] == '#' up to the line break; its text
// must be valid UTF-8 like the rest of the document.
func (p *ChunkParser) comment(i int) (int, error) {
	d := p.data
	j := i + 1
	ascii := true
	for j < len(d) && d[j] != '\n' && d[j] != '\r' {
		if d[j] >= utf8.RuneSelf {
			ascii = false
		}
		j++
	}
	if !ascii {
		for k := i; k < j; {
			r, n := utf8.DecodeRune(d[k:j])
			if r == utf8.RuneError && n == 1 {
				return j, p.errorAt(k, "%s in a comment", p.found(k))
			}
			k += n
		}
	}
	return j, nil
}
