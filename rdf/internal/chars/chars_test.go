package chars

import "testing"

func TestClasses(t *testing.T) {
	cases := []struct {
		r                    rune
		base, charsU, pnChar bool
	}{
		{'a', true, true, true},
		{'Z', true, true, true},
		{'_', false, true, true},
		{'-', false, false, true},
		{'7', false, false, true},
		{'.', false, false, false},
		{':', false, false, false},
		{0xB7, false, false, true},   // middle dot: PN_CHARS only
		{0xC0, true, true, true},     // first of the Latin-1 letters
		{0xD7, false, false, false},  // multiplication sign is excluded
		{0x300, false, false, true},  // combining grave accent
		{0x37E, false, false, false}, // Greek question mark is excluded
		{0x203F, false, false, true}, // undertie
		{0x10000, true, true, true},
		{0xF0000, false, false, false},
	}
	for _, c := range cases {
		if got := PNCharsBase(c.r); got != c.base {
			t.Errorf("PNCharsBase(%U) = %v, want %v", c.r, got, c.base)
		}
		if got := PNCharsU(c.r); got != c.charsU {
			t.Errorf("PNCharsU(%U) = %v, want %v", c.r, got, c.charsU)
		}
		if got := PNChars(c.r); got != c.pnChar {
			t.Errorf("PNChars(%U) = %v, want %v", c.r, got, c.pnChar)
		}
	}
}

func TestHex(t *testing.T) {
	for _, c := range []byte("0123456789abcdefABCDEF") {
		if !IsHex(c) || !IsHex(rune(c)) {
			t.Errorf("IsHex(%q) = false", c)
		}
	}
	for _, c := range []byte("gG/:@`x ") {
		if IsHex(c) || IsHex(rune(c)) {
			t.Errorf("IsHex(%q) = true", c)
		}
	}
}
