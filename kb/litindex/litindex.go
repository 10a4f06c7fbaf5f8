// Package litindex is the literal prefilter of application detection: each
// pattern is filed under one literal string it cannot match without, and a
// single Aho-Corasick pass over a page finds the patterns worth
// evaluating. Detection time then grows with the patterns whose literals
// occur in the page, not with the number of patterns loaded.
package litindex

import (
	"bytes"
	"slices"

	"github.com/cloudflare/ahocorasick"
)

// MinLen is the shortest literal worth indexing; a pattern with only
// shorter literals is evaluated on every page.
const MinLen = 3

// Builder collects patterns and their literals.
type Builder struct {
	fold   bool
	byLit  map[string][]int
	always []int
}

// NewBuilder returns a builder; with fold, literals and pages are compared
// case-insensitively (ASCII).
func NewBuilder(fold bool) *Builder {
	return &Builder{fold: fold, byLit: map[string][]int{}}
}

// Add files pattern id under the longest of literals, all of which the
// pattern requires; with none long enough it is a candidate on every page.
func (b *Builder) Add(id int, literals []string) {
	best := ""
	for _, l := range literals {
		if len(l) > len(best) {
			best = l
		}
	}
	if len(best) < MinLen {
		b.always = append(b.always, id)
		return
	}
	if b.fold {
		best = string(bytes.ToLower([]byte(best)))
	}
	b.byLit[best] = append(b.byLit[best], id)
}

// AddAny files pattern id under each of literals, one of which the
// pattern requires (the branches of an alternation); with any of them
// too short it is a candidate on every page.
func (b *Builder) AddAny(id int, literals []string) {
	if len(literals) == 0 {
		b.always = append(b.always, id)
		return
	}
	for _, l := range literals {
		if len(l) < MinLen {
			b.always = append(b.always, id)
			return
		}
	}
	for _, l := range literals {
		if b.fold {
			l = string(bytes.ToLower([]byte(l)))
		}
		if ids := b.byLit[l]; len(ids) == 0 || ids[len(ids)-1] != id {
			b.byLit[l] = append(ids, id)
		}
	}
}

// Build returns the index.
func (b *Builder) Build() *Index {
	ix := &Index{fold: b.fold, always: b.always}
	for l := range b.byLit {
		ix.lits = append(ix.lits, l)
	}
	slices.Sort(ix.lits)
	for _, l := range ix.lits {
		ix.ids = append(ix.ids, b.byLit[l])
	}
	if len(ix.lits) > 0 {
		ix.m = ahocorasick.NewStringMatcher(ix.lits)
	}
	return ix
}

// Index finds candidate patterns for a page. It is safe for concurrent use.
type Index struct {
	fold   bool
	lits   []string
	ids    [][]int
	m      *ahocorasick.Matcher
	always []int
}

// Literals is the number of distinct literals indexed; Always the number
// of patterns evaluated on every page.
func (ix *Index) Literals() int { return len(ix.lits) }

// Always is the number of patterns without a usable literal.
func (ix *Index) Always() int { return len(ix.always) }

// Candidates returns, in increasing order, the ids of the patterns whose
// literal occurs in text (lower-cased first when the index folds case)
// and of those filed under no literal.
func (ix *Index) Candidates(text []byte) []int {
	out := slices.Clone(ix.always)
	if ix.m != nil {
		if ix.fold {
			text = bytes.ToLower(text)
		}
		for _, i := range ix.m.MatchThreadSafe(text) {
			out = append(out, ix.ids[i]...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
