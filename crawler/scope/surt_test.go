package scope

import (
	"testing"

	"github.com/mneme-archive/mneme/crawler/canon"
)

// TestHasSURTPrefix compares hasSURTPrefix with strings.HasPrefix on the
// built SURT for every prefix of each URL's SURT, each of them with one
// byte changed, and each with bytes added, so that every part boundary is
// crossed both ways.
func TestHasSURTPrefix(t *testing.T) {
	c := canon.New(canon.Options{})
	urls := []string{
		"http://www.example.com/a/b.html?x=1&y=2",
		"https://www.example.com/a/",
		"http://example.com:8080/",
		"http://user:pw@example.org:81/p?",
		"http://127.0.0.1:43305/p/17",
		"https://[::1]:8443/x",
		"http://localhost/",
		"http://a.b.c.d.e.example.co.uk/deep/path/to/file.css",
		"ftp://files.example.net/pub/",
	}
	prefixes := []string{"", "http://(", "http://(com,", "http://(com,example,www,)/a/", "x", "http://(com,example,www,)/a/b.html?x=1&y=2extra"}
	for _, raw := range urls {
		u, err := c.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		surt := u.ScopeSURT()
		var ps []string
		ps = append(ps, prefixes...)
		for k := 0; k <= len(surt); k++ {
			ps = append(ps, surt[:k], surt[:k]+"z", surt[:k]+",", surt[:k]+")")
			if k < len(surt) {
				b := []byte(surt[:k+1])
				b[k]++
				ps = append(ps, string(b))
			}
		}
		for _, p := range ps {
			want := len(surt) >= len(p) && surt[:len(p)] == p
			if got := hasSURTPrefix(u, p); got != want {
				t.Errorf("hasSURTPrefix(%s, %q) = %v; SURT %q says %v", raw, p, got, surt, want)
			}
		}
	}
}
