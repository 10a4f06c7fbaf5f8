// Package litindex is the literal prefilter of application detection: each
// pattern is filed under one literal string it cannot match without, and a
// single pass over a page finds the patterns worth evaluating. The pass
// tests each position of the page against cache-sized filters of one rare
// 8-byte anchor per literal and compares literals only where the filters
// pass, so its cost per byte is nearly the same for ten literals as for
// ten thousand, and detection time grows with the patterns whose
// literals occur in the page, not with the number of patterns loaded. The
// same pass tells which of any further registered literals occur, so that
// a pattern needing several literals is dropped without a look at the
// page.
package litindex

import (
	"slices"
	"strings"
)

// MinLen is the shortest literal worth indexing (the filter's word is
// picked by 4 bytes); a pattern with only shorter literals is evaluated
// on every page.
const MinLen = 4

// Wide is the length from which a literal is found by all 8 bytes of its
// anchor; a shorter one stops the scan's inner loop wherever its first 4
// bytes hash to the word it shares, about once in 30,000 positions of any
// page besides its own occurrences (and is looked up where two bits its
// 4 bytes pick are set too).
const Wide = 8

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
		l = lowerASCII(l)
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
	ix := &Index{lits: b.lits, ids: b.ids, always: b.always, where: b.where, fold: b.fold}
	if len(ix.lits) > 0 {
		ix.g = newGrams(ix.lits, b.fold)
	}
	return ix
}

// Index finds candidate patterns for a page. It is safe for concurrent use.
type Index struct {
	fold   bool
	lits   []string
	ids    [][]int
	where  []bool
	g      *grams
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
	found      []uint64 // bit set of literal ids
	// ends are the occurrences of where-literals in the first text,
	// each literal id<<32 | end offset (a page is far under 4 GB), in
	// the order found, then sorted (finish); endAt their end offsets in
	// that order. A flat list, as a page holds a few dozen.
	ends  []uint64
	endAt []int
}

// Ends returns the end offsets of the occurrences of literal lit
// (registered with Builder.Where) in the first text scanned.
func (h *Hits) Ends(lit int) []int {
	lo, _ := slices.BinarySearch(h.ends, uint64(lit)<<32)
	hi := lo
	for hi < len(h.ends) && h.ends[hi]>>32 == uint64(lit) {
		hi++
	}
	if lo == hi {
		return nil
	}
	return h.endAt[lo:hi:hi]
}

// Has reports whether the literal with id lit (Builder.Literal) occurs.
func (h *Hits) Has(lit int) bool { return h.found[lit>>6]&(1<<(lit&63)) != 0 }

// Scan searches texts for every literal at once (ASCII case-blind when the
// index folds case); a literal must occur within one of them.
func (ix *Index) Scan(texts ...[]byte) *Hits {
	h := ix.newHits()
	if ix.g != nil {
		st := newScanState(len(ix.lits))
		for ti, text := range texts {
			ix.g.scan(text, &scanner{ix, h, ti == 0, st}, st)
		}
	}
	h.finish()
	return h
}

func (ix *Index) newHits() *Hits {
	// Room for a few dozen candidates found, as a page has.
	return &Hits{Candidates: append(make([]int, 0, len(ix.always)+min(64, len(ix.lits))), ix.always...), found: make([]uint64, (len(ix.lits)+63)/64)}
}

func (h *Hits) finish() {
	slices.Sort(h.Candidates)
	h.Candidates = slices.Compact(h.Candidates)
	if len(h.ends) > 0 {
		// A literal's ends come in increasing order: sorting by both
		// keeps it.
		slices.Sort(h.ends)
		h.endAt = make([]int, len(h.ends))
		for i, e := range h.ends {
			h.endAt[i] = int(uint32(e))
		}
	}
}

// record notes an occurrence of literal lit of ix at start, in the first
// text scanned or a later one.
func (h *Hits) record(ix *Index, lit, start int, first bool) {
	if !h.Has(lit) {
		h.found[lit>>6] |= 1 << (lit & 63)
		h.Candidates = append(h.Candidates, ix.ids[lit]...)
	}
	if first && ix.where[lit] {
		h.ends = append(h.ends, uint64(lit)<<32|uint64(uint32(start+len(ix.lits[lit]))))
	}
}

// scanner records what a scan finds in one text.
type scanner struct {
	ix    *Index
	h     *Hits
	first bool // the first text: where-literals' ends are recorded
	st    *scanState
}

// seen records an occurrence of lit at start: the first, or one of a
// where-literal in the first text, which alone are not done.
func (sc *scanner) seen(lit, start int) {
	sc.h.record(sc.ix, lit, start, sc.first)
	if !sc.first || !sc.ix.where[lit] {
		sc.st.markDone(lit)
	}
}

// Candidates returns Scan(text).Candidates.
func (ix *Index) Candidates(text []byte) []int { return ix.Scan(text).Candidates }

// lowerASCII lower-cases the ASCII letters of l only, as a folding scan
// compares.
func lowerASCII(l string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, l)
}
