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
// position of the page the scan hashes the next 4 bytes and tests a Bloom
// filter of the anchors' first 4 bytes, small enough to stay in the
// processor's second-level cache whatever the number of literals; where it passes, a
// second filter tests all 8 bytes, and only where that passes is the
// anchor looked up and the literals filed under it compared with the
// page. The cost per byte thus hardly grows with the number of literals,
// where an Aho-Corasick automaton over thousands of literals has a
// transition table of megabytes that the scan reads at random.
type grams struct {
	lits   []string // by literal id, cut from one string in anchor order
	fold   bool
	first  *firstFilter // first 4 bytes of every anchor
	t8, t4 *gramTable   // nil when no literal has such an anchor
	shortL []int        // literals under 4 bytes: compared at every position
}

// bloom is a blocked Bloom filter: two bits per key, in one word.
type bloom struct {
	words []uint64
	shift uint // 64 - log2(len(words))
}

// gramTable maps anchors of one width to the literals filed under them.
type gramTable struct {
	filter bloom
	slots  []slot // open addressing by hash, power-of-two size
	mask   uint64
	ents   []entry
}

type slot struct {
	key         uint64
	first, last int32 // the anchor's entries are ents[first:last]; first==last: empty
}

type entry struct {
	lit int32
	off int32 // offset of the anchor in the literal
}

// fold makes keys case-blind: bit 0x20 set in every byte turns ASCII
// upper-case letters into lower-case ones (and merges a few other byte
// pairs, which only lets a filter pass more often).
const fold = 0x2020202020202020

func hash(k uint64) uint64 { return k * 0x9E3779B97F4A7C15 }

// newBloom sizes a filter for n keys: about 16 bits per key, so that it
// passes about 1 % of the positions holding none; at most 64 KB, so that
// it stays in the second-level cache. (At 16 KB, what fits the first
// level, the first filter of the 7,586 Wappalyzer fingerprints' literals
// had most bits set and passed far more often: its misses cost less than
// the second-stage tests they saved.)
func newBloom(n int) bloom {
	words := 1 << max(3, min(13, bits.Len(uint(n*16/64))))
	return bloom{words: make([]uint64, words), shift: uint(64 - bits.Len(uint(words-1)))}
}

// firstFilter is the filter the scan's inner loop tests at every
// position: one bit per key, which costs fewer instructions than two, and
// about 32 bits per key (at most 64 KB).
type firstFilter bloom

func newFirstFilter(keys map[uint64]bool) *firstFilter {
	f := firstFilter(newBloom(2 * len(keys)))
	for k := range keys {
		h := hash(k)
		f.words[h>>f.shift] |= 1 << (h >> 20 & 63)
	}
	return &f
}

// bloomBits are a key's two bits in its word, from hash bits the word index
// does not use.
func bloomBits(h uint64) uint64 { return 1<<(h>>20&63) | 1<<(h>>26&63) }

func (b *bloom) add(k uint64) {
	h := hash(k)
	b.words[h>>b.shift] |= bloomBits(h)
}

func (b *bloom) has(k uint64) bool {
	h := hash(k)
	m := bloomBits(h)
	return b.words[h>>b.shift]&m == m
}

