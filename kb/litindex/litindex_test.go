package litindex

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// words returns a maker of random words of n bytes over alphabet: few
// letters, so that literals overlap and nest.
func words(r *rand.Rand, alphabet string) func(n int) string {
	return func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
}

// TestScanAgainstContains compares the index with strings.Contains on
// random texts over a small alphabet, where literals overlap and nest and
// many share an anchor; literals of every length, short ones included.
func TestScanAgainstContains(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := words(r, "abcA<>")
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
			ends := endsOf(cmp, l)
			if got := h.Ends(b.Literal(lits[i])); !slices.Equal(got, ends) {
				t.Fatalf("round %d: text %q: Ends(%q) = %v, want %v", round, text, l, got, ends)
			}
		}
	}
}

// TestJoint checks that one joint scan of random texts finds, for each of
// three indexes sharing some literals, what its own scan of the texts it
// looks at finds: candidates, literals and where-literals' ends.
func TestJoint(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	word := words(r, "abc<>")
	for round := range 100 {
		var ixs []*Index
		var lits [][]string
		shared := word(MinLen + r.IntN(6))
		for range 3 {
			b := NewBuilder(false)
			var ls []string
			for i := range 1 + r.IntN(20) {
				l := word(MinLen + r.IntN(6))
				if i == 0 {
					l = shared
				}
				ls = append(ls, l)
				b.Add(i, []string{l})
				if r.IntN(2) == 0 {
					b.Where(l)
				}
			}
			ixs = append(ixs, b.Build())
			lits = append(lits, ls)
		}
		j, err := Join(ixs...)
		if err != nil {
			t.Fatal(err)
		}
		texts := [][]byte{[]byte(word(300)), []byte(word(50)), []byte(word(50))}
		upto := []int{3, 1, 2}
		got := j.Scan(texts, upto)
		for i, ix := range ixs {
			want := ix.Scan(texts[:upto[i]]...)
			if !slices.Equal(got[i].Candidates, want.Candidates) {
				t.Fatalf("round %d index %d: candidates %v, want %v", round, i, got[i].Candidates, want.Candidates)
			}
			for li := range lits[i] {
				if got[i].Has(li) != want.Has(li) || !slices.Equal(got[i].Ends(li), want.Ends(li)) {
					t.Fatalf("round %d index %d literal %q: has %v ends %v, want %v %v", round, i, lits[i][li],
						got[i].Has(li), got[i].Ends(li), want.Has(li), want.Ends(li))
				}
			}
		}
	}
	if _, err := Join(NewBuilder(true).Build(), NewBuilder(false).Build()); err == nil {
		t.Error("Join accepted indexes that fold case differently")
	}
}

// TestScanManyLiterals compares the index with strings.Contains and
// strings.Index for thousands of literals of 4 to 12 bytes over a small
// alphabet, planted in random text: the filter is large, 4- and 8-byte
// anchors share words and many literals share an anchor.
func TestScanManyLiterals(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	word := words(r, "abcdeAB<")
	for round := range 4 {
		b := NewBuilder(round%2 == 0)
		var lits []string
		for i := range 3000 {
			l := word(MinLen + r.IntN(9))
			lits = append(lits, l)
			b.Add(i, []string{l})
			if i%10 == 0 {
				b.Where(l)
			}
		}
		ix := b.Build()
		// Random bytes with literals planted, some several times.
		var tb strings.Builder
		for tb.Len() < 40000 {
			tb.WriteString(word(r.IntN(20)))
			tb.WriteString(lits[r.IntN(len(lits)/2)])
		}
		text := tb.String()
		h := ix.Scan([]byte(text))
		cmp := text
		if round%2 == 0 {
			cmp = strings.ToLower(text)
		}
		found := 0
		for _, l := range lits {
			folded := l
			if round%2 == 0 {
				folded = strings.ToLower(l)
			}
			want := strings.Contains(cmp, folded)
			if got := h.Has(b.Literal(l)); got != want {
				t.Fatalf("round %d: Has(%q) = %v, want %v", round, l, got, want)
			}
			if want {
				found++
			}
		}
		for i := 0; i < len(lits); i += 10 {
			l := lits[i]
			if round%2 == 0 {
				l = strings.ToLower(l)
			}
			ends := endsOf(cmp, l)
			if got := h.Ends(b.Literal(lits[i])); !slices.Equal(got, ends) {
				t.Fatalf("round %d: Ends(%q) = %v, want %v", round, l, got, ends)
			}
		}
		if found == 0 || found == len(lits) {
			t.Fatalf("round %d: %d of %d literals found: the check compared nothing", round, found, len(lits))
		}
	}
}

