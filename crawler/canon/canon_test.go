package canon

import (
	"errors"
	"strings"
	"testing"
)

func TestParseNormalises(t *testing.T) {
	c := New(Options{})
	tests := []struct{ in, href, canonical string }{
		{"HTTP://www.EXAMPLE.com:80/a/./b/../c?x=1#frag", "http://www.example.com/a/c?x=1", "http://www.example.com/a/c?x=1"},
		{"https://example.com:443", "https://example.com/", "https://example.com/"},
		{"http://example.com:8080/", "http://example.com:8080/", "http://example.com:8080/"},
		// IDN hosts become punycode; non-ASCII path and query become UTF-8 escapes.
		{"http://bücher.ch/ä?ö=1", "http://xn--bcher-kva.ch/%C3%A4?%C3%B6=1", "http://xn--bcher-kva.ch/%C3%A4?%C3%B6=1"},
		{"http://☃.com/", "http://xn--n3h.com/", "http://xn--n3h.com/"},
		{"http://ΕΛΛΗΝΙΚΆ.gr/", "http://xn--hxargifdar.gr/", "http://xn--hxargifdar.gr/"},
		{"http://ex%41mple.com/", "http://example.com/", "http://example.com/"},
		// Percent escapes of unreserved characters are decoded, others uppercased.
		{"http://example.com/%7euser/%2fa%2F?q=%7e&r=%3d", "http://example.com/~user/%2Fa%2F?q=~&r=%3D", "http://example.com/~user/%2Fa%2F?q=~&r=%3D"},
		{"http://example.com/a b<>\"", "http://example.com/a%20b%3C%3E%22", "http://example.com/a%20b%3C%3E%22"},
		{"http://example.com/100%", "http://example.com/100%", "http://example.com/100%"},
		// Browser leniency: backslashes, stray whitespace, tabs and newlines.
		{"  http:\\\\example.com\\a\\b  ", "http://example.com/a/b", "http://example.com/a/b"},
		{"http://exa\tmple.com/a\nb", "http://example.com/ab", "http://example.com/ab"},
		{"http:example.com/x", "http://example.com/x", "http://example.com/x"},
		// Numeric hosts are IPv4 addresses.
		{"http://0x7f.1/", "http://127.0.0.1/", "http://127.0.0.1/"},
		{"http://3279880203/blah", "http://195.127.0.11/blah", "http://195.127.0.11/blah"},
		{"http://[0:0::1]/", "http://[::1]/", "http://[::1]/"},
		// Empty query and userinfo survive in the fetch form only.
		{"http://example.com/?", "http://example.com/?", "http://example.com/"},
		{"http://user:pw@example.com/", "http://user:pw@example.com/", "http://example.com/"},
		// Non-hierarchical URLs pass through.
		{"mailto:Foo@Example.com", "mailto:Foo@Example.com", "mailto:Foo@Example.com"},
		{"file:///etc/passwd", "file:///etc/passwd", "file:///etc/passwd"},
	}
	for _, tt := range tests {
		u, err := c.Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if u.Href != tt.href || u.String() != tt.href {
			t.Errorf("Parse(%q).Href = %q, want %q", tt.in, u.Href, tt.href)
		}
		if u.Canonical != tt.canonical {
			t.Errorf("Parse(%q).Canonical = %q, want %q", tt.in, u.Canonical, tt.canonical)
		}
	}
}

func TestComponents(t *testing.T) {
	u, err := New(Options{}).Parse("HTTPS://u:p@Sub.Example.CO.UK:8443/a/b?x=1&y#top")
	if err != nil {
		t.Fatal(err)
	}
	got := []string{u.Scheme, u.Userinfo, u.Host, u.Port, u.Path, u.Query, u.Fragment, u.HostKey(), u.RegistrableDomain()}
	want := []string{"https", "u:p", "sub.example.co.uk", "8443", "/a/b", "x=1&y", "top", "sub.example.co.uk:8443", "example.co.uk"}
	if strings.Join(got, "|") != strings.Join(want, "|") || !u.HasQuery || !u.Hierarchical() {
		t.Errorf("components = %q (HasQuery %v), want %q", got, u.HasQuery, want)
	}
}