// next returns the first position from i on, 8 bytes before the end of
// text at most, where the 4 bytes pass the filter; -1 if there is none.
// It is the scan's inner loop, alone in its function so that its few
// variables stay in registers.
func (f *firstFilter) next(text []byte, i int) int {
	words, shift := f.words, f.shift
	for ; i+8 <= len(text); i++ {
		h := hash(uint64(binary.LittleEndian.Uint32(text[i:]) | fold&0xFFFFFFFF))
		if words[h>>shift]&(1<<(h>>20&63)) != 0 {
			return i
		}
	}
	return -1
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
	chosen := map[uint64]bool{} // first 4 bytes of the anchors so far
	users := map[uint64]int{}   // literals filed under each anchor so far
	df, df4 := docFrequency(lits, 8), docFrequency(lits, 4)
	for _, li := range byLength(lits) {
		l := lits[li]
		if len(l) < 4 {
			g.shortL = append(g.shortL, li)
			continue
		}
		w := min(8, len(l)/4*4)
		// The first filter passes wherever the first 4 bytes of an
		// anchor occur, and then the second stage runs: a literal takes
		// an anchor that does not start with a common 4-gram of pages
		// (href, ps:/) new to the filter where it can. Each occurrence of
		// an anchor costs a comparison per literal filed under it, so
		// next one no other literal has; then one found in few other
		// literals, as markup common to all pages is; then one that adds
		// least to the first filter: nothing when its first 4 bytes are
		// already chosen, else their estimated frequency.
		best := 0
		var bestCost [4]float64
		for o := 0; o+w <= len(l); o++ {
			k := keyAt(l, o, w)
			c := [4]float64{0, float64(users[k]), float64(df[k]), 0}
			if k4 := keyAt(l, o, 4); !chosen[k4] {
				if commonGrams[k4] {
					c[0] = 1
				}
				c[3] = float64(df4[k4]) + rarity(k4, 4)
			}
			if o == 0 || slices.Compare(c[:], bestCost[:]) < 0 {
				best, bestCost = o, c
			}
		}
		users[keyAt(l, best, w)]++
		chosen[keyAt(l, best, 4)] = true
		a := anchor{keyAt(l, best, w), int32(li), int32(best)}
		if w == 8 {
			a8 = append(a8, a)
		} else {
			a4 = append(a4, a)
		}
	}
	g.first = newFirstFilter(chosen)
	g.t8, g.t4 = newGramTable(a8), newGramTable(a4)
	g.lits = pack(lits, g)
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
// so that literals compared at one anchor sit together in memory.
func pack(lits []string, g *grams) []string {
	var order []int
	for _, t := range []*gramTable{g.t8, g.t4} {
		if t != nil {
			for _, e := range t.ents {
				order = append(order, int(e.lit))
			}
		}
	}
	order = append(order, g.shortL...)
	var arena strings.Builder
	for _, li := range order {
		arena.WriteString(lits[li])
	}
	all := arena.String()
	out := make([]string, len(lits))
	for _, li := range order {
		out[li], all = all[:len(lits[li])], all[len(lits[li]):]
	}
	return out
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

func newGramTable(as []anchor) *gramTable {
	if len(as) == 0 {
		return nil
	}
	byKey := map[uint64][]entry{}
	var keys []uint64
	for _, a := range as {
		if _, ok := byKey[a.key]; !ok {
			keys = append(keys, a.key)
		}
		byKey[a.key] = append(byKey[a.key], entry{a.lit, a.off})
	}
	t := &gramTable{filter: newBloom(len(keys))}
	nslots := 1 << bits.Len(uint(2*len(keys)))
	t.slots = make([]slot, nslots)
	t.mask = uint64(nslots - 1)
	for _, k := range keys {
		t.filter.add(k)
		i := hash(k) & t.mask
		for t.slots[i].first != t.slots[i].last {
			i = (i + 1) & t.mask
		}
		first := int32(len(t.ents))
		t.ents = append(t.ents, byKey[k]...)
		t.slots[i] = slot{k, first, int32(len(t.ents))}
	}
	return t
}

// lookup returns the entries of anchor k.
func (t *gramTable) lookup(k uint64) []entry {
	for i := hash(k) & t.mask; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.first == s.last {
			return nil
		}
		if s.key == k {
			return t.ents[s.first:s.last]
		}
	}
}

// sink is told what a scan finds: want reports whether the occurrences
// of a literal still matter, seen records one at start. Occurrences of a
// literal come in increasing order.
type sink interface {
	want(lit int) bool
	seen(lit, start int)
}

// scan reports each occurrence of a literal in text to sc.
func (g *grams) scan(text []byte, sc sink) {
	n := len(text)
	i := 0
	for {
		if i = g.first.next(text, i); i < 0 {
			break
		}
		g.second(binary.LittleEndian.Uint64(text[i:])|fold, text, i, sc)
		i++
	}
	i = max(0, n-7)
	// The last 7 positions: bytes past the end read as spaces, which only
	// a failing comparison sees.
	for ; i+4 <= n; i++ {
		var buf [8]byte
		copy(buf[:], text[i:])
		g.second(binary.LittleEndian.Uint64(buf[:])|fold, text, i, sc)
	}
	for _, li := range g.shortL {
		l := g.lits[li]
		for off := 0; off+len(l) <= n && sc.want(li); off++ {
			if g.equal(text[off:off+len(l)], l) {
				sc.seen(li, off)
			}
		}
	}
}

// second tests the anchors that start with the 4 bytes at text[i:]; v
// holds the 8 bytes there, folded.
func (g *grams) second(v uint64, text []byte, i int, sc sink) {
	if t := g.t8; t != nil && t.filter.has(v) {
		g.verify(t.lookup(v), text, i, sc)
	}
	if t := g.t4; t != nil && t.filter.has(v&0xFFFFFFFF) {
		g.verify(t.lookup(v&0xFFFFFFFF), text, i, sc)
	}
}

// verify compares the literals of an anchor found at text[i:] with the
// text there.
func (g *grams) verify(es []entry, text []byte, i int, sc sink) {
	for _, e := range es {
		l := g.lits[e.lit]
		start := i - int(e.off)
		if start < 0 || start+len(l) > len(text) || !sc.want(int(e.lit)) {
			continue
		}
		if g.equal(text[start:start+len(l)], l) {
			sc.seen(int(e.lit), start)
		}
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
