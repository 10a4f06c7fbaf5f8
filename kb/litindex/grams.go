package litindex

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"strings"
)

// grams finds literals by one anchor each: 8 bytes of the literal (4 for
// a literal of 4 to 7 bytes), picked to be rare in web pages. At every
// position of the page the scan tests a filter one multiplication away
// from the 8 bytes there: a word picked by the first 4 and two bits of it
// picked by all 8, so that a position passes where an 8-byte anchor is
// (or hashes collide), not wherever the first 4 bytes of one are; the
// word of a 4-byte anchor has all its bits set. Only where the filter
// passes is the anchor looked up and the literals filed under it compared
// with the page. The filter stays in the processor's second-level cache
// whatever the number of literals, so the cost per byte hardly grows with
// it, where an Aho-Corasick automaton over thousands of literals has a
// transition table of megabytes that the scan reads at random.
type grams struct {
	arena  string   // the literals, in the order of their anchors
	lits   []litRef // by literal id
	fold   bool
	filter []uint64 // a power of two of words
	shift  uint     // 32 - log2(len(filter))
	// own holds, for the words of 4-byte anchors, the bits 8-byte
	// anchors set in them.
	own    wordTable
	t8, t4 *gramTable // nil when no literal has such an anchor
	shortL []int      // literals under 4 bytes: compared at every position
}

// fold makes keys case-blind: bit 0x20 set in every byte turns ASCII
// upper-case letters into lower-case ones (and merges a few other byte
// pairs, which only lets the filter pass more often).
const fold = 0x2020202020202020

// hash mixes a key. The low 32 bits of the product depend on the low 32
// bits of the key alone, the first 4 bytes of a position: the filter
// picks its word by them and its bit by the top bits, which depend on
// all 8.
func hash(k uint64) uint64 { return k * 0x9E3779B97F4A7C15 }

// Filter sizes: a position that holds no anchor passes where its word is
// one of a 4-byte anchor or both its bits are set, so the filter takes 500
// words per 4-byte anchor and 8 (two bits in 512) per 8-byte one, to pass
// at about one position in 500 or fewer; at most 64 words per literal, as
// an index of a few literals scans short texts (header values), and at
// most maxWords, which stays in the second-level cache next to the page.
const (
	minWords = 8
	maxWords = 1 << 15 // 256 KB
)

func newFilter(a8, a4 []anchor) ([]uint64, uint, wordTable) {
	n := max(minWords, min(500*len(a4)+8*len(a8), 64*(len(a4)+len(a8))))
	words := min(maxWords, 1<<bits.Len(uint(n-1)))
	f := make([]uint64, words)
	shift := uint(32 - bits.Len(uint(words-1)))
	for _, a := range a8 {
		h := hash(a.key)
		f[uint32(h)>>shift] |= filterBits(h)
	}
	// A 4-byte anchor's word passes whatever the next 4 bytes; the bits
	// 8-byte anchors set in it are kept aside, so that a pass there
	// looks them up only when theirs are set.
	own := map[uint32]uint64{}
	for _, a := range a4 {
		w := uint32(hash(a.key)) >> shift
		if f[w] != ^uint64(0) {
			own[w] = f[w]
			f[w] = ^uint64(0)
		}
	}
	return f, shift, newWordTable(own)
}

// next returns the first position from i on, 8 bytes before the end of
// text at most, where the filter passes; -1 if there is none. It is the
// scan's inner loop: rounds of four positions test one bit each, and
// only a round where one is set tests its positions' second bits.
func (g *grams) next(text []byte, i int) int {
	f := g.filter
	mask, shift := uint(len(f)-1), g.shift&31
	t := text[i:]
	for len(t) >= 8 {
		if len(t) >= 11 {
			h0 := hash(binary.LittleEndian.Uint64(t) | fold)
			h1 := hash(binary.LittleEndian.Uint64(t[1:]) | fold)
			h2 := hash(binary.LittleEndian.Uint64(t[2:]) | fold)
			h3 := hash(binary.LittleEndian.Uint64(t[3:]) | fold)
			if f[uint(uint32(h0)>>shift)&mask]&(1<<(h0>>58)) == 0 &&
				f[uint(uint32(h1)>>shift)&mask]&(1<<(h1>>58)) == 0 &&
				f[uint(uint32(h2)>>shift)&mask]&(1<<(h2>>58)) == 0 &&
				f[uint(uint32(h3)>>shift)&mask]&(1<<(h3>>58)) == 0 {
				t = t[4:]
				continue
			}
		}
		n := min(4, len(t)-7)
		for k := range n {
			h := hash(binary.LittleEndian.Uint64(t[k:]) | fold)
			if w := f[uint(uint32(h)>>shift)&mask]; w&(1<<(h>>58)) != 0 && w&(1<<(h>>52&63)) != 0 {
				return len(text) - len(t) + k
			}
		}
		t = t[n:]
	}
	return -1
}