// TestCommon checks which literals count as markup most pages hold.
func TestCommon(t *testing.T) {
	for l, want := range map[string]bool{
		"href": true, "</div>": true, "HTTPS://WWW.": true, "sys_master": false, "drupal.settings": false, "abc": false,
	} {
		if got := Common(l); got != want {
			t.Errorf("Common(%q) = %v, want %v", l, got, want)
		}
	}
}

// endsOf returns the end offsets of the occurrences of l in text,
// overlapping ones included.
func endsOf(text, l string) []int {
	var ends []int
	for off := 0; ; {
		j := strings.Index(text[off:], l)
		if j < 0 {
			return ends
		}
		ends = append(ends, off+j+len(l))
		off += j + 1
	}
}

// TestJointRepeatedWhere checks a joint scan against strings.Index for
// where-literals that occur dozens of times in the first text and again
// in later ones, interleaved with each other, shared by indexes of which
// one looks at the first text only: every end, in order, and nothing
// from a text an index does not look at.
func TestJointRepeatedWhere(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	word := words(r, "abcd<")
	for round := range 20 {
		lits := []string{word(3), word(4), word(6), word(8), word(11)}
		var ixs []*Index
		for range 2 {
			b := NewBuilder(round%2 == 0)
			for i, l := range lits {
				b.Where(l)
				b.Add(i, []string{l})
			}
			ixs = append(ixs, b.Build())
		}
		j, err := Join(ixs...)
		if err != nil {
			t.Fatal(err)
		}
		var tb strings.Builder
		for range 200 {
			tb.WriteString(word(r.IntN(4)))
			tb.WriteString(lits[r.IntN(len(lits))])
		}
		texts := [][]byte{[]byte(tb.String()), []byte(lits[4] + word(20) + lits[0])}
		upto := []int{2, 1}
		got := j.Scan(texts, upto)
		for i := range ixs {
			var seen []string
			for _, text := range texts[:upto[i]] {
				seen = append(seen, string(text))
			}
			for li, l := range lits {
				want := endsOf(seen[0], l)
				if g := got[i].Ends(li); !slices.Equal(g, want) {
					t.Fatalf("round %d index %d: Ends(%q) = %v, want %v", round, i, l, g, want)
				}
				has := strings.Contains(strings.Join(seen, "\x00"), l)
				if got[i].Has(li) != has || slices.Contains(got[i].Candidates, li) != has {
					t.Fatalf("round %d index %d: %q found %v, candidate %v, want %v", round, i, l,
						got[i].Has(li), slices.Contains(got[i].Candidates, li), has)
				}
			}
			if len(endsOf(seen[0], lits[3])) < 10 {
				t.Fatalf("round %d: %q occurs under 10 times: the test repeats too little", round, lits[3])
			}
		}
	}
}

// TestCrowdedWord files 150 literals of 8 bytes under one filter word,
// whose anchors' pairs fill it, and two of 4 bytes under another, and
// checks that every literal planted in a text is found and no other.
func TestCrowdedWord(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	word := words(r, "abcdefghijklmnopqrstuvwxyz")
	const n8, n4 = 150, 2
	nWords := 1 << bits.Len(uint(min(1000*n4+16*n8, 128*(n4+n8))-1))
	inWord := func(w, wi int) string {
		for {
			l := word(w)
			if uint32(hash(keyAt(l, 0, w)))>>wordShift&uint32(nWords-1) == uint32(wi) {
				return l
			}
		}
	}
	var lits []string
	b := NewBuilder(false)
	for i := range n8 + n4 {
		l := inWord(8, 0)
		if i >= n8 {
			l = inWord(4, 1)
		}
		lits = append(lits, l)
		b.Add(i, []string{l})
	}
	ix := b.Build()
	if len(ix.g.filter) != nWords || ix.g.filter[0] != 0 || ix.g.filter[1] != 0 {
		t.Fatalf("filter of %d words, words 0 and 1 %#x %#x: the literals do not fill them", len(ix.g.filter), ix.g.filter[0], ix.g.filter[1])
	}
	var tb strings.Builder
	for i := 0; i < len(lits); i += 3 {
		tb.WriteString(word(r.IntN(10)))
		tb.WriteString(lits[i])
	}
	tb.WriteString(lits[len(lits)-1])
	text := tb.String()
	h := ix.Scan([]byte(text))
	for i, l := range lits {
		if got, want := h.Has(i), strings.Contains(text, l); got != want {
			t.Fatalf("Has(%q) = %v, want %v", l, got, want)
		}
	}
}
