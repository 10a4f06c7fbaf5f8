package canon

import "testing"

// FuzzParse checks that no input panics and that the fetch form of a
// crawlable URL is a fixed point: parsing Href again gives the same URL and
// the same key. (Opaque URLs need not be: WHATWG trims a trailing space
// from "a: #x" only once the fragment is gone.)
func FuzzParse(f *testing.F) {
	for _, s := range []string{"http://www.Example.com:80/a/../b?c#d", "http://bücher.ch/ä", "http://[::1]:8/%7e", "mailto:x@y", "http://a/%%%25", "http://x/(S(4hqa0555fwsecu455xqckv45))/a.aspx?sid=1", "http://h/%%34%31"} {
		f.Add(s)
	}
	c := New(HeritrixOptions())
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := c.Parse(raw)
		if err != nil {
			return
		}
		_, _ = u.SURT(), u.RegistrableDomain()
		if !u.Hierarchical() {
			return
		}
		again, err := c.Parse(u.Href)
		if err != nil {
			t.Fatalf("Parse(%q) ok but its Href %q fails: %v", raw, u.Href, err)
		}
		if again.Href != u.Href || again.Canonical != u.Canonical {
			t.Fatalf("not idempotent: %q -> %q / %q -> %q / %q", raw, u.Href, u.Canonical, again.Href, again.Canonical)
		}
	})
}