// filterBits are the two bits of an 8-byte anchor of hash h in its word.
func filterBits(h uint64) uint64 { return 1<<(h>>58) | 1<<(h>>52&63) }

// wordTable maps filter words to bits: open addressing on the word's
// index plus one (0: empty).
type wordTable struct {
	keys []uint32
	vals []uint64
}

func newWordTable(m map[uint32]uint64) wordTable {
	if len(m) == 0 {
		return wordTable{}
	}
	n := 1 << bits.Len(uint(2*len(m)))
	t := wordTable{make([]uint32, n), make([]uint64, n)}
	for w, v := range m {
		i := int(hash(uint64(w)) >> 32 & uint64(n-1))
		for t.keys[i] != 0 {
			i = (i + 1) & (n - 1)
		}
		t.keys[i], t.vals[i] = w+1, v
	}
	return t
}

// get returns the bits of word w, ok false if it has none filed.
func (t *wordTable) get(w uint32) (uint64, bool) {
	n := len(t.keys)
	if n == 0 {
		return 0, false
	}
	for i := int(hash(uint64(w)) >> 32 & uint64(n-1)); t.keys[i] != 0; i = (i + 1) & (n - 1) {
		if t.keys[i] == w+1 {
			return t.vals[i], true
		}
	}
	return 0, false
}

// keyAt reads w bytes of s at o as a key (little-endian, folded).
func keyAt(s string, o, w int) uint64 {
	var k uint64
	for j := w - 1; j >= 0; j-- {
		k = k<<8 | uint64(s[o+j])
	}
	return k | fold>>(64-8*w)
}

func newGrams(lits []string, foldCase bool) *grams {
	g := &grams{fold: foldCase}
	var a8, a4 []anchor
	users := map[uint64]int{} // literals filed under each anchor so far
	df, df4 := docFrequency(lits, 8), docFrequency(lits, 4)
	for _, li := range byLength(lits) {
		l := lits[li]
		if len(l) < 4 {
			g.shortL = append(g.shortL, li)
			continue
		}
		w := min(8, len(l)/4*4)
		df := df
		if w == 4 {
			df = df4
		}
		// The filter passes wherever an anchor occurs, which costs a
		// look-up and a comparison per literal filed under it: a literal
		// takes an anchor with fewest of the most common 4-grams of pages
		// (href, ps:/), so that a literal of common markup and a rare
		// word ("presentation-xml" href=") is found by the word; then
		// one no other literal has, where it can; then one found in few
		// other literals, as markup common to all pages is; then the
		// rarest by its bytes.
		best := 0
		var bestCost [4]float64
		for o := 0; o+w <= len(l); o++ {
			k := keyAt(l, o, w)
			c := [4]float64{0, float64(users[k]), float64(df[k]), rarity(k, w)}
			for j := 0; j+4 <= w; j++ {
				if commonGrams[keyAt(l, o+j, 4)] {
					c[0]++
				}
			}
			if o == 0 || slices.Compare(c[:], bestCost[:]) < 0 {
				best, bestCost = o, c
			}
		}
		k := keyAt(l, best, w)
		users[k]++
		a := anchor{k, int32(li), int32(best)}
		if w == 8 {
			a8 = append(a8, a)
		} else {
			a4 = append(a4, a)
		}
	}
	g.filter, g.shift, g.own = newFilter(a8, a4)
	g.t8, g.t4 = newGramTable(a8), newGramTable(a4)
	g.arena, g.lits = pack(lits, append(a8, a4...), g.shortL)
	return g
}

// docFrequency counts for each key of w bytes (4 in literals shorter than
// w) how many literals hold it: keys many literals share are mostly
// markup that every page has.
func docFrequency(lits []string, w int) map[uint64]int {
	df := map[uint64]int{}
	seen := map[uint64]bool{}
	for _, l := range lits {
		w := min(w, len(l)/4*4)
		clear(seen)
		for o := 0; w > 0 && o+w <= len(l); o++ {
			if k := keyAt(l, o, w); !seen[k] {
				seen[k] = true
				df[k]++
			}
		}
	}
	return df
}

// pack copies the literals into one string in the order of their anchors,
// so that literals compared at one anchor sit together in memory, and
// returns where each is, with the offset of its anchor.
func pack(lits []string, as []anchor, short []int) (string, []litRef) {
	refs := make([]litRef, len(lits))
	var arena strings.Builder
	for _, a := range as {
		refs[a.lit] = litRef{uint32(arena.Len()), uint32(len(lits[a.lit])), uint32(a.off)}
		arena.WriteString(lits[a.lit])
	}
	for _, li := range short {
		refs[li] = litRef{uint32(arena.Len()), uint32(len(lits[li])), 0}
		arena.WriteString(lits[li])
	}
	return arena.String(), refs
}

// litRef is where a literal sits in the arena, and the offset of its
// anchor in it: all a look-up reads of a literal besides its bytes.
type litRef struct{ pos, len, off uint32 }

// lit returns the bytes of literal li.
func (g *grams) lit(li int) string {
	r := g.lits[li]
	return g.arena[r.pos : r.pos+r.len]
}