func TestCanonicalRules(t *testing.T) {
	const id32 = "0123456789ABCDEF0123456789abcdef"
	tests := []struct {
		name string
		opts Options
		in   string
		want string
	}{
		{"fragment stripped", Options{}, "http://e.org/a#b", "http://e.org/a"},
		{"fragment kept", Options{KeepFragment: true}, "http://e.org/a#b", "http://e.org/a#b"},
		{"userinfo kept", Options{KeepUserinfo: true}, "http://u@e.org/", "http://u@e.org/"},
		{"jsessionid query", Options{}, "http://e.org/a?jsessionid=" + id32 + "&x=y", "http://e.org/a?x=y"},
		{"jsessionid path param", Options{}, "http://e.org/a.jsp;jsessionid=" + id32 + "?x=y", "http://e.org/a.jsp?x=y"},
		{"jsessionid path param mid-path", Options{}, "http://e.org/a;JSESSIONID=abc;v=1/b", "http://e.org/a;v=1/b"},
		{"phpsessid among others", Options{}, "http://e.org/?one=two&PHPSESSID=" + id32 + "&x=y", "http://e.org/?one=two&x=y"},
		{"sid", Options{}, "http://e.org/?sid=9682993c8daa2c5497996114facdc805", "http://e.org/"},
		{"sid of wrong length kept", Options{}, "http://e.org/?sid=" + id32 + "0", "http://e.org/?sid=" + id32 + "0"},
		{"aspsessionid", Options{}, "http://e.org/?aspsessionidABCDEFGH=ABCDEFGHIJKLMNOPQRSTUVWX&x=y", "http://e.org/?x=y"},
		{"cfid cftoken pair", Options{}, "http://e.org/?CFID=1169580&CFTOKEN=48630702&dt=22", "http://e.org/?dt=22"},
		{"lone cfid kept", Options{}, "http://e.org/?CFID=1169580&dt=22", "http://e.org/?CFID=1169580&dt=22"},
		{"asp.net cookieless path", Options{}, "http://e.org/(S(4hqa0555fwsecu455xqckv45))/mileg.aspx", "http://e.org/mileg.aspx"},
		{"asp.net multi-part", Options{}, "http://e.org/(a(4hqa0555fwsecu455xqckv45)S(4hqa0555fwsecu455xqckv45))/m.aspx", "http://e.org/m.aspx"},
		{"session ids kept", Options{KeepSessionIDs: true}, "http://e.org/?sid=" + id32, "http://e.org/?sid=" + id32},
		{"empty params dropped", Options{}, "http://e.org/?&a=1&&b=2&", "http://e.org/?a=1&b=2"},
		{"empty params kept", Options{KeepEmptyQuery: true}, "http://e.org/?&a=1&", "http://e.org/?&a=1&"},
		{"sort stable by name", Options{SortQuery: true}, "http://e.org/?b=2&a=9&b=1&a", "http://e.org/?a=9&a&b=2&b=1"},
		{"www stripped", Options{StripWWW: true}, "http://www2.e.org/", "http://e.org/"},
		{"www-only domain kept", Options{StripWWW: true}, "http://www.com/", "http://www.com/"},
		{"wwwfoo not a www label", Options{StripWWW: true}, "http://www2foo.com/", "http://www2foo.com/"},
		{"heritrix lowercases all", HeritrixOptions(), "http://www.E.org/A/B?C=D", "http://e.org/a/b?c=d"},
	}
	for _, tt := range tests {
		u, err := New(tt.opts).Parse(tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if u.Canonical != tt.want {
			t.Errorf("%s: Canonical(%q) = %q, want %q", tt.name, tt.in, u.Canonical, tt.want)
		}
	}
}

func TestFetchFormKeepsSessionIDs(t *testing.T) {
	const in = "http://www.e.org/A;jsessionid=0123456789ABCDEF0123456789abcdef?b=2&a=1"
	u, err := New(HeritrixOptions()).Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	if u.Href != in || u.Canonical != "http://e.org/a?b=2&a=1" {
		t.Errorf("Href = %q, Canonical = %q: canonicalization must only touch the key", u.Href, u.Canonical)
	}
}

func TestResolve(t *testing.T) {
	c := New(Options{})
	base, err := c.Parse("http://example.com/a/b/c.html?x#y")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ ref, want string }{
		{"../d", "http://example.com/a/d"},
		{"./", "http://example.com/a/b/"},
		{"?z", "http://example.com/a/b/c.html?z"},
		{"#f", "http://example.com/a/b/c.html?x"},
		{"", "http://example.com/a/b/c.html?x"},
		{"//other.org/x", "http://other.org/x"},
		{"https://b.org", "https://b.org/"},
		{"  /sp ace\n", "http://example.com/sp%20ace"},
		{"../../../../up", "http://example.com/up"},
		{"mailto:a@b.org", "mailto:a@b.org"},
	}
	for _, tt := range tests {
		u, err := c.Resolve(base, tt.ref)
		if err != nil {
			t.Errorf("Resolve(%q): %v", tt.ref, err)
			continue
		}
		if u.Href != tt.want {
			t.Errorf("Resolve(%q) = %q, want %q", tt.ref, u.Href, tt.want)
		}
	}
	// A zero base parses the reference as absolute.
	if u, err := c.Resolve(URL{}, "http://x.org/"); err != nil || u.Href != "http://x.org/" {
		t.Errorf("Resolve(URL{}, abs) = %q, %v", u.Href, err)
	}
}

