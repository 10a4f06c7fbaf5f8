// Package litindex is the literal prefilter of application detection: each
// pattern is filed under one literal string it cannot match without, and a
// single Aho-Corasick pass over a page finds the patterns worth
// evaluating. Detection time then grows with the patterns whose literals
// occur in the page, not with the number of patterns loaded. The same pass
// tells which of any further registered literals occur, so that a pattern
// needing several literals is dropped without a look at the page.
package litindex

import (
	"bytes"
	"slices"
)

// MinLen is the shortest literal worth indexing; a pattern with only
// shorter literals is evaluated on every page.
const MinLen = 3

// Builder collects patterns and their literals.
type Builder struct {
	fold   bool
	litID  map[string]int
	lits   []string
	ids    [][]int // pattern ids filed under each literal
	always []int
	where  []bool
}

// NewBuilder returns a builder; with fold, literals and pages are compared
// case-insensitively (ASCII).
func NewBuilder(fold bool) *Builder {
	return &Builder{fold: fold, litID: map[string]int{}}
}

// Literal registers l (folded as the index folds) and returns its id, by
// which Hits.Has tells whether a page contains it.
func (b *Builder) Literal(l string) int {
	if b.fold {
		l = string(bytes.ToLower([]byte(l)))
	}
	if id, ok := b.litID[l]; ok {
		return id
	}
	b.litID[l] = len(b.lits)
	b.lits = append(b.lits, l)
	b.ids = append(b.ids, nil)
	b.where = append(b.where, false)
	return len(b.lits) - 1
}

// Where registers l like Literal and asks Scan to report where it occurs
// (Hits.Ends).
func (b *Builder) Where(l string) int {
	id := b.Literal(l)
	b.where[id] = true
	return id
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
	b.file(id, best)
}

// AddAny files pattern id under each of literals, one of which the
// pattern requires (the branches of an alternation); with any of them
// too short it is a candidate on every page.
func (b *Builder) AddAny(id int, literals []string) {
	if Shortest(literals) < MinLen {
		b.always = append(b.always, id)
		return
	}
	for _, l := range literals {
		b.file(id, l)
	}
}

func (b *Builder) file(id int, l string) {
	li := b.Literal(l)
	if ids := b.ids[li]; len(ids) == 0 || ids[len(ids)-1] != id {
		b.ids[li] = append(ids, id)
	}
}

// Shortest is the length of the shortest of literals, 0 for none: a set
// of alternative literals is only as selective as its shortest.
func Shortest(literals []string) int {
	if len(literals) == 0 {
		return 0
	}
	n := len(literals[0])
	for _, l := range literals[1:] {
		n = min(n, len(l))
	}
	return n
}

// Build returns the index.
func (b *Builder) Build() *Index {
	ix := &Index{fold: b.fold, lits: b.lits, ids: b.ids, always: b.always}
	if len(ix.lits) > 0 {
		ix.m = newAutomaton(ix.lits, b.where)
	}
	return ix
}

// Index finds candidate patterns for a page. It is safe for concurrent use.
type Index struct {
	fold   bool
	lits   []string
	ids    [][]int
	m      *automaton
	always []int
}

// Literals is the number of distinct literals indexed.
func (ix *Index) Literals() int { return len(ix.lits) }

// Always is the number of patterns without a usable literal.
func (ix *Index) Always() int { return len(ix.always) }

// Hits is what one scan of a page found.
type Hits struct {
	// Candidates are, in increasing order, the ids of the patterns whose
	// literal occurs in the page and of those filed under no literal.
	Candidates []int
	found      []bool
	ends       map[int][]int
}

// Ends returns the end offsets of the occurrences of literal lit
// (registered with Builder.Where) in the first text scanned.
func (h *Hits) Ends(lit int) []int { return h.ends[lit] }

// Has reports whether the literal with id lit (Builder.Literal) occurs.
func (h *Hits) Has(lit int) bool { return h.found[lit] }

// Scan searches texts (lower-cased first when the index folds case) for
// every literal at once; a literal must occur within one of them.
func (ix *Index) Scan(texts ...[]byte) *Hits {
	h := &Hits{Candidates: slices.Clone(ix.always), found: make([]bool, len(ix.lits))}
	if ix.m != nil {
		for ti, text := range texts {
			if ix.fold {
				text = bytes.ToLower(text)
			}
			ix.m.scan(text, h.found, func(i int) {
				h.Candidates = append(h.Candidates, ix.ids[i]...)
			}, func(lit, end int) {
				if ti == 0 {
					if h.ends == nil {
						h.ends = map[int][]int{}
					}
					h.ends[lit] = append(h.ends[lit], end)
				}
			})
		}
	}
	slices.Sort(h.Candidates)
	h.Candidates = slices.Compact(h.Candidates)
	return h
}

// Candidates returns Scan(text).Candidates.
func (ix *Index) Candidates(text []byte) []int { return ix.Scan(text).Candidates }
