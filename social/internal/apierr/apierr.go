// Package apierr turns what goes wrong in a platform's API request into one
// clear error: the platform, the method and URL of the request (credentials
// removed), the HTTP status, and what was wrong with the body.
//
// Client libraries report a failed request in their own words, often without
// the URL or the status (a JSON decoding error says neither). A Tracker, put
// in the client's transport chain, remembers the last exchange, so the
// platform can name it in the error it returns; Scrub then removes any
// credential value a server may have echoed.
package apierr

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
)

// Error is a failed API request.
type Error struct {
	Platform string
	Method   string
	URL      string // credentials removed
	Status   int    // 0 when no response arrived
	// ContentType is the response's media type, when one arrived.
	ContentType string
	Err         error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Platform)
	b.WriteString(": ")
	if e.URL != "" {
		b.WriteString(e.Method)
		b.WriteByte(' ')
		b.WriteString(e.URL)
		b.WriteString(": ")
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, "%d %s", e.Status, http.StatusText(e.Status))
		if e.Err != nil {
			b.WriteString(": ")
		}
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Exchange is what a Tracker saw of one request.
type Exchange struct {
	Method      string
	URL         string // credentials removed
	Status      int
	ContentType string
}

// Tracker is an http.RoundTripper that remembers the last exchange it
// passed on. It is made per Fetch, so the last exchange is the one that
// failed.
type Tracker struct {
	Next http.RoundTripper
	mu   sync.Mutex
	last Exchange
}

// RoundTrip passes req on and remembers it and its response's status.
func (t *Tracker) RoundTrip(req *http.Request) (*http.Response, error) {
	ex := Exchange{Method: req.Method, URL: RedactURL(req.URL)}
	t.set(ex)
	resp, err := t.Next.RoundTrip(req)
	if err == nil {
		ex.Status = resp.StatusCode
		ex.ContentType, _, _ = mime.ParseMediaType(resp.Header.Get("Content-Type"))
		t.set(ex)
	}
	return resp, err
}

func (t *Tracker) set(ex Exchange) {
	t.mu.Lock()
	t.last = ex
	t.mu.Unlock()
}

// Last is the last exchange, or the zero Exchange before the first.
func (t *Tracker) Last() Exchange {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.last
}

// Wrap returns err as an *Error naming the last exchange, with every
// credential value removed from its text. A response that was not JSON
// where JSON was due is said so, since a decoding error alone ("invalid
// character '<'") does not tell a user that a login page or proxy answered.
func (t *Tracker) Wrap(platform string, err error, creds map[string]string) error {
	if err == nil {
		return nil
	}
	var done *Error
	if errors.As(err, &done) {
		return done
	}
	ex := t.Last()
	if ex.Status >= 200 && ex.Status < 300 && ex.ContentType != "" && !strings.Contains(ex.ContentType, "json") {
		err = fmt.Errorf("response is %s, not JSON: %w", ex.ContentType, err)
	}
	return &Error{
		Platform: platform, Method: ex.Method, URL: ex.URL, Status: ex.Status,
		ContentType: ex.ContentType, Err: scrubbed{err, creds},
	}
}

// scrubbed is an error whose text has the credential values removed but
// which still unwraps to the original, so errors.Is keeps working.
type scrubbed struct {
	err   error
	creds map[string]string
}

func (s scrubbed) Error() string { return Scrub(s.err.Error(), s.creds) }
func (s scrubbed) Unwrap() error { return s.err }

// Scrub replaces every credential value in s by "[redacted]". Values shorter
// than 4 bytes are left alone: they cannot be secrets, and replacing them
// would mangle the text.
func Scrub(s string, creds map[string]string) string {
	vals := make([]string, 0, len(creds))
	for _, v := range creds {
		if len(v) >= 4 {
			vals = append(vals, v)
		}
	}
	// Longest first, so a secret that contains another is removed whole.
	sort.Slice(vals, func(i, j int) bool { return len(vals[i]) > len(vals[j]) })
	for _, v := range vals {
		s = strings.ReplaceAll(s, v, "[redacted]")
		if q := url.QueryEscape(v); q != v {
			s = strings.ReplaceAll(s, q, "[redacted]")
		}
	}
	return s
}

// secretParams are query parameters that carry credentials in the APIs
// the platforms speak (OAuth 1 signatures, bearer tokens in the query).
var secretParams = []string{"access_token", "token", "api_key", "apikey", "key", "secret",
	"client_secret", "password", "signature", "sig", "oauth_token", "oauth_signature",
	"oauth_consumer_key", "oauth_nonce"}

// RedactURL returns u as a string without user info and with the values of
// credential-carrying query parameters replaced by "redacted".
func RedactURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	c.User = nil
	if c.RawQuery != "" {
		q := c.Query()
		changed := false
		for k := range q {
			lk := strings.ToLower(k)
			for _, s := range secretParams {
				if lk == s {
					q[k] = []string{"redacted"}
					changed = true
				}
			}
		}
		if changed {
			c.RawQuery = q.Encode()
		}
	}
	return c.String()
}