func TestErrors(t *testing.T) {
	c := New(Options{})
	tests := []struct{ in, reason string }{
		{"http://", "does not contain a host"},
		{"http://exa mple.com/", "forbidden domain code point"},
		{"http://a:99999/", "outside the range"},
		{"//foo", "missing a scheme"},
		{"", "missing a scheme"},
		{"http://[::1/", "IPv6"},
	}
	for _, tt := range tests {
		_, err := c.Parse(tt.in)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q) error = %v, want *Error", tt.in, err)
			continue
		}
		if e.Input != tt.in || !strings.Contains(e.Reason, tt.reason) || !strings.Contains(e.Error(), tt.in) {
			t.Errorf("Parse(%q) error = %q, want input and reason %q", tt.in, e.Error(), tt.reason)
		}
	}
	base, _ := c.Parse("http://example.com/")
	_, err := c.Resolve(base, "http://[bad")
	var e *Error
	if !errors.As(err, &e) || e.Base != "http://example.com/" || !strings.Contains(e.Error(), "against") {
		t.Errorf("Resolve error = %v, want one naming the base", err)
	}
}

func TestRegistrableDomain(t *testing.T) {
	tests := []struct{ host, want string }{
		{"www.example.com", "example.com"},
		{"a.b.example.co.uk", "example.co.uk"},
		{"alice.github.io", "alice.github.io"},
		{"xn--bcher-kva.ch", "xn--bcher-kva.ch"},
		{"WWW.Example.COM.", "example.com"},
		{"co.uk", "co.uk"},
		{"localhost", "localhost"},
		{"127.0.0.1", "127.0.0.1"},
		{"[::1]", "[::1]"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := RegistrableDomain(tt.host); got != tt.want {
			t.Errorf("RegistrableDomain(%q) = %q, want %q", tt.host, got, tt.want)
		}
	}
}

func TestNormalizePercent(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"%41%7e%2d%2E%5F", "A~-._"},
		{"%2f%3a%c3%a4", "%2F%3A%C3%A4"},
		{"%2F", "%2F"},
		{"%", "%"},
		{"%4", "%4"},
		{"%zz%41", "%zzA"},
		{"a%", "a%"},
		{"%%34%31", "%%341"},
		{"%4%31", "%4%31"},
		{"%%41", "%%41"},
		{"%41%", "A%"},
	}
	for _, tt := range tests {
		if got := normalizePercent(tt.in); got != tt.want {
			t.Errorf("normalizePercent(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := normalizePercent(tt.want); got != tt.want {
			t.Errorf("normalizePercent(%q) = %q: not a fixed point", tt.want, got)
		}
	}
}

// Link extractors resolve many references against one base at once; run
// with -race this checks that a shared base is never written to.
func TestResolveConcurrent(t *testing.T) {
	c := New(Options{})
	base, err := c.Parse("http://example.com/a/b/c.html?q=1")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string)
	for i := 0; i < 4; i++ {
		go func() {
			u, err := c.Resolve(base, "../d?x=1")
			if err != nil {
				done <- err.Error()
				return
			}
			done <- u.Href
		}()
	}
	for i := 0; i < 4; i++ {
		if got := <-done; got != "http://example.com/a/d?x=1" {
			t.Errorf("concurrent Resolve = %q", got)
		}
	}
}
