package canon

import "strings"

// Most references a crawler resolves are paths of one site, "/s/3/3141.html"
// or "story.html?id=7", made of characters WHATWG leaves as they are and
// free of dot segments. For those the standard's algorithm only joins the
// reference to the base, so directResolve builds the href with one string
// concatenation; anything else (a '%', a character WHATWG encodes, a dot
// segment, "//") goes to fastResolve's general path. The differential tests
// compare both with the WHATWG parser.

// Character classes of a direct reference: what may stand in its path and
// in its query without WHATWG changing it. Both leave out '%' (escapes are
// normalised), the backslash (a slash in special URLs) and, to stay well
// clear of the encode sets, the characters some set encodes: space, `"`,
// `#`, `<`, `>`, `[`, `\`, `]`, `^`, "`", `{`, `|`, `}` and, in the query,
// `'`. '?' ends the path and '#' the query.
const (
	directPath  = 1 << iota // may stand in a path
	directQuery             // may stand in a query
)

var directChars = func() (t [256]uint8) {
	for c := 0x21; c < 0x7f; c++ {
		if !strings.ContainsRune("\"#%<>?[\\]^`{|}", rune(c)) {
			t[c] |= directPath
		}
		if !strings.ContainsRune("\"#%'<>[\\]^`{|}", rune(c)) {
			t[c] |= directQuery
		}
	}
	return t
}()

// ResolveBytes is Resolve for a reference in a byte slice, such as an
// attribute of a page being parsed: a reference of the plain kind is
// resolved without being copied into a string first.
func (c *Canonicalizer) ResolveBytes(base URL, ref []byte) (URL, error) {
	if fastBase(base) {
		if u, ok := directResolve(c, base, trimC0Space(ref)); ok {
			return u, nil
		}
	}
	return c.Resolve(base, string(ref))
}

// directResolve resolves s, a reference already trimmed of C0 controls and
// spaces, against base (for which fastBase holds) when s is a path or a
// query of the plain kind; ok is false otherwise.
func directResolve[T string | []byte](c *Canonicalizer, base URL, s T) (URL, bool) {
	if len(s) == 0 || s[0] == '#' || len(s) > 1 && s[0] == '/' && s[1] == '/' || schemeLen(s) > 0 {
		return URL{}, false
	}
	pathEnd, queryEnd, ok := scanDirect(s)
	if !ok {
		return URL{}, false
	}
	origin := originLen(base)
	var prefix string
	switch {
	case s[0] == '/':
		prefix = base.Href[:origin]
	case base.wpath != base.Path:
		// The reference resolves against the base's path as WHATWG
		// serialises it, which Href has normalised.
		return URL{}, false
	case s[0] == '?':
		prefix = base.Href[:origin+len(base.Path)]
	default:
		prefix = base.Href[:origin+strings.LastIndexByte(base.Path, '/')+1]
	}
	// One allocation, the href, whether s is a string or bytes.
	var scratch [256]byte
	href := string(append(append(scratch[:0], prefix...), s[:queryEnd]...))
	at := len(prefix) + pathEnd
	u := URL{
		Scheme:    base.Scheme,
		Host:      base.Host,
		Port:      base.Port,
		Path:      href[origin:at],
		HasQuery:  pathEnd < queryEnd,
		Href:      href,
		authority: true,
	}
	if u.HasQuery {
		u.Query = href[at+1:]
	}
	u.wpath, u.wquery = u.Path, u.Query
	if queryEnd < len(s) {
		u.Fragment = encodeFragment(string(s[queryEnd+1:]))
	}
	u.Canonical = c.canonical(&u)
	return u, true
}

// scanDirect checks that s is a direct reference: path characters up to
// the first '?' (pathEnd, len(s) without a query), query characters up to
// the first '#' (queryEnd, len(s) without a fragment), a fragment of
// printable ASCII, and no path segment "." or "..".
func scanDirect[T string | []byte](s T) (pathEnd, queryEnd int, ok bool) {
	i := 0
	segment := 0 // where the current path segment starts
	for ; i < len(s); i++ {
		c := s[i]
		if directChars[c]&directPath != 0 {
			if c == '/' {
				if isDotSegment(s[segment:i]) {
					return 0, 0, false
				}
				segment = i + 1
			}
			continue
		}
		if c != '?' && c != '#' {
			return 0, 0, false
		}
		break
	}
	if isDotSegment(s[segment:i]) {
		return 0, 0, false
	}
	pathEnd = i
	if i < len(s) && s[i] == '?' {
		for i++; i < len(s) && directChars[s[i]]&directQuery != 0; i++ {
		}
		if i < len(s) && s[i] != '#' {
			return 0, 0, false
		}
	}
	queryEnd = i
	if !plainASCII(s[queryEnd:]) {
		return 0, 0, false
	}
	return pathEnd, queryEnd, true
}

// isDotSegment reports "." and ".." (their escaped forms hold a '%', which
// a direct reference has not).
func isDotSegment[T string | []byte](seg T) bool {
	return len(seg) == 1 && seg[0] == '.' || len(seg) == 2 && seg[0] == '.' && seg[1] == '.'
}
