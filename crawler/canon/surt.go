package canon

import (
	"net/netip"
	"strings"
)

// SURT returns the Heritrix SURT ("Sort-friendly URI Reordering Transform")
// of the fetch form: host labels reversed with a trailing comma, then port
// and userinfo, all inside parentheses:
//
//	http://www.example.org:8080/a?b  →  http://(org,example,www,:8080)/a?b
//
// IP addresses are not reversed ("http://(127.0.0.1)/"). URLs without a host
// (mailto:, dns:) are returned as Href, as Heritrix does. Dropping the
// "scheme://" gives the scheme-less form "(org,example,www,)/a?b".
func (u URL) SURT() string {
	if !u.Hierarchical() {
		return u.Href
	}
	var b strings.Builder
	b.Grow(len(u.Href) + 4)
	b.WriteString(u.Scheme)
	b.WriteString("://(")
	if isIP(u.Host) {
		b.WriteString(u.Host)
	} else {
		writeReversed(&b, u.Host)
		b.WriteByte(',')
	}
	if u.Port != "" {
		b.WriteByte(':')
		b.WriteString(u.Port)
	}
	if u.Userinfo != "" {
		b.WriteByte('@')
		b.WriteString(u.Userinfo)
	}
	b.WriteByte(')')
	b.WriteString(u.Path)
	if u.HasQuery {
		b.WriteByte('?')
		b.WriteString(u.Query)
	}
	return b.String()
}

// ScopeSURT is the SURT compared against SURT prefixes: Heritrix treats
// https as http there, so one prefix covers both schemes.
func (u URL) ScopeSURT() string {
	return coerceHTTP(u.SURT())
}

func coerceHTTP(s string) string {
	if strings.HasPrefix(s, "https://") {
		return "http://" + s[len("https://"):]
	}
	return s
}

// SURTPrefix turns a seed or a scope rule into a SURT prefix, following
// Heritrix's SurtPrefixSet rules:
//
//	http://www.example.org        → http://(org,example,www,     (host and its subdomains)
//	http://www.example.org/       → http://(org,example,www,)/   (this host only)
//	http://example.org/a/b.html   → http://(org,example,)/a/     (this directory)
//	https://…                     → http://…                     (schemes merged)
//
// An explicit SURT prefix ("http://(org,example," or "(org,example,"), with
// an optional leading '+' as in Heritrix seed files, is taken literally
// (lowercased, scheme added or coerced to http).
func (c *Canonicalizer) SURTPrefix(rule string) (string, error) {
	rule = strings.TrimPrefix(strings.TrimSpace(rule), "+")
	if strings.HasPrefix(rule, "(") {
		return "http://" + strings.ToLower(rule), nil
	}
	if strings.Contains(rule, "://(") {
		return coerceHTTP(strings.ToLower(rule)), nil
	}
	// Heritrix's implied-http test: no ':' at all, or a '.' before it.
	if colon, dot := strings.IndexByte(rule, ':'), strings.IndexByte(rule, '.'); colon < 0 || dot >= 0 && dot < colon {
		rule = "http://" + rule
	}
	u, err := c.Parse(rule)
	if err != nil {
		return "", err
	}
	if !u.Hierarchical() {
		return "", &Error{Input: rule, Reason: "a SURT prefix needs a URL with a host"}
	}
	u.HasQuery, u.Query = false, ""
	s := u.ScopeSURT()
	if _, authority, _ := strings.Cut(rule, "://"); !strings.ContainsAny(authority, "/?#") {
		return strings.TrimSuffix(s, ")/"), nil
	}
	return s[:strings.LastIndexByte(s, '/')+1], nil
}

func writeReversed(b *strings.Builder, host string) {
	for end := len(host); end > 0; {
		start := strings.LastIndexByte(host[:end], '.') + 1
		b.WriteString(host[start:end])
		if start > 0 {
			b.WriteByte(',')
		}
		end = start - 1
	}
}

func isIP(host string) bool {
	if strings.HasPrefix(host, "[") {
		return true
	}
	_, err := netip.ParseAddr(host)
	return err == nil
}
