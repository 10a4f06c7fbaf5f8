package canon

import (
	"bytes"
	"strings"
)

// The WHATWG parser costs about 10 µs and over a hundred allocations per
// URL, far too much for a crawler resolving a hundred links per page. Most
// URLs are printable ASCII http(s) URLs with a plain host name, for which
// the standard's algorithm reduces to splitting, dot-segment removal and
// percent-encoding a handful of ASCII characters. This file does exactly
// that, building the href in one buffer; whenever an input strays from that
// shape (userinfo, IDN or numeric hosts other than dotted quads, backslashes,
// tabs, control or non-ASCII characters, odd slashes, other schemes) it
// declines and the WHATWG parser decides. Differential tests and a fuzz
// target hold the two paths equal on every input this one accepts.

// fastParse parses raw when it is an absolute http(s) URL of the common shape.
func (c *Canonicalizer) fastParse(raw string) (URL, bool) {
	scheme, rest, ok := cutScheme(trimC0Space(raw))
	if !ok {
		return URL{}, false
	}
	scheme, ok = httpScheme(scheme)
	if !ok || !plainASCII(rest) {
		return URL{}, false
	}
	return c.fastAuthority(scheme, rest)
}

// resolution says how Resolve should go on when fastResolve declines.
type resolution int

const (
	resolved     resolution = iota // fastResolve produced the URL
	needBase                       // the WHATWG parser must resolve against the base
	absoluteOnly                   // the reference is absolute: the base does not matter
)

// fastResolve resolves ref against an http(s) base with a host and no
// userinfo, following the WHATWG relative states for references of the
// common shape.
func (c *Canonicalizer) fastResolve(base URL, ref string) (URL, resolution) {
	if !fastBase(&base) {
		return URL{}, needBase
	}
	s := trimC0Space(ref)
	if scheme, rest, ok := cutScheme(s); ok {
		lower, isHTTP := httpScheme(scheme)
		if isHTTP && plainASCII(rest) {
			if u, ok := c.fastAuthority(lower, rest); ok {
				return u, resolved
			}
		}
		// Only the base's own scheme without "//" ("http:x") is relative:
		// WHATWG reads any other scheme without looking at the base.
		if lower == base.Scheme {
			return URL{}, needBase
		}
		return URL{}, absoluteOnly
	}
	var u URL
	if directResolve(c, &u, &base, s) {
		return u, resolved
	}
	if !plainASCII(s) {
		return URL{}, needBase
	}
	switch {
	case strings.HasPrefix(s, "//"):
		if u, ok := c.fastAuthority(base.Scheme, s); ok {
			return u, resolved
		}
		return URL{}, needBase
	case s == "" || s[0] == '#':
		// The base itself, with the reference's fragment if any.
		u := base
		u.Fragment = ""
		if s != "" {
			u.Fragment = encodeFragment(s[1:])
		}
		u.Canonical = c.canonical(&u)
		return u, resolved
	}
	var scratch [256]byte
	b := newHrefBuffer(scratch[:0], base.Href[:originLen(&base)])
	switch s[0] {
	case '/':
		b = b.path(s[1:])
	case '?':
		b.buf = append(b.buf, base.wpath...)
		b.pathEnd = len(b.buf)
		b = b.query(s[1:])
	default:
		b.buf = append(b.buf, base.wpath[:strings.LastIndexByte(base.wpath, '/')]...)
		b = b.path(s)
	}
	return c.finish(base.Scheme, base.Port, b, fragmentOf(s)), resolved
}

// fastBase reports whether references can be resolved against base
// without the WHATWG parser: an http(s) URL with a host, no userinfo and a
// path.
func fastBase(base *URL) bool {
	return (base.Scheme == "http" || base.Scheme == "https") && base.Hierarchical() && base.Userinfo == "" &&
		strings.HasPrefix(base.wpath, "/")
}

// fastAuthority parses "//host[:port][/path][?query][#fragment]", already
// checked by plainASCII, for http or https, declining hosts and slashes that
// need the full algorithm.
func (c *Canonicalizer) fastAuthority(scheme, s string) (URL, bool) {
	if len(s) < 3 || s[0] != '/' || s[1] != '/' || s[2] == '/' {
		return URL{}, false
	}
	s = s[2:]
	end := strings.IndexAny(s, "/?#")
	if end < 0 {
		end = len(s)
	}
	hostport, tail := s[:end], s[end:]
	host, port := hostport, ""
	if i := strings.IndexByte(hostport, ':'); i >= 0 {
		host, port = hostport[:i], hostport[i+1:]
		var ok bool
		if port, ok = fastPort(scheme, port); !ok {
			return URL{}, false
		}
	}
	if !plainHost(host) {
		return URL{}, false
	}
	var scratch [256]byte
	b := newHrefBuffer(scratch[:0], "")
	b.buf = append(b.buf, scheme...)
	b.buf = append(b.buf, "://"...)
	b.buf = appendLower(b.buf, host)
	if port != "" {
		b.buf = append(b.buf, ':')
		b.buf = append(b.buf, port...)
	}
	b.pathStart = len(b.buf)
	if tail != "" && tail[0] == '/' {
		tail = tail[1:]
	}
	return c.finish(scheme, port, b.path(tail), fragmentOf(tail)), true
}

