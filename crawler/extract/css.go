package extract

import "bytes"

// cssContext is Heritrix's context for URLs found in CSS (LinkContext.EMBED_MISC).
const cssContext = "=EMBED_MISC"

// css adds the url() and @import references of a style sheet, a <style>
// block or a style attribute, skipping comments.
func (c *collector) css(b []byte) {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '/':
			if i+1 < len(b) && b[i+1] == '*' {
				end := bytes.Index(b[i+2:], []byte("*/"))
				if end < 0 {
					return
				}
				i += end + 3
			}
		case 'u', 'U':
			if i+4 <= len(b) && bytes.EqualFold(b[i:i+4], []byte("url(")) && (i == 0 || !isNameByte(b[i-1])) {
				v, n := cssURL(b[i+4:])
				if v != nil {
					c.add(v, Embed, cssContext)
				}
				i += 3 + n
			}
		case '@':
			if i+7 <= len(b) && bytes.EqualFold(b[i+1:i+7], []byte("import")) {
				j := i + 7
				for j < len(b) && isSpace(b[j]) {
					j++
				}
				if j < len(b) && (b[j] == '"' || b[j] == '\'') {
					if end := bytes.IndexByte(b[j+1:], b[j]); end >= 0 {
						c.add(b[j+1:j+1+end], Embed, cssContext)
						i = j + 1 + end
					}
				}
			}
		}
	}
}

// cssURL reads the inside of url(…) and returns the reference and the bytes
// consumed up to and including ')'.
func cssURL(b []byte) ([]byte, int) {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i < len(b) && (b[i] == '"' || b[i] == '\'') {
		q := b[i]
		end := bytes.IndexByte(b[i+1:], q)
		if end < 0 {
			return nil, len(b)
		}
		v := b[i+1 : i+1+end]
		rest := i + 1 + end + 1
		if close := bytes.IndexByte(b[rest:], ')'); close >= 0 {
			return v, rest + close + 1
		}
		return v, len(b)
	}
	end := bytes.IndexByte(b[i:], ')')
	if end < 0 {
		return nil, len(b)
	}
	return bytes.TrimRight(b[i:i+end], " \t\n\f\r"), i + end + 1
}

func isNameByte(b byte) bool {
	return b == '-' || b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}
