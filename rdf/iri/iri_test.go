package iri

import "testing"

// The normal and abnormal examples of RFC 3986 §5.4.
func TestResolveRFC3986Examples(t *testing.T) {
	const base = "http://a/b/c/d;p?q"
	cases := map[string]string{
		"g:h": "g:h", "g": "http://a/b/c/g", "./g": "http://a/b/c/g", "g/": "http://a/b/c/g/",
		"/g": "http://a/g", "//g": "http://g", "?y": "http://a/b/c/d;p?y", "g?y": "http://a/b/c/g?y",
		"#s": "http://a/b/c/d;p?q#s", "g#s": "http://a/b/c/g#s", "g?y#s": "http://a/b/c/g?y#s",
		";x": "http://a/b/c/;x", "g;x": "http://a/b/c/g;x", "g;x?y#s": "http://a/b/c/g;x?y#s",
		"": "http://a/b/c/d;p?q", ".": "http://a/b/c/", "./": "http://a/b/c/", "..": "http://a/b/",
		"../": "http://a/b/", "../g": "http://a/b/g", "../..": "http://a/", "../../": "http://a/",
		"../../g":    "http://a/g",
		"../../../g": "http://a/g", "../../../../g": "http://a/g", "/./g": "http://a/g",
		"/../g": "http://a/g", "g.": "http://a/b/c/g.", ".g": "http://a/b/c/.g", "g..": "http://a/b/c/g..",
		"..g": "http://a/b/c/..g", "./../g": "http://a/b/g", "./g/.": "http://a/b/c/g/",
		"g/./h": "http://a/b/c/g/h", "g/../h": "http://a/b/c/h", "g;x=1/./y": "http://a/b/c/g;x=1/y",
		"g;x=1/../y": "http://a/b/c/y", "g?y/./x": "http://a/b/c/g?y/./x", "g?y/../x": "http://a/b/c/g?y/../x",
		"g#s/./x": "http://a/b/c/g#s/./x", "g#s/../x": "http://a/b/c/g#s/../x", "http:g": "http:g",
	}
	for in, want := range cases {
		got, err := Resolve(base, in)
		if err != nil || got != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestResolveEdgeCases(t *testing.T) {
	cases := []struct{ base, ref, want string }{
		{"http://a", "b", "http://a/b"},
		{"http://a/b?q#f", "#", "http://a/b?q#"},
		{"http://a/b", "?", "http://a/b?"},
		{"urn:x:y", "#frag", "urn:x:y#frag"},
		{"file:///tmp/x.ttl", "y.ttl", "file:///tmp/y.ttl"},
		{"http://example.org/é/", "ü", "http://example.org/é/ü"},
	}
	for _, c := range cases {
		if got, err := Resolve(c.base, c.ref); err != nil || got != c.want {
			t.Errorf("Resolve(%q, %q) = %q, %v; want %q", c.base, c.ref, got, err, c.want)
		}
	}
	if _, err := Resolve("relative/base", "x"); err != ErrRelativeBase {
		t.Errorf("relative base: err = %v, want ErrRelativeBase", err)
	}
	if !IsAbsolute("mailto:a@b") || IsAbsolute("a/b:c") || IsAbsolute(":x") {
		t.Error("IsAbsolute misjudges")
	}
}