// hrefBuffer accumulates the WHATWG serialisation of a URL without its
// fragment: the origin, the path as "/"-prefixed segments, then the query.
type hrefBuffer struct {
	buf        []byte
	pathStart  int
	pathEnd    int
	queryStart int // index after '?', or -1 without a query
}

// fragmentOf returns the encoded fragment of a reference: what follows its
// first '#', as no earlier part keeps a '#' unencoded.
func fragmentOf(ref string) string {
	if i := strings.IndexByte(ref, '#'); i >= 0 {
		return encodeFragment(ref[i+1:])
	}
	return ""
}

// newHrefBuffer starts a buffer with origin in scratch, which callers take
// from their stack so that building a short href allocates only the result.
func newHrefBuffer(scratch []byte, origin string) hrefBuffer {
	b := hrefBuffer{buf: append(scratch, origin...), queryStart: -1}
	b.pathStart = len(b.buf)
	return b
}

// path runs the WHATWG path state over s (the input after the path's first
// '/', up to the end of the reference), appending to the segments already
// in the buffer, then goes on to the query. (The methods take and return
// the buffer by value: appending through a pointer would move the caller's
// scratch array to the heap.)
func (b hrefBuffer) path(s string) hrefBuffer {
	end := strings.IndexAny(s, "?#")
	if end < 0 {
		end = len(s)
	}
	p, rest := s[:end], s[end:]
	for {
		seg, more, found := strings.Cut(p, "/")
		switch {
		case isDoubleDot(seg):
			b.buf = b.shortened()
			if !found {
				b.buf = append(b.buf, '/')
			}
		case isSingleDot(seg):
			if !found {
				b.buf = append(b.buf, '/')
			}
		default:
			b.buf = append(b.buf, '/')
			b.buf = appendEscaped(b.buf, seg, pathEscapes)
		}
		if !found {
			break
		}
		p = more
	}
	b.pathEnd = len(b.buf)
	if rest != "" && rest[0] == '?' {
		return b.query(rest[1:])
	}
	return b
}

// shortened returns the buffer without its last path segment, if any.
func (b hrefBuffer) shortened() []byte {
	if len(b.buf) == b.pathStart {
		return b.buf
	}
	return b.buf[:b.pathStart+bytes.LastIndexByte(b.buf[b.pathStart:], '/')]
}

// query appends "?" and the query of s, up to a '#'.
func (b hrefBuffer) query(s string) hrefBuffer {
	q, _, _ := strings.Cut(s, "#")
	b.buf = append(b.buf, '?')
	b.queryStart = len(b.buf)
	b.buf = appendEscaped(b.buf, q, queryEscapes)
	return b
}

// finish turns the buffer into a URL, as build does for the WHATWG parser.
func (c *Canonicalizer) finish(scheme, port string, b hrefBuffer, fragment string) URL {
	href := string(b.buf)
	u := URL{
		Scheme:    scheme,
		Host:      href[len(scheme)+len("://") : b.pathStart-portLen(port)],
		Port:      port,
		wpath:     href[b.pathStart:b.pathEnd],
		Fragment:  fragment,
		HasQuery:  b.queryStart >= 0,
		authority: true,
	}
	if u.HasQuery {
		u.wquery = href[b.queryStart:]
	}
	u.Path, u.Query = normalizePercent(u.wpath), normalizePercent(u.wquery)
	if u.Path == u.wpath && u.Query == u.wquery {
		u.Href = href
	} else {
		u.Href = u.assemble("", u.Host, u.Path, u.Query, u.HasQuery, "")
	}
	u.Canonical = c.canonical(&u)
	return u
}

func portLen(port string) int {
	if port == "" {
		return 0
	}
	return len(port) + 1
}

// originLen is the length of "scheme://host[:port]" at the start of the
// Href of a URL without userinfo.
func originLen(u *URL) int {
	return len(u.Scheme) + len("://") + len(u.Host) + portLen(u.Port)
}

// trimC0Space drops leading and trailing C0 controls and spaces, as the
// WHATWG parser does first.
func trimC0Space[T string | []byte](s T) T {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	return s[i:j]
}

