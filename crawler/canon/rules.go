package canon

import (
	"slices"
	"strings"
)

// canonical builds the Heritrix-style already-seen key from the fetch form.
func (c *Canonicalizer) canonical(u *URL) string {
	o := c.opts
	userinfo, host, path, query := u.Userinfo, u.Host, u.Path, u.Query
	if !o.KeepUserinfo {
		userinfo = ""
	}
	if o.StripWWW {
		host = stripWWW(host, true)
	}
	if !o.KeepSessionIDs {
		path = stripPathSessionIDs(path)
	}
	hasQuery := u.HasQuery
	if hasQuery {
		query = fixQuery(query, !o.KeepSessionIDs, o.SortQuery, !o.KeepEmptyQuery)
		if query == "" && !o.KeepEmptyQuery {
			hasQuery = false
		}
	}
	if o.LowercasePath {
		path, query = strings.ToLower(path), strings.ToLower(query)
	}
	fragment := ""
	if o.KeepFragment {
		fragment = u.Fragment
	}
	if userinfo == u.Userinfo && host == u.Host && path == u.Path && query == u.Query && hasQuery == u.HasQuery && fragment == "" {
		return u.Href // the usual case: the key is the fetch form
	}
	return u.assemble(userinfo, host, path, query, hasQuery, fragment)
}

// stripWWW drops a leading "www." or "wwwN." label. With needDot it keeps
// hosts where nothing but a TLD would remain ("www.com").
func stripWWW(host string, needDot bool) string {
	if !strings.HasPrefix(host, "www") {
		return host
	}
	i := 3
	for i < len(host) && host[i] >= '0' && host[i] <= '9' {
		i++
	}
	if i >= len(host) || host[i] != '.' {
		return host
	}
	rest := host[i+1:]
	if rest == "" || needDot && !strings.Contains(rest, ".") {
		return host
	}
	return rest
}

// fixQuery splits the query on '&', drops session-id parameters and empty
// parameters, and optionally sorts by name (stable, so repeated names keep
// their order, which some sites rely on).
func fixQuery(q string, stripSessions, sortByName, dropEmpty bool) string {
	if !queryNeedsFix(q, stripSessions, sortByName, dropEmpty) {
		return q
	}
	return rewriteQuery(q, stripSessions, sortByName, dropEmpty)
}

// queryNeedsFix reports, without allocating, whether fixQuery could change
// q: an empty parameter, a possible session id or parameters out of order.
func queryNeedsFix(q string, stripSessions, sortByName, dropEmpty bool) bool {
	prev := ""
	for i, rest := 0, q; ; i++ {
		p, more, found := strings.Cut(rest, "&")
		switch {
		case dropEmpty && p == "":
			return true
		case stripSessions && (isSessionParam(p) || strings.EqualFold(paramName(p), "cfid")):
			return true
		case sortByName && i > 0 && paramName(p) < prev:
			return true
		}
		if !found {
			return false
		}
		prev, rest = paramName(p), more
	}
}

// rewriteQuery applies fixQuery's rules.
func rewriteQuery(q string, stripSessions, sortByName, dropEmpty bool) string {
	params := strings.Split(q, "&")
	if stripSessions {
		params = stripQuerySessionIDs(params)
	}
	if dropEmpty {
		params = slices.DeleteFunc(params, func(p string) bool { return p == "" })
	}
	if sortByName {
		slices.SortStableFunc(params, func(a, b string) int { return strings.Compare(paramName(a), paramName(b)) })
	}
	return strings.Join(params, "&")
}

func paramName(p string) string {
	if i := strings.IndexByte(p, '='); i >= 0 {
		return p[:i]
	}
	return p
}

// stripQuerySessionIDs removes the parameters Heritrix's StripSessionIDs and
// StripSessionCFIDs rules recognise: jsessionid, phpsessid and sid with a
// 32-character alphanumeric value, ASPSESSIONIDxxxxxxxx with a 24-letter
// value, and a ColdFusion cfid/cftoken pair. Names match case-insensitively.
// Unlike Heritrix's whole-URL regexes this works per parameter, so it never
// leaves a dangling '&' and can strip several ids from one query.
func stripQuerySessionIDs(params []string) []string {
	cf := -1
	for i, p := range params {
		if strings.EqualFold(paramName(p), "cfid") && i+1 < len(params) && strings.EqualFold(paramName(params[i+1]), "cftoken") {
			cf = i
			break
		}
	}
	out := params[:0]
	for i, p := range params {
		if i == cf || i == cf+1 && cf >= 0 || isSessionParam(p) {
			continue
		}
		out = append(out, p)
	}
	return out
}

