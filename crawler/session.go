package crawler

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"time"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/fetch"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/crawler/warc"
)

// session is what the spec's http section adds to requests: headers,
// cookies and those of the login, with the secrets among them resolved
// from the environment. Secret header values and every Cookie the crawl
// sends are replaced by "[secret]" in the WARC request records.
type session struct {
	header  http.Header // sent with every request
	cookies []spec.Cookie
	values  map[int]string  // resolved cookie values, by index in cookies
	hidden  map[string]bool // canonical header names whose values are secret
	login   *spec.Login
	jar     *cookiejar.Jar // the login's cookies
}

// secretMark replaces a secret value in WARC request records.
const secretMark = "[secret]"

// newSession resolves the spec's http section (Check has vetted it); nil
// when it is empty.
func newSession(h spec.HTTP) (*session, error) {
	if len(h.Headers) == 0 && len(h.SecretHeaders) == 0 && len(h.Cookies) == 0 && h.Login == nil {
		return nil, nil
	}
	s := &session{header: http.Header{}, cookies: h.Cookies, values: map[int]string{}, hidden: map[string]bool{}, login: h.Login}
	for k, v := range h.Headers {
		s.header.Set(k, v)
	}
	for k, env := range h.SecretHeaders {
		v, err := spec.Secret(env)
		if err != nil {
			return nil, fmt.Errorf("http.secret-headers.%s: %w", k, err)
		}
		s.header.Set(k, v)
		s.hidden[http.CanonicalHeaderKey(k)] = true
	}
	for i, c := range h.Cookies {
		v := c.Value
		if c.Secret != "" {
			var err error
			if v, err = spec.Secret(c.Secret); err != nil {
				return nil, fmt.Errorf("http.cookies[%d]: %w", i, err)
			}
		}
		s.values[i] = v
	}
	if len(h.Cookies) > 0 || h.Login != nil {
		s.hidden["Cookie"] = true // a session cookie is a key to an account
	}
	return s, nil
}

// request is the fetch of u found on via, with the session's fields.
func (s *session) request(u canon.URL, via string) fetch.Request {
	req := fetch.Request{URL: u, Via: via}
	if s == nil {
		return req
	}
	req.Header = s.header.Clone()
	var pairs []string
	host := strings.ToLower(u.Host)
	for i, c := range s.cookies {
		if h := strings.ToLower(c.Host); host == h || strings.HasSuffix(host, "."+h) {
			pairs = append(pairs, c.Name+"="+s.values[i])
		}
	}
	if s.jar != nil {
		if pu, err := url.Parse(u.Href); err == nil {
			for _, c := range s.jar.Cookies(pu) {
				pairs = append(pairs, c.Name+"="+c.Value)
			}
		}
	}
	if len(pairs) > 0 {
		req.Header.Set("Cookie", strings.Join(pairs, "; "))
	}
	return req
}

// loginTimeout bounds the login exchange.
const loginTimeout = 30 * time.Second

// logIn POSTs the login form and keeps the cookies it sets. The exchange
// is not archived: its request holds the password, its response the
// session's keys. userAgent identifies the crawler as on every request.
func (s *session) logIn(ctx context.Context, userAgent string, log io.Writer) error {
	if s == nil || s.login == nil {
		return nil
	}
	l := s.login
	form := url.Values{}
	for k, v := range l.Fields {
		form.Set(k, v)
	}
	for k, env := range l.SecretFields {
		v, err := spec.Secret(env)
		if err != nil {
			return fmt.Errorf("login: secret-fields.%s: %w", k, err)
		}
		form.Set(k, v)
	}
	jar, err := cookiejar.New(nil)
	if err != nil {
		return err
	}
	client := &http.Client{Jar: jar, Timeout: loginTimeout, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse // the cookies come with the form's answer
	}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.URL, strings.NewReader(form.Encode()))
	if err != nil {
		return fmt.Errorf("login %s: %w", l.URL, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("User-Agent", userAgent)
	for k, vs := range s.header {
		req.Header[k] = vs
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("login %s: %w", l.URL, err)
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	u, _ := url.Parse(l.URL)
	switch {
	case resp.StatusCode >= 400:
		return fmt.Errorf("login %s: HTTP %s", l.URL, resp.Status)
	case len(jar.Cookies(u)) == 0:
		return fmt.Errorf("login %s: HTTP %s set no cookie (wrong fields or credentials?)", l.URL, resp.Status)
	}
	fmt.Fprintf(log, "login %s: HTTP %s, %d cookies\n", l.URL, resp.Status, len(jar.Cookies(u)))
	s.jar = jar
	return nil
}

// archived is the request record's content of req: as sent, but with the
// values of secret header fields replaced.
func (s *session) archived(req *fetch.Buffer) (warc.Content, error) {
	if s == nil || len(s.hidden) == 0 {
		return req, nil
	}
	b, ok := req.Bytes()
	if !ok {
		var err error
		if b, err = io.ReadAll(req.Reader()); err != nil {
			return nil, err
		}
	}
	head, body, found := bytes.Cut(b, []byte("\r\n\r\n"))
	if !found {
		return nil, errors.New("request record without an end of header")
	}
	lines := bytes.Split(head, []byte("\r\n"))
	for i, line := range lines[1:] { // the request line first
		name, _, ok := bytes.Cut(line, []byte(":"))
		if ok && s.hidden[http.CanonicalHeaderKey(string(bytes.TrimSpace(name)))] {
			lines[i+1] = append(append([]byte(nil), name...), ": "+secretMark...)
		}
	}
	out := append(bytes.Join(lines, []byte("\r\n")), "\r\n\r\n"...)
	return memContent(append(out, body...)), nil
}

// memContent is a record block held in memory.
type memContent []byte

func (m memContent) Size() int64 { return int64(len(m)) }

func (m memContent) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(m)) {
		return 0, io.EOF
	}
	n := copy(p, m[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