// plainASCII reports whether s is printable ASCII: no tabs or newlines
// (which WHATWG deletes anywhere), no controls, no backslashes (read as '/'
// in special URLs) and nothing needing UTF-8 percent-encoding or IDNA.
func plainASCII[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] >= 0x7f || s[i] == '\\' {
			return false
		}
	}
	return true
}

// cutScheme splits "scheme:rest" following the WHATWG scheme state: an ASCII
// letter, then letters, digits, '+', '-' or '.', then ':'.
func cutScheme(s string) (scheme, rest string, ok bool) {
	if i := schemeLen(s); i > 0 {
		return s[:i], s[i+1:], true
	}
	return "", "", false
}

// schemeLen is the length of the scheme s starts with, 0 for none.
func schemeLen[T string | []byte](s T) int {
	if len(s) == 0 || !isAlpha(s[0]) {
		return 0
	}
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == ':':
			return i
		case !isAlnum(c) && c != '+' && c != '-' && c != '.':
			return 0
		}
	}
	return 0
}

// httpScheme returns "http" or "https" for those schemes in any case; ok is
// false for other schemes.
func httpScheme(scheme string) (string, bool) {
	switch {
	case strings.EqualFold(scheme, "http"):
		return "http", true
	case strings.EqualFold(scheme, "https"):
		return "https", true
	}
	return "", false
}

// fastPort returns the port as WHATWG serialises it, "" for the scheme's
// default; ok is false for anything but 1 to 5 digits without a leading zero
// within range (an empty port also goes to the full parser).
func fastPort(scheme, port string) (string, bool) {
	if port == "" || len(port) > 5 || port[0] == '0' {
		return "", false
	}
	n := 0
	for i := 0; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return "", false
		}
		n = n*10 + int(port[i]-'0')
	}
	if n > 65535 {
		return "", false
	}
	if scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		return "", true
	}
	return port, true
}

// plainHost accepts the host names whose IDNA processing is only
// lowercasing: dot-separated non-empty labels of letters, digits and inner
// hyphens, none with "--" at the third position (where "xn--" starts a
// punycode label), the last starting with a letter (else WHATWG reads an
// IPv4 number); or a dotted quad of decimal octets without leading zeros.
func plainHost(host string) bool {
	last := host[strings.LastIndexByte(host, '.')+1:]
	if last == "" {
		return false
	}
	if last[0] >= '0' && last[0] <= '9' {
		return isDottedQuad(host)
	}
	for label := range strings.SplitSeq(host, ".") {
		if label == "" || label[0] == '-' || label[len(label)-1] == '-' || len(label) >= 4 && label[2] == '-' && label[3] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !isAlnum(c) && c != '-' {
				return false
			}
		}
	}
	return true
}

// isDottedQuad reports whether s is an IPv4 address in the form WHATWG
// serialises it: four decimal octets without leading zeros.
func isDottedQuad(s string) bool {
	parts := 0
	for part := range strings.SplitSeq(s, ".") {
		parts++
		if part == "" || len(part) > 3 || len(part) > 1 && part[0] == '0' {
			return false
		}
		n := 0
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return false
			}
			n = n*10 + int(part[i]-'0')
		}
		if n > 255 {
			return false
		}
	}
	return parts == 4
}

func isSingleDot(seg string) bool { return seg == "." || strings.EqualFold(seg, "%2e") }

func isDoubleDot(seg string) bool {
	switch len(seg) {
	case 2:
		return seg == ".."
	case 4:
		return strings.EqualFold(seg, ".%2e") || strings.EqualFold(seg, "%2e.")
	case 6:
		return strings.EqualFold(seg, "%2e%2e")
	}
	return false
}

// Printable ASCII characters that WHATWG percent-encodes in the path, the
// query of a special URL and the fragment (spaces included; controls and
// non-ASCII never reach here).
var (
	pathEscapes     = asciiSet(` "<>` + "`{}")
	queryEscapes    = asciiSet(` "<>'`)
	fragmentEscapes = asciiSet(` "<>` + "`")
)

type byteSet [4]uint32

func asciiSet(chars string) (s byteSet) {
	for i := 0; i < len(chars); i++ {
		s[chars[i]>>5] |= 1 << (chars[i] & 31)
	}
	return s
}

func (s *byteSet) has(c byte) bool { return s[c>>5]&(1<<(c&31)) != 0 }

func appendEscaped(dst []byte, s string, set byteSet) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; set.has(c) {
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

// encodeFragment returns s percent-encoded for the fragment, s itself when
// nothing needs encoding.
func encodeFragment(s string) string {
	for i := 0; i < len(s); i++ {
		if fragmentEscapes.has(s[i]) {
			return string(appendEscaped(make([]byte, 0, len(s)+8), s, fragmentEscapes))
		}
	}
	return s
}

// appendLower appends s with ASCII letters lowercased.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}