func isSessionParam(p string) bool {
	name, value, ok := strings.Cut(p, "=")
	if !ok {
		return false
	}
	switch {
	case strings.EqualFold(name, "jsessionid"), strings.EqualFold(name, "phpsessid"), strings.EqualFold(name, "sid"):
		return len(value) == 32 && allBytes(value, isAlnum)
	case len(name) == 20 && strings.EqualFold(name[:12], "aspsessionid"):
		return allBytes(name[12:], isAlpha) && len(value) == 24 && allBytes(value, isAlpha)
	}
	return false
}

// stripPathSessionIDs removes a Java servlet ";jsessionid=…" path parameter
// and ASP.NET cookieless "/(S(…))/" session segments (the two path forms the
// Internet Archive's URL canonicalizer strips).
func stripPathSessionIDs(path string) string {
	if strings.IndexByte(path, ';') < 0 {
		return stripASPSessionSegments(path)
	}
	if i := indexFold(path, ";jsessionid="); i >= 0 {
		if end := strings.IndexAny(path[i+1:], ";/"); end < 0 {
			path = path[:i]
		} else {
			path = path[:i] + path[i+1+end:]
		}
	}
	return stripASPSessionSegments(path)
}

// stripASPSessionSegments drops "(S(…))" segments that are followed by more
// path (the session id sits before the page it belongs to).
func stripASPSessionSegments(path string) string {
	if strings.IndexByte(path, '(') < 0 {
		return path
	}
	var b strings.Builder
	changed := false
	for rest := path; rest != ""; {
		seg, tail, slash := strings.Cut(rest, "/")
		if slash && tail != "" && isASPSessionSegment(seg) {
			changed = true
		} else {
			b.WriteString(seg)
			if slash {
				b.WriteByte('/')
			}
		}
		rest = tail
	}
	if !changed {
		return path
	}
	return b.String()
}

// isASPSessionSegment matches "(S(x24))", "(a(x24)S(x24)…)" and "(x24)",
// where x24 is 24 alphanumerics (WHATWG leaves parentheses unencoded).
func isASPSessionSegment(seg string) bool {
	if len(seg) < 26 || seg[0] != '(' || seg[len(seg)-1] != ')' {
		return false
	}
	inner := seg[1 : len(seg)-1]
	if len(inner) == 24 && allBytes(inner, isAlnum) {
		return true
	}
	for inner != "" {
		if len(inner) < 27 || !isAlpha(inner[0]) || inner[1] != '(' || inner[26] != ')' || !allBytes(inner[2:26], isAlnum) {
			return false
		}
		inner = inner[27:]
	}
	return true
}

func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

func allBytes(s string, f func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !f(s[i]) {
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isAlnum(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' }
func isHex(c byte) bool   { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f' }
func isUnreserved(c byte) bool {
	return isAlnum(c) || c == '-' || c == '.' || c == '_' || c == '~'
}

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c | 0x20 - 'a' + 10
}

const upperHex = "0123456789ABCDEF"

// normalizePercent applies RFC 3986 §6.2.2 to an already WHATWG-encoded
// component: escapes of unreserved characters are decoded ("%7E" → "~") and
// the remaining escapes get uppercase hex ("%2f" → "%2F"). An escape is not
// decoded into a hex digit that would complete a new escape with a stray '%'
// before it ("%%34%31" stays, where decoding would give "%41"), so that
// normalising twice changes nothing. It returns s itself when nothing
// changes, so the common case does not allocate.
func normalizePercent(s string) string {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s
	}
	var b []byte
	for ; i < len(s); i++ {
		if s[i] != '%' || i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			if b != nil {
				b = append(b, s[i])
			}
			continue
		}
		c := unhex(s[i+1])<<4 | unhex(s[i+2])
		want := [3]byte{'%', upperHex[c>>4], upperHex[c&15]}
		decode := isUnreserved(c) && !(isHex(c) && (b == nil && opensEscape(s[:i]) || b != nil && opensEscape(b)))
		if decode || s[i+1] != want[1] || s[i+2] != want[2] {
			if b == nil {
				b = append(make([]byte, 0, len(s)), s[:i]...)
			}
			if decode {
				b = append(b, c)
			} else {
				b = append(b, want[:]...)
			}
		} else if b != nil {
			b = append(b, want[:]...)
		}
		i += 2
	}
	if b == nil {
		return s
	}
	return string(b)
}

// opensEscape reports whether the output so far ends in a '%', or a '%' and
// one hex digit, that a hex digit appended next could turn into an escape.
func opensEscape[T string | []byte](out T) bool {
	n := len(out)
	return n >= 1 && out[n-1] == '%' || n >= 2 && out[n-2] == '%' && isHex(out[n-1])
}
