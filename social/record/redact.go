package record

import (
	"bytes"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Redacted replaces a credential wherever one is removed.
const Redacted = "REDACTED"

// credentialName matches the names of query parameters and headers that
// carry credentials on the platforms mneme speaks to and their kin:
// access_token (Mastodon, OAuth 2), oauth_* (Twitter's OAuth 1.0a),
// api_key, key, sig, password, session...
var credentialName = regexp.MustCompile(`(?i)(token|secret|passw|api[-_]?key|apikey|access[-_]?key|signature|^sig$|^key$|^auth|oauth|session|cookie|credential)`)

// pagingName matches paging parameters that credentialName would take
// for credentials (Twitter API v2's next_token and pagination_token).
var pagingName = regexp.MustCompile(`(?i)(pagination|next_token|page_token|continuation)`)

// credential reports whether a query parameter or header name carries a
// credential.
func credential(name string) bool {
	return credentialName.MatchString(name) && !pagingName.MatchString(name)
}

// Redactor removes credentials from what is archived, logged or stored:
// structurally (credential headers, credential-named query parameters,
// URL user info) and by value (every secret the campaign was given, in
// plain and URL-escaped forms, wherever it appears, a server's echo of
// it included).
type Redactor struct {
	values [][]byte // longest first, so that a secret containing another goes whole
}

// NewRedactor returns a redactor for the given secret values. Values
// shorter than 4 bytes are removed only structurally: replacing every "ab"
// of an archive would destroy it.
func NewRedactor(secrets ...string) *Redactor {
	r := &Redactor{}
	seen := map[string]bool{}
	for _, s := range secrets {
		if len(s) < 4 {
			continue
		}
		for _, v := range []string{s, url.QueryEscape(s), url.PathEscape(s)} {
			if !seen[v] {
				seen[v] = true
				r.values = append(r.values, []byte(v))
			}
		}
	}
	slices.SortFunc(r.values, func(a, b []byte) int { return len(b) - len(a) })
	return r
}

// Bytes returns b with every secret value replaced by Redacted; b itself
// when it holds none.
func (r *Redactor) Bytes(b []byte) []byte {
	for _, v := range r.values {
		if bytes.Contains(b, v) {
			b = bytes.ReplaceAll(b, v, []byte(Redacted))
		}
	}
	return b
}

// String is Bytes for a string.
func (r *Redactor) String(s string) string {
	for _, v := range r.values {
		if strings.Contains(s, string(v)) {
			s = strings.ReplaceAll(s, string(v), Redacted)
		}
	}
	return s
}

// URL returns u without user info, with the values of credential-named
// query parameters replaced, and with no secret value left anywhere.
func (r *Redactor) URL(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	c.User = nil
	if c.RawQuery != "" {
		q := c.Query()
		changed := false
		for name, vs := range q {
			if credential(name) {
				for i := range vs {
					vs[i] = Redacted
				}
				changed = true
			}
		}
		if changed {
			c.RawQuery = q.Encode()
		}
	}
	return r.String(c.String())
}

// CredentialHeader reports whether a header carries credentials and is
// left out of archives whole.
func CredentialHeader(name string) bool {
	switch http.CanonicalHeaderKey(name) {
	case "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "Set-Cookie2":
		return true
	}
	return credential(name)
}

// Header returns a copy of h without credential headers, and with no
// secret value left in the others.
func (r *Redactor) Header(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for name, vs := range h {
		if CredentialHeader(name) {
			continue
		}
		c := make([]string, len(vs))
		for i, v := range vs {
			c[i] = r.String(v)
		}
		out[name] = c
	}
	return out
}
