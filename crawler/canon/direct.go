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
	directMark              // '.', ';' or '(': may start a dot segment or a session id
)

var directChars = func() (t [256]uint8) {
	for c := 0x21; c < 0x7f; c++ {
		if !strings.ContainsRune("\"#%<>?[\\]^`{|}", rune(c)) {
			t[c] |= directPath
		}
		if !strings.ContainsRune("\"#%'<>[\\]^`{|}", rune(c)) {
			t[c] |= directQuery
		}
		if strings.ContainsRune(".;(", rune(c)) {
			t[c] |= directMark
		}
	}
	return t
}()

// ResolveBytes is Resolve for a reference in a byte slice, such as an
// attribute of a page being parsed, writing the URL to *dst: a reference
// of the plain kind is resolved without being copied into a string first,
// and neither URL is copied (a URL is some 200 bytes, which a crawler
// resolving a hundred references a page would otherwise copy several times
// each).
func (c *Canonicalizer) ResolveBytes(dst, base *URL, ref []byte) error {
	if fastBase(base) && directResolve(c, dst, base, trimC0Space(ref)) {
		return nil
	}
	u, err := c.Resolve(*base, string(ref))
	*dst = u
	return err
}

// directResolve resolves s, a reference already trimmed of C0 controls and
// spaces, against base (for which fastBase holds) into *dst when s is a
// path or a query of the plain kind, and reports whether it did.
func directResolve[T string | []byte](c *Canonicalizer, dst, base *URL, s T) bool {
	if len(s) == 0 || s[0] == '#' || len(s) > 1 && s[0] == '/' && s[1] == '/' || schemeLen(s) > 0 {
		return false
	}
	pathEnd, queryEnd, plain, ok := scanDirect(s)
	if !ok {
		return false
	}
	origin := originLen(base)
	var prefix string
	switch {
	case s[0] == '/':
		prefix = base.Href[:origin]
	case base.wpath != base.Path:
		// The reference resolves against the base's path as WHATWG
		// serialises it, which Href has normalised.
		return false
	case s[0] == '?':
		prefix = base.Href[:origin+len(base.Path)]
	default:
		prefix = base.Href[:origin+strings.LastIndexByte(base.Path, '/')+1]
	}
	// The base's part of the path may hold a session id too.
	plain = plain && (s[0] == '/' || !strings.ContainsAny(prefix[origin:], ";("))
	// One allocation, the href: the compiler converts bytes in a
	// concatenation without copying them first.
	href := prefix + string(s[:queryEnd])
	at := len(prefix) + pathEnd
	*dst = URL{
		Scheme:    base.Scheme,
		Host:      base.Host,
		Port:      base.Port,
		Path:      href[origin:at],
		HasQuery:  pathEnd < queryEnd,
		Href:      href,
		authority: true,
	}
	if dst.HasQuery {
		dst.Query = href[at+1:]
	}
	dst.wpath, dst.wquery = dst.Path, dst.Query
	if queryEnd < len(s) {
		dst.Fragment = encodeFragment(string(s[queryEnd+1:]))
	}
	if o := &c.opts; plain && !dst.HasQuery && !o.StripWWW && !o.LowercasePath && (!o.KeepFragment || dst.Fragment == "") {
		dst.Canonical = href // what canonical gives: no rule applies
	} else {
		dst.Canonical = c.canonical(dst)
	}
	return true
}

// scanDirect checks that s is a direct reference: path characters up to
// the first '?' (pathEnd, len(s) without a query), query characters up to
// the first '#' (queryEnd, len(s) without a fragment), a fragment of
// printable ASCII, and no path segment "." or "..". plain reports a path
// without ';' or '(', where no session id can hide.
func scanDirect[T string | []byte](s T) (pathEnd, queryEnd int, plain, ok bool) {
	i := 0
	plain = true
	for ; i < len(s); i++ {
		c := s[i]
		class := directChars[c]
		if class&directPath == 0 {
			break
		}
		if class&directMark == 0 {
			continue
		}
		if c != '.' {
			plain = false // ';' or '('
		} else if (i == 0 || s[i-1] == '/') && dotSegmentAt(s, i) {
			return 0, 0, false, false
		}
	}
	pathEnd = i
	if i < len(s) && s[i] == '?' {
		for i++; i < len(s) && directChars[s[i]]&directQuery != 0; i++ {
		}
	}
	if i < len(s) && s[i] != '#' {
		return 0, 0, false, false
	}
	queryEnd = i
	if !plainASCII(s[queryEnd:]) {
		return 0, 0, false, false
	}
	return pathEnd, queryEnd, plain, true
}

// dotSegmentAt reports whether the path segment starting at s[i], a '.',
// is "." or "..".
func dotSegmentAt[T string | []byte](s T, i int) bool {
	j := i + 1
	if j < len(s) && s[j] == '.' {
		j++
	}
	return j == len(s) || s[j] == '/' || s[j] == '?' || s[j] == '#'
}
