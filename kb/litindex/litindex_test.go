package litindex

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestScanAgainstContains compares the index with strings.Contains on
// random texts over a small alphabet, where literals overlap and nest and
// many share an anchor; literals of every length, short ones included.
func TestScanAgainstContains(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abcA<>"[r.IntN(6)]
		}
		return string(b)
	}
	for round := range 200 {
		b := NewBuilder(round%2 == 0)
		var lits []string
		var where []int
		for i := range 1 + r.IntN(30) {
			l := word(1 + r.IntN(8))
			lits = append(lits, l)
			b.Literal(l) // short ones too: AddAny files them nowhere
			b.AddAny(i, []string{l})
			if i%3 == 0 {
				where = append(where, i)
				b.Where(l)
			}
		}
		short := len(lits)
		b.Add(short, []string{"ab"}) // too short: always a candidate
		ix := b.Build()
		text := word(r.IntN(400))
		h := ix.Scan([]byte(text))
		cmp := text
		if round%2 == 0 {
			cmp = strings.ToLower(text)
		}
		var want []int
		for i, l := range lits {
			if round%2 == 0 {
				l = strings.ToLower(l)
			}
			if strings.Contains(cmp, l) || len(l) < MinLen {
				want = append(want, i)
			}
		}
		want = append(want, short)
		if !slices.Equal(h.Candidates, want) {
			t.Fatalf("round %d: text %q literals %q: candidates %v, want %v", round, text, lits, h.Candidates, want)
		}
		for _, l := range lits {
			folded := l
			if round%2 == 0 {
				folded = strings.ToLower(l)
			}
			if got := h.Has(b.Literal(l)); got != strings.Contains(cmp, folded) {
				t.Fatalf("round %d: Has(%q) = %v", round, l, got)
			}
		}
		for _, i := range where {
			l := lits[i]
			if round%2 == 0 {
				l = strings.ToLower(l)
			}
			var ends []int
			for off := 0; ; {
				j := strings.Index(cmp[off:], l)
				if j < 0 {
					break
				}
				ends = append(ends, off+j+len(l))
				off += j + 1
			}
			if got := h.Ends(b.Literal(lits[i])); !slices.Equal(got, ends) {
				t.Fatalf("round %d: text %q: Ends(%q) = %v, want %v", round, text, l, got, ends)
			}
		}
	}
}
