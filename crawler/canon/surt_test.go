package canon

import "testing"

func TestSURT(t *testing.T) {
	c := New(Options{})
	tests := []struct{ in, surt, scope string }{
		{"http://www.archive.org/index.html?q#f", "http://(org,archive,www,)/index.html?q", "http://(org,archive,www,)/index.html?q"},
		{"https://archive.org:8443/", "https://(org,archive,:8443)/", "http://(org,archive,:8443)/"},
		{"http://u:p@archive.org/", "http://(org,archive,@u:p)/", "http://(org,archive,@u:p)/"},
		{"http://127.0.0.1/x", "http://(127.0.0.1)/x", "http://(127.0.0.1)/x"},
		{"http://[::1]/", "http://([::1])/", "http://([::1])/"},
		{"http://bücher.ch/", "http://(ch,xn--bcher-kva,)/", "http://(ch,xn--bcher-kva,)/"},
		{"mailto:a@b.org", "mailto:a@b.org", "mailto:a@b.org"},
	}
	for _, tt := range tests {
		u, err := c.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := u.SURT(); got != tt.surt {
			t.Errorf("SURT(%q) = %q, want %q", tt.in, got, tt.surt)
		}
		if got := u.ScopeSURT(); got != tt.scope {
			t.Errorf("ScopeSURT(%q) = %q, want %q", tt.in, got, tt.scope)
		}
	}
}

func TestSURTPrefix(t *testing.T) {
	c := New(Options{})
	tests := []struct{ rule, want string }{
		{"http://www.example.org", "http://(org,example,www,"},
		{"http://www.example.org/", "http://(org,example,www,)/"},
		{"http://example.org/a/b.html", "http://(org,example,)/a/"},
		{"http://example.org/a/b.html?x=/y", "http://(org,example,)/a/"},
		{"https://example.org/a/", "http://(org,example,)/a/"},
		{"example.org", "http://(org,example,"},
		{"  +http://(org,example,  ", "http://(org,example,"},
		{"(ORG,Example,", "http://(org,example,"},
		{"https://(org,example,)/a", "http://(org,example,)/a"},
	}
	for _, tt := range tests {
		got, err := c.SURTPrefix(tt.rule)
		if err != nil || got != tt.want {
			t.Errorf("SURTPrefix(%q) = %q, %v; want %q", tt.rule, got, err, tt.want)
		}
	}
	for _, bad := range []string{"http://", "mailto:a@b.org"} {
		if p, err := c.SURTPrefix(bad); err == nil {
			t.Errorf("SURTPrefix(%q) = %q, want an error", bad, p)
		}
	}
}

// The expected keys are those of the Internet Archive's surt library
// (tests/test_surt.py and the canonicalizer tests it ports from Java).
