// Package iri resolves relative IRI references against a base IRI as
// RFC 3986 §5.2 specifies, the way Turtle, TriG, RDF/XML and SPARQL need
// it. It works on strings and does no percent-decoding or normalization
// beyond the standard's dot-segment removal, so resolved IRIs keep their
// characters exactly.
package iri

import (
	"errors"
	"strings"
)

// ref is an IRI reference split into its five components. The has* fields
// tell a component that is present but empty ("http://a?#") from one that
// is absent.
type ref struct {
	scheme, authority, path, query, fragment       string
	hasScheme, hasAuthority, hasQuery, hasFragment bool
}

// parse splits s per RFC 3986 appendix B.
func parse(s string) ref {
	var r ref
	if i := schemeEnd(s); i > 0 {
		r.scheme, r.hasScheme = s[:i], true
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		r.fragment, r.hasFragment = s[i+1:], true
		s = s[:i]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		r.query, r.hasQuery = s[i+1:], true
		s = s[:i]
	}
	if strings.HasPrefix(s, "//") {
		s = s[2:]
		i := strings.IndexByte(s, '/')
		if i < 0 {
			i = len(s)
		}
		r.authority, r.hasAuthority = s[:i], true
		s = s[i:]
	}
	r.path = s
	return r
}

// schemeEnd returns the index of the ':' ending a valid scheme at the
// start of s, or -1.
func schemeEnd(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return i
		default:
			return -1
		}
	}
	return -1
}

// IsAbsolute reports whether s starts with a scheme.
func IsAbsolute(s string) bool { return schemeEnd(s) > 0 }

// ErrRelativeBase is returned when a relative reference must be resolved
// against a base that is missing or itself relative.
var ErrRelativeBase = errors.New("cannot resolve a relative IRI without an absolute base IRI")

// Resolve returns the target IRI of reference s against base (RFC 3986
// §5.2.2, strict: a reference with a scheme is taken as absolute).
func Resolve(base, s string) (string, error) {
	r := parse(s)
	if r.hasScheme {
		r.path = removeDotSegments(r.path)
		return r.String(), nil
	}
	b := parse(base)
	if !b.hasScheme {
		return "", ErrRelativeBase
	}
	var t ref
	t.scheme, t.hasScheme = b.scheme, true
	switch {
	case r.hasAuthority:
		t.authority, t.hasAuthority = r.authority, true
		t.path = removeDotSegments(r.path)
		t.query, t.hasQuery = r.query, r.hasQuery
	case r.path == "":
		t.authority, t.hasAuthority = b.authority, b.hasAuthority
		t.path = b.path
		if r.hasQuery {
			t.query, t.hasQuery = r.query, true
		} else {
			t.query, t.hasQuery = b.query, b.hasQuery
		}
	default:
		t.authority, t.hasAuthority = b.authority, b.hasAuthority
		if r.path[0] == '/' {
			t.path = removeDotSegments(r.path)
		} else {
			t.path = removeDotSegments(merge(b, r.path))
		}
		t.query, t.hasQuery = r.query, r.hasQuery
	}
	t.fragment, t.hasFragment = r.fragment, r.hasFragment
	return t.String(), nil
}

// merge implements RFC 3986 §5.2.3.
func merge(b ref, path string) string {
	if b.hasAuthority && b.path == "" {
		return "/" + path
	}
	i := strings.LastIndexByte(b.path, '/')
	if i < 0 {
		return path
	}
	return b.path[:i+1] + path
}

// removeDotSegments implements RFC 3986 §5.2.4.
func removeDotSegments(in string) string {
	if !strings.Contains(in, ".") {
		return in
	}
	var out []string // output segments, each starting with "/" except maybe the first
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		case in == "/..":
			in = "/"
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		case in == "." || in == "..":
			in = ""
		default:
			start := 0
			if in[0] == '/' {
				start = 1
			}
			i := strings.IndexByte(in[start:], '/')
			if i < 0 {
				i = len(in)
			} else {
				i += start
			}
			out = append(out, in[:i])
			in = in[i:]
		}
	}
	return strings.Join(out, "")
}

// String recomposes the reference (RFC 3986 §5.3).
func (r ref) String() string {
	var b strings.Builder
	if r.hasScheme {
		b.WriteString(r.scheme)
		b.WriteByte(':')
	}
	if r.hasAuthority {
		b.WriteString("//")
		b.WriteString(r.authority)
	}
	b.WriteString(r.path)
	if r.hasQuery {
		b.WriteByte('?')
		b.WriteString(r.query)
	}
	if r.hasFragment {
		b.WriteByte('#')
		b.WriteString(r.fragment)
	}
	return b.String()
}
