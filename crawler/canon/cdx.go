package canon

import (
	"slices"
	"strings"
)

// CDXKey returns the SURT key pywb and the Wayback Machine sort CDX/CDXJ
// indexes by: the result of Python surt.surt(url) with its defaults
// (DefaultIAURLCanonicalizer: Google's minimal escaping, then IA rules):
//
//	http://www.Example.org:8080/A/?b=2&a=1#f  →  org,example:8080)/a?a=1&b=2
//
// Scheme, userinfo, fragment and a leading www[N] label are dropped, host
// labels are reversed without a trailing comma (IPv4 addresses too), path
// and query are percent-decoded repeatedly then re-escaped minimally and
// lowercased, empty path segments and a trailing slash are removed, session
// ids are stripped and query parameters sorted. Write-side and lookup-side
// must both use this function: any other canonicalization gives other keys.
// URLs without a host (mailto:, dns:) are returned as Href, as surt does.
//
// One known divergence: surt's regex-based session-id stripping can leave an
// empty parameter ("a=1&jsessionid=…" → "&a=1"); this keeps "a=1".
func (u URL) CDXKey() string {
	if !u.Hierarchical() {
		return u.Href
	}
	var b strings.Builder
	b.Grow(len(u.Href))
	writeReversed(&b, stripWWW(u.Host, false))
	if u.Port != "" {
		b.WriteByte(':')
		b.WriteString(u.Port)
	}
	b.WriteByte(')')

	path := strings.ToLower(escapeOnce(collapsePath(unescapeRepeatedly(u.Path))))
	path = stripASPSessionSegments(path)
	if len(path) > 1 {
		path = strings.TrimSuffix(path, "/")
	}
	b.WriteString(path)

	if u.Query != "" {
		params := stripQuerySessionIDs(strings.Split(escapeOnce(unescapeRepeatedly(u.Query)), "&"))
		for i := range params {
			params[i] = strings.ToLower(params[i])
		}
		slices.SortFunc(params, compareParams)
		if q := strings.Join(params, "&"); q != "" {
			b.WriteByte('?')
			b.WriteString(q)
		}
	}
	return b.String()
}

// compareParams orders "name[=value]" as Python sorts (name, value) tuples:
// by name, a bare name before name=anything, then by value.
func compareParams(a, b string) int {
	an, av, aok := strings.Cut(a, "=")
	bn, bv, bok := strings.Cut(b, "=")
	if c := strings.Compare(an, bn); c != 0 {
		return c
	}
	switch {
	case aok == bok:
		return strings.Compare(av, bv)
	case !aok:
		return -1
	}
	return 1
}

// unescapeRepeatedly decodes %XX escapes until none is left, so "%2525"
// and "%25" and "%" all key alike.
func unescapeRepeatedly(s string) string {
	for strings.IndexByte(s, '%') >= 0 {
		d := decodePercent(s)
		if d == s {
			break
		}
		s = d
	}
	return s
}

func decodePercent(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			if b == nil {
				b = append(make([]byte, 0, len(s)), s[:i]...)
			}
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		} else if b != nil {
			b = append(b, s[i])
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// escapeOnce percent-encodes control bytes, space, non-ASCII bytes, '#'
// and '%' and nothing else (Google's safe-browsing minimal escaping).
func escapeOnce(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c > 0x20 && c < 0x7f && c != '#' && c != '%' {
			if b != nil {
				b = append(b, c)
			}
			continue
		}
		if b == nil {
			b = append(make([]byte, 0, len(s)+8), s[:i]...)
		}
		b = append(b, '%', upperHex[c>>4], upperHex[c&15])
	}
	if b == nil {
		return s
	}
	return string(b)
}

// collapsePath removes empty segments and resolves dot segments that the
// repeated unescaping may have produced ("/%2E%2E/" → "/../").
func collapsePath(p string) string {
	if !strings.Contains(p, "//") && !strings.Contains(p, "/.") {
		return p
	}
	segs := strings.Split(p, "/")
	kept := make([]string, 0, len(segs))
	for i, s := range segs {
		switch {
		case s == ".":
		case s == "..":
			if len(kept) > 0 {
				kept = kept[:len(kept)-1]
			}
		case s == "" && i != len(segs)-1:
		default:
			kept = append(kept, s)
		}
	}
	return "/" + strings.Join(kept, "/")
}
