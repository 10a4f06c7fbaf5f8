package extract

import (
	"math/rand/v2"
	"testing"
)

// TestCollapsedAsDefined checks collapsed, whose long inputs take the
// vectorised path, against its definition byte by byte on random text
// of words, spaces, other whitespace and control bytes.
func TestCollapsedAsDefined(t *testing.T) {
	def := func(p []byte) bool {
		space := true
		for _, c := range p {
			if c > ' ' {
				space = false
				continue
			}
			if c != ' ' && spaces[c] || c == ' ' && space {
				return false
			}
			space = c == ' '
		}
		return !space
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab  \t\n\r\f\x01\v")
	seen := map[bool]int{}
	for range 20000 {
		p := make([]byte, r.IntN(200))
		for i := range p {
			if r.IntN(8) == 0 {
				p[i] = alphabet[r.IntN(len(alphabet))]
			} else {
				p[i] = 'a' + byte(r.IntN(26))
			}
		}
		if r.IntN(2) == 0 { // many inputs that pass: single spaces only
			for i := range p {
				if p[i] < 'a' {
					p[i] = 'x'
				}
				if i%7 == 3 && i < len(p)-1 {
					p[i] = ' '
				}
			}
		}
		want := def(p)
		seen[want]++
		if got := collapsed(p); got != want {
			t.Fatalf("collapsed(%q) = %v, want %v", p, got, want)
		}
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("the inputs did not cover both answers: %v", seen)
	}
}
