package vdoc

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestLowerASCII checks the word-at-a-time lower-casing against a byte
// loop on every byte value, at every offset within a word.
func TestLowerASCII(t *testing.T) {
	in := make([]byte, 0, 300)
	for c := range 256 {
		in = append(in, byte(c))
	}
	in = append(in, "MiXeD CaSe @[`{ AZaz"...)
	for start := range 9 {
		b := in[start:]
		got := LowerASCII(b)
		for i, c := range b {
			want := c
			if 'A' <= c && c <= 'Z' {
				want = c + 'a' - 'A'
			}
			if got[i] != want {
				t.Fatalf("offset %d: byte %#x lower-cased to %#x, want %#x", start+i, c, got[i], want)
			}
		}
	}
}

// TestHTTPTexts checks the texts of the <http> element, as sent and as
// Lower gives them: the URL first, then header names and values, cookie
// names and values.
func TestHTTPTexts(t *testing.T) {
	h := http.Header{"X-Generator": {"MediaWiki 1.39"}, "Set-Cookie": {"Wiki_Session=AbC; Path=/"}}
	d, err := Head("http://127.0.0.1/Main_Page", h, []byte("<p>Hi</p>"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range d.HTTPTexts() {
		got = append(got, string(b))
	}
	want := []string{"http://127.0.0.1/Main_Page", "set-cookie", "Wiki_Session=AbC; Path=/", "x-generator", "MediaWiki 1.39",
		"Wiki_Session", "AbC"}
	if !slices.Equal(got, want) {
		t.Errorf("HTTPTexts = %q, want %q", got, want)
	}
	_, lower := d.Lower()
	for i, b := range lower {
		if string(b) != strings.ToLower(want[i]) {
			t.Errorf("Lower text %d = %q, want %q", i, b, strings.ToLower(want[i]))
		}
	}
}
