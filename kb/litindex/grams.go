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
// from the 8 bytes there: a 32-bit word picked by the first 4 and a pair
// of its bits picked by all 8, so that a position passes where an 8-byte
// anchor is (or hashes collide), not wherever the first 4 bytes of one
// are; the word of a 4-byte anchor has all its bits set. Only where the
// filter passes is the anchor looked up and the literals filed under it
// compared with the page. The filter stays in the processor's
// second-level cache whatever the number of literals, so the cost per
// byte hardly grows with it, where an Aho-Corasick automaton over
// thousands of literals has a transition table of megabytes that the
// scan reads at random.
type grams struct {
	arena string   // the literals, in the order of their anchors
	lits  []litRef // by literal id
	fold  bool
	// filter is a power of two of words, stored complemented: a clear
	// bit is one an anchor sets, and the word of a 4-byte anchor is 0.
	filter []uint32
	// own holds, for the words of 4-byte anchors, the bits 8-byte and
	// 4-byte anchors set in them.
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
// picks its word by them and its bits by the top bits, which depend on
// all 8.
func hash(k uint64) uint64 { return k * 0x9E3779B97F4A7C15 }

// Filter sizes: a position that holds no anchor passes where its word is
// one of a 4-byte anchor or both bits of its pair are set, so the filter
// takes 1,000 words per 4-byte anchor and 16 (a pair in 512 bits) per
// 8-byte one, to pass at about one position in 1,000 or fewer; at most
// 128 words per literal, as an index of a few literals scans short texts
// (header values), and at most maxWords, 128 KB, which stays in the
// second-level cache next to the page and the tables a pass reads (a
// larger filter passes less often but misses the cache more).
const (
	minWords = 16
	maxWords = 1 << 15
	// wordShift picks a word by bits 17 and up of the low 32 bits of a
	// hash, as many as the filter needs: a constant shift, cheaper in
	// the inner loop than one by the filter's size.
	wordShift = 32 - 15
)

func newFilter(a8, a4 []anchor) ([]uint32, wordTable) {
	n := max(minWords, min(1000*len(a4)+16*len(a8), 128*(len(a4)+len(a8))))
	words := min(maxWords, 1<<bits.Len(uint(n-1)))
	f := make([]uint32, words)
	mask := uint32(words - 1)
	for _, a := range a8 {
		h := hash(a.key)
		f[uint32(h)>>wordShift&mask] |= pairOf(h)
	}
	// A 4-byte anchor's word passes the first test whatever the next 4
	// bytes; the bits 8-byte anchors set in it are kept aside with those
	// the 4-byte anchors set by their 4 bytes, which the second test
	// reads there.
	own := map[uint32]wordBits{}
	for w, x := range f {
		if x == ^uint32(0) { // full of 8-byte anchors' bits
			own[uint32(w)] = wordBits{b8: x}
		}
	}
	for _, a := range a4 {
		h := hash(a.key)
		w := uint32(h) >> wordShift & mask
		o, ok := own[w]
		if !ok {
			o.b8 = f[w]
			f[w] = ^uint32(0)
		}
		o.b4 |= bits4(h)
		own[w] = o
	}
	for w := range f {
		f[w] = ^f[w]
	}
	return f, newWordTable(own)
}

// next returns the first position from i on, 8 bytes before the end of
// text at most, where the filter passes; -1 if there is none. It is the
// scan's inner loop: rounds of eight positions in two halves test the
// pair of bits of each (with as few instructions as can be: the loop is
// bound by them), and only a half where one passes looks at its
// positions in turn.
func (g *grams) next(text []byte, i int) int {
	f := g.filter
	mask := uint(len(f) - 1)
	for ; i+15 <= len(text); i += 8 {
		t := text[i : i+15 : i+15]
		h0 := hash(binary.LittleEndian.Uint64(t) | fold)
		h1 := hash(binary.LittleEndian.Uint64(t[1:]) | fold)
		h2 := hash(binary.LittleEndian.Uint64(t[2:]) | fold)
		h3 := hash(binary.LittleEndian.Uint64(t[3:]) | fold)
		k := 0
		if f[uint(uint32(h0)>>wordShift)&mask]&pairs[h0>>54] != 0 &&
			f[uint(uint32(h1)>>wordShift)&mask]&pairs[h1>>54] != 0 &&
			f[uint(uint32(h2)>>wordShift)&mask]&pairs[h2>>54] != 0 &&
			f[uint(uint32(h3)>>wordShift)&mask]&pairs[h3>>54] != 0 {
			h4 := hash(binary.LittleEndian.Uint64(t[4:]) | fold)
			h5 := hash(binary.LittleEndian.Uint64(t[5:]) | fold)
			h6 := hash(binary.LittleEndian.Uint64(t[6:]) | fold)
			h7 := hash(binary.LittleEndian.Uint64(t[7:]) | fold)
			if f[uint(uint32(h4)>>wordShift)&mask]&pairs[h4>>54] != 0 &&
				f[uint(uint32(h5)>>wordShift)&mask]&pairs[h5>>54] != 0 &&
				f[uint(uint32(h6)>>wordShift)&mask]&pairs[h6>>54] != 0 &&
				f[uint(uint32(h7)>>wordShift)&mask]&pairs[h7>>54] != 0 {
				continue
			}
			k = 4
		}
		for ; k < 8; k++ {
			if g.passes(text, i+k) {
				return i + k
			}
		}
	}
	for ; i+8 <= len(text); i++ {
		if g.passes(text, i) {
			return i
		}
	}
	return -1
}

// passes reports whether the filter passes position i of text: both bits
// of its pair are set, and where its word is one of 4-byte anchors, so
// are those of the pair among the bits kept aside.
func (g *grams) passes(text []byte, i int) bool {
	h := hash(binary.LittleEndian.Uint64(text[i:]) | fold)
	w := uint(uint32(h)>>wordShift) & uint(len(g.filter)-1)
	return g.filter[w]&pairs[h>>54] == 0 && (g.filter[w] != 0 || g.own.passes(uint32(w), h))
}

// pairOf returns the pair of bits of an 8-byte anchor of hash h.
func pairOf(h uint64) uint32 { return pairs[h>>54] }

// pairs are the pairs of bits the top 10 bits of a hash pick: a table,
// as a shift by a variable costs the inner loop more than a load.
var pairs = func() (p [1024]uint32) {
	for i := range p {
		a, b := i>>5, i&31%31
		p[i] = 1<<a | 1<<((a+1+b)&31)
	}
	return p
}()

// bits4 are the two bits a 4-byte anchor of hash h sets among those of
// its word kept aside: picked by low bits of h, which depend on its 4
// bytes alone (the first two, mostly), whatever bytes follow it.
func bits4(h uint64) uint64 { return 1<<(h>>11&63) | 1<<(h>>5&63) }

// wordBits are the bits kept aside for the word of 4-byte anchors: those
// 8-byte anchors set (pairOf) and those 4-byte ones do (bits4).
type wordBits struct {
	b8 uint32
	b4 uint64
}

// wordTable maps filter words to their bits kept aside: open addressing
// on the word's index plus one (0: empty).
type wordTable struct {
	keys []uint32
	vals []wordBits
}

func newWordTable(m map[uint32]wordBits) wordTable {
	if len(m) == 0 {
		return wordTable{}
	}
	n := 1 << bits.Len(uint(2*len(m)))
	t := wordTable{make([]uint32, n), make([]wordBits, n)}
	for w, v := range m {
		i := int(hash(uint64(w)) >> 32 & uint64(n-1))
		for t.keys[i] != 0 {
			i = (i + 1) & (n - 1)
		}
		t.keys[i], t.vals[i] = w+1, v
	}
	return t
}

// get returns the bits kept aside for word w, ok false if it has none.
func (t *wordTable) get(w uint32) (wordBits, bool) {
	n := len(t.keys)
	if n == 0 {
		return wordBits{}, false
	}
	for i := int(hash(uint64(w)) >> 32 & uint64(n-1)); t.keys[i] != 0; i = (i + 1) & (n - 1) {
		if t.keys[i] == w+1 {
			return t.vals[i], true
		}
	}
	return wordBits{}, false
}

// passes reports whether a position of hash h, whose word w holds
// 4-byte anchors, may hold an anchor by the bits kept aside.
func (t *wordTable) passes(w uint32, h uint64) bool {
	b, _ := t.get(w)
	m8, m4 := pairOf(h), bits4(h)
	return b.b8&m8 == m8 || b.b4&m4 == m4
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
	g.filter, g.own = newFilter(a8, a4)
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
// anchor in it: all a look-up reads of a literal besides its bytes
// (32 bits: an index's literals are kilobytes, not gigabytes).
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
// text[i:], with the text there, but for those done; when all are done
// after that, or none is filed there, the anchor is dead for the rest of
// the scan.
func (t *gramTable) find(h uint64, g *grams, text []byte, i int, sc sink, st *scanState) {
	if st.dead.has(h) {
		return
	}
	tag, live := uint32(h>>32), false
	for j := slotOf(h, t.mask); t.slots[j].lit != 0; j = (j + 1) & t.mask {
		s := t.slots[j]
		if s.tag != tag {
			continue
		}
		lit := int(s.lit - 1)
		if st.isDone(lit) {
			continue
		}
		r := g.lits[lit]
		start := i - int(r.off)
		if end := start + int(r.len); start >= 0 && end <= len(text) && g.equal(text[start:end], g.arena[r.pos:r.pos+r.len]) {
			sc.seen(lit, start)
		}
		live = live || !st.isDone(lit)
	}
	if !live {
		st.dead.add(h)
	}
}

// scanState is what a scan of several texts keeps from one to the next.
type scanState struct {
	// done is a bit set of the literals whose further occurrences do
	// not matter (sink.seen marks them).
	done []uint64
	// dead holds the hashes of anchors all of whose literals are done,
	// which occur over and over in a page (com/, /wp-content/): a look
	// here spares the look-up. A folded 8-byte key has no zero byte,
	// a 4-byte one four, so the hash of one is never that of the
	// other.
	dead keySet
}

func newScanState(lits int) *scanState { return &scanState{done: make([]uint64, (lits+63)/64)} }

func (st *scanState) isDone(lit int) bool { return st.done[lit>>6]&(1<<(lit&63)) != 0 }

func (st *scanState) markDone(lit int) { st.done[lit>>6] |= 1 << (lit & 63) }

// keySet is a set of non-zero hashes: open addressing, grown at half
// full, from 16 slots: a page has a few hundred dead anchors, but most
// texts scanned (a meta value, a script source) none, and a large first
// table would cost them more than their scan.
type keySet struct {
	slots []uint64
	n     int
}

func (s *keySet) has(h uint64) bool {
	if s.n == 0 {
		return false
	}
	m := uint64(len(s.slots) - 1)
	for i := h >> 40 & m; s.slots[i] != 0; i = (i + 1) & m {
		if s.slots[i] == h {
			return true
		}
	}
	return false
}

func (s *keySet) add(h uint64) {
	if 2*(s.n+1) > len(s.slots) {
		old := s.slots
		s.slots, s.n = make([]uint64, max(16, 2*len(old))), 0
		for _, k := range old {
			if k != 0 {
				s.add(k)
			}
		}
	}
	m := uint64(len(s.slots) - 1)
	i := h >> 40 & m
	for ; s.slots[i] != 0; i = (i + 1) & m {
		if s.slots[i] == h {
			return
		}
	}
	s.slots[i] = h
	s.n++
}

// sink is told what a scan finds: seen records an occurrence of lit at
// start, and marks lit done (scanState) once its occurrences no longer
// matter, which the scan then skips. Occurrences of a literal
// come in increasing order.
type sink interface {
	seen(lit, start int)
}

// scan reports each occurrence in text of a literal not done to sc.
func (g *grams) scan(text []byte, sc sink, st *scanState) {
	n := len(text)
	for i := 0; ; i++ {
		if i = g.next(text, i); i < 0 {
			break
		}
		g.second(binary.LittleEndian.Uint64(text[i:])|fold, text, i, sc, st)
	}
	// The last 7 positions, where no 8-byte anchor fits.
	if g.t4 != nil {
		for i := max(0, n-7); i+4 <= n; i++ {
			k := uint64(binary.LittleEndian.Uint32(text[i:]) | fold&0xFFFFFFFF)
			g.t4.find(hash(k), g, text, i, sc, st)
		}
	}
	for _, li := range g.shortL {
		l := g.lit(li)
		for off := 0; off+len(l) <= n && !st.isDone(li); off++ {
			if g.equal(text[off:off+len(l)], l) {
				sc.seen(li, off)
			}
		}
	}
}

// second looks up the anchors at text[i:], where the filter passed; v
// holds the 8 bytes there, folded.
func (g *grams) second(v uint64, text []byte, i int, sc sink, st *scanState) {
	h := hash(v)
	w := uint32(h) >> wordShift & uint32(len(g.filter)-1)
	word := ^g.filter[w]
	if word == ^uint32(0) {
		if own, ok := g.own.get(w); ok {
			if m := bits4(h); own.b4&m == m && g.t4 != nil {
				k := v & 0xFFFFFFFF
				g.t4.find(hash(k), g, text, i, sc, st)
			}
			word = own.b8
		}
	}
	if m := pairOf(h); word&m == m && g.t8 != nil {
		g.t8.find(h, g, text, i, sc, st)
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
