package vdoc

import "testing"

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
