package fingerprint

import (
	"math/bits"
	"regexp/syntax"
	"slices"
	"unicode"
)

// byteSet is a set of bytes, as a bitmap.
type byteSet [4]uint64

func (s *byteSet) add(b byte)      { s[b>>6] |= 1 << (b & 63) }
func (s *byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }

// only returns the set's one byte, -1 if it has none or several.
func (s *byteSet) only() int {
	b := -1
	for i, w := range s {
		if w == 0 {
			continue
		}
		if b >= 0 || w&(w-1) != 0 {
			return -1
		}
		b = 64*i + bits.TrailingZeros64(w)
	}
	return b
}

func (s *byteSet) addRange(lo, hi int) {
	for b := lo; b <= hi; b++ {
		s.add(byte(b))
	}
}

// stopBytes returns the bytes no match of t can hold, and false when t
// has a word-boundary assertion, which looks at bytes outside the match.
// A match containing an occurrence of a literal lies then within the run
// of the page around it that is free of those bytes: `<[^>]+/sys_master`
// within the tag, `<!--[^>]+WP-Super-Cache` within the comment.
func stopBytes(t *syntax.Regexp) (byteSet, bool) {
	var in byteSet
	if !alphabet(t, &in) {
		return byteSet{}, false
	}
	for i := range in {
		in[i] = ^in[i]
	}
	return in, true
}

// alphabet adds to s the bytes a match of t may hold (as UTF-8); false
// on a word-boundary assertion.
func alphabet(t *syntax.Regexp, s *byteSet) bool {
	addRune := func(r rune) {
		if r >= 0x80 {
			s.addRange(0x80, 0xFF)
			return
		}
		s.add(byte(r))
	}
	switch t.Op {
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return false
	case syntax.OpLiteral:
		for _, r := range t.Rune {
			addRune(r)
			if t.Flags&syntax.FoldCase != 0 {
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					addRune(f)
				}
			}
		}
	case syntax.OpCharClass:
		for i := 0; i < len(t.Rune); i += 2 {
			lo, hi := t.Rune[i], t.Rune[i+1]
			if lo < 0x80 {
				s.addRange(int(lo), int(min(hi, 0x7F)))
			}
			if hi >= 0x80 {
				s.addRange(0x80, 0xFF)
			}
		}
	case syntax.OpAnyCharNotNL:
		s.addRange(0, '\n'-1)
		s.addRange('\n'+1, 0xFF)
	case syntax.OpAnyChar:
		s.addRange(0, 0xFF)
	}
	return !slices.ContainsFunc(t.Sub, func(sub *syntax.Regexp) bool { return !alphabet(sub, s) })
}
