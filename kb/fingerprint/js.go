package fingerprint

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// jsKey is a JavaScript global or property path as Wappalyzer's js rules
// name them ("smf_theme_url", "Static.SQUARESPACE_CONTEXT.templateVersion").
var jsKey = regexp.MustCompile(`^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$`)

// jsRule reads a js rule (a global the page's scripts define, which
// Wappalyzer reads in a browser) as a pattern on the markup: the global's
// definition in an inline script (findJS). A crawl runs no JavaScript,
// but an application's embedded settings are commonly written in the
// page (`var smf_theme_url = …`, `window.inSidedData = …`,
// `Static.SQUARESPACE_CONTEXT = {…}`); a global an external script
// defines stays unseen. It returns the pattern's source (the literal the
// markup index files it under, lower-cased, and the rule's confidence)
// and the path's names as written (JavaScript names are case-sensitive). A rule that constrains the value (other than
// reading a version, which needs the value) is left out: ok is false.
func jsRule(key string, raw json.RawMessage) (src string, path []string, ok bool) {
	var v string
	if json.Unmarshal(raw, &v) != nil || !jsKey.MatchString(key) {
		return "", nil, false
	}
	parts := strings.Split(v, `\;`)
	versioned, conf := false, ""
	for _, a := range parts[1:] {
		switch {
		case strings.HasPrefix(a, "version:"):
			versioned = true
		case strings.HasPrefix(a, "confidence:"):
			conf = `\;` + a
		}
	}
	if parts[0] != "" && !versioned {
		return "", nil, false
	}
	path = strings.Split(key, ".")
	return regexp.QuoteMeta(strings.ToLower(jsLiteral(path))) + conf, path, true
}

// jsLiteral is the part of a path every definition findJS takes holds:
// the lone name, or the first two names.
func jsLiteral(path []string) string {
	if len(path) > 1 {
		return path[0] + "." + path[1]
	}
	return path[0]
}

// findJS reports whether html defines the global path (lower is html
// lower-cased, searched for the path; names are then compared as
// written, as JavaScript's are case-sensitive): a lone name where it is declared (var, let, const) or set
// on window, as a bare `name =` may be any local; a path of two or more
// names where the path, or a prefix of it of two names or more, is
// assigned (`Static.SQUARESPACE_CONTEXT = {…}` for
// Static.SQUARESPACE_CONTEXT.templateVersion).
func findJS(path []string, html, lower []byte) bool {
	lit := jsLiteral(path)
	low := vdoc.LowerASCII([]byte(lit))
	for off := 0; ; {
		i := bytes.Index(lower[off:], low)
		if i < 0 {
			return false
		}
		start, end := off+i, off+i+len(lit)
		off = start + 1
		if string(html[start:end]) != lit {
			continue // another name in another case
		}
		if start > 0 && jsIdent(lower[start-1]) || end < len(lower) && jsIdent(lower[end]) {
			continue // part of a longer name
		}
		before := bytes.TrimRight(lower[:start], " \t\r\n")
		if len(path) == 1 {
			switch {
			case hasWord(before, "var"), hasWord(before, "let"), hasWord(before, "const"):
				if rest := bytes.TrimLeft(lower[end:], " \t\r\n"); len(rest) > 0 && strings.IndexByte("=;,", rest[0]) >= 0 {
					return true
				}
			case bytes.HasSuffix(before, []byte(".")) && hasWord(bytes.TrimRight(before[:len(before)-1], " \t"), "window"):
				if assigned(lower[end:]) {
					return true
				}
			case bytes.HasSuffix(before, []byte(`["`)) || bytes.HasSuffix(before, []byte(`['`)):
				w := bytes.TrimRight(before[:len(before)-2], " \t")
				if hasWord(w, "window") && end < len(lower) && lower[end] == before[len(before)-1] {
					if rest := bytes.TrimLeft(lower[end+1:], " \t"); len(rest) > 0 && rest[0] == ']' && assigned(rest[1:]) {
						return true
					}
				}
			}
			continue
		}
		if start > 0 && lower[start-1] == '.' {
			continue // a property of something else
		}
		// Further names of the path, each optional in turn.
		e := end
		for _, n := range path[2:] {
			if e+1+len(n) <= len(html) && html[e] == '.' && string(html[e+1:e+1+len(n)]) == n &&
				(e+1+len(n) == len(lower) || !jsIdent(lower[e+1+len(n)])) {
				e += 1 + len(n)
				continue
			}
			break
		}
		if assigned(lower[e:]) {
			return true
		}
	}
}

// assigned reports whether b starts with an assignment: spaces, '=', and
// not a comparison.
func assigned(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) >= 2 && b[0] == '=' && b[1] != '=' && b[1] != '>'
}

// hasWord reports whether b ends with the word w.
func hasWord(b []byte, w string) bool {
	return bytes.HasSuffix(b, []byte(w)) && (len(b) == len(w) || !jsIdent(b[len(b)-len(w)-1]))
}

func jsIdent(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$'
}