type anchor struct {
	key      uint64
	lit, off int32
}

// byLength orders literal ids shortest first: short literals have fewer
// anchors to choose from, so they choose first.
func byLength(lits []string) []int {
	ids := make([]int, len(lits))
	for i := range ids {
		ids[i] = i
	}
	slices.SortStableFunc(ids, func(a, b int) int { return len(lits[a]) - len(lits[b]) })
	return ids
}

// rarity estimates the frequency of a w-byte key in pages from the
// frequencies of its bytes.
func rarity(k uint64, w int) float64 {
	eighths := 0
	for i := range w {
		eighths += int(byteRarity[byte(k>>(8*i))])
	}
	return math.Exp2(-float64(eighths) / 8)
}

// gramTable maps anchors of one width to the literals filed under them:
// open addressing by hash, a slot per literal, so that a look-up reads
// one run of slots. A slot keeps 32 bits of the anchor's hash, not the
// anchor: a literal is compared with the page anyway, which settles
// the rare slot whose bits match another anchor's.
type gramTable struct {
	slots []slot
	mask  uint64
}

type slot struct {
	tag uint32 // the top 32 bits of the anchor's hash
	lit uint32 // literal id + 1; 0: empty
}

func newGramTable(as []anchor) *gramTable {
	if len(as) == 0 {
		return nil
	}
	n := 1 << bits.Len(uint(2*len(as)))
	t := &gramTable{slots: make([]slot, n), mask: uint64(n - 1)}
	for _, a := range as {
		h := hash(a.key)
		i := slotOf(h, t.mask)
		for t.slots[i].lit != 0 {
			i = (i + 1) & t.mask
		}
		t.slots[i] = slot{uint32(h >> 32), uint32(a.lit) + 1}
	}
	return t
}

// slotOf is where the probe for a key of hash h starts: bits the filter
// does not use.
func slotOf(h, mask uint64) uint64 { return h >> 32 & mask }

// find compares the literals filed under the anchor of hash h, found at
// text[i:], with the text there, but for those done.
func (t *gramTable) find(h uint64, g *grams, text []byte, i int, sc sink, done []uint64) {
	tag := uint32(h >> 32)
	for j := slotOf(h, t.mask); t.slots[j].lit != 0; j = (j + 1) & t.mask {
		s := t.slots[j]
		if s.tag != tag {
			continue
		}
		lit := int(s.lit - 1)
		if done[lit>>6]&(1<<(lit&63)) != 0 {
			continue
		}
		r := g.lits[lit]
		start := i - int(r.off)
		if end := start + int(r.len); start >= 0 && end <= len(text) && g.equal(text[start:end], g.arena[r.pos:r.pos+r.len]) {
			sc.seen(lit, start)
		}
	}
}

// sink is told what a scan finds: seen records an occurrence of lit at
// start, and marks lit in the scan's done set once its occurrences no
// longer matter, which the scan then skips. Occurrences of a literal
// come in increasing order.
type sink interface {
	seen(lit, start int)
}

// scan reports each occurrence in text of a literal not in done (a bit
// set of literal ids) to sc.
func (g *grams) scan(text []byte, sc sink, done []uint64) {
	n := len(text)
	for i := 0; ; i++ {
		if i = g.next(text, i); i < 0 {
			break
		}
		g.second(binary.LittleEndian.Uint64(text[i:])|fold, text, i, sc, done)
	}
	// The last 7 positions, where no 8-byte anchor fits.
	if g.t4 != nil {
		for i := max(0, n-7); i+4 <= n; i++ {
			k := uint64(binary.LittleEndian.Uint32(text[i:]) | fold&0xFFFFFFFF)
			g.t4.find(hash(k), g, text, i, sc, done)
		}
	}
	for _, li := range g.shortL {
		l := g.lit(li)
		for off := 0; off+len(l) <= n && done[li>>6]&(1<<(li&63)) == 0; off++ {
			if g.equal(text[off:off+len(l)], l) {
				sc.seen(li, off)
			}
		}
	}
}

// second looks up the anchors at text[i:], where the filter passed; v
// holds the 8 bytes there, folded.
func (g *grams) second(v uint64, text []byte, i int, sc sink, done []uint64) {
	h := hash(v)
	w := uint32(h) >> g.shift
	word := g.filter[w]
	if word == ^uint64(0) {
		if g.t4 != nil {
			k := v & 0xFFFFFFFF
			g.t4.find(hash(k), g, text, i, sc, done)
		}
		if own, ok := g.own.get(w); ok {
			word = own
		}
	}
	if m := filterBits(h); word&m == m && g.t8 != nil {
		g.t8.find(h, g, text, i, sc, done)
	}
}

// equal compares a piece of page with a literal, ASCII case-blind when the
// index folds (its literals are lower-case then).
func (g *grams) equal(b []byte, l string) bool {
	if !g.fold {
		return string(b) == l
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != l[i] {
			return false
		}
	}
	return true
}
