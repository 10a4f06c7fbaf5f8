// Package text turns text into term vectors for focused crawling: words
// are split on Unicode letter and digit runs, lower-cased, stop words of
// the chosen languages dropped and the rest stemmed with the Snowball
// stemmers (github.com/kljensen/snowball, whose stop-word lists are used
// too), so that "Crawling" and "crawled" count as one term. Vectors are
// sparse term → weight maps; Cosine compares them.
package text

import (
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/french"
	"github.com/kljensen/snowball/hungarian"
	"github.com/kljensen/snowball/norwegian"
	"github.com/kljensen/snowball/russian"
	"github.com/kljensen/snowball/spanish"
	"github.com/kljensen/snowball/swedish"
)

// language is one Snowball language: its stemmer and stop words.
type language struct {
	stem func(string, bool) string
	stop func(string) bool
}

// languages are the Snowball languages by ISO 639-1 code.
var languages = map[string]language{
	"en": {english.Stem, english.IsStopWord},
	"fr": {french.Stem, french.IsStopWord},
	"es": {spanish.Stem, spanish.IsStopWord},
	"ru": {russian.Stem, russian.IsStopWord},
	"sv": {swedish.Stem, swedish.IsStopWord},
	"no": {norwegian.Stem, norwegian.IsStopWord},
	"hu": {hungarian.Stem, hungarian.IsStopWord},
}

// Languages lists the language codes an Analyzer accepts, sorted.
func Languages() []string {
	var out []string
	for code := range languages {
		out = append(out, code)
	}
	sort.Strings(out)
	return out
}

// Analyzer tokenises, drops stop words and stems for a set of languages.
// A document is stemmed in the language whose stop words it uses most (the
// first language on a tie or when it has none); stop words of every
// language are dropped. It is safe for concurrent use.
type Analyzer struct {
	langs []language
	codes []string
	cache wordCache
}

// New returns an Analyzer for the languages (ISO 639-1 codes, see
// Languages); it refuses an unknown code or an empty list.
func New(codes ...string) (*Analyzer, error) {
	if len(codes) == 0 {
		return nil, fmt.Errorf("no language given (one of %s)", strings.Join(Languages(), ", "))
	}
	a := &Analyzer{codes: slices.Clone(codes)}
	for _, c := range codes {
		l, ok := languages[c]
		if !ok {
			return nil, fmt.Errorf("unknown language %q (want one of %s)", c, strings.Join(Languages(), ", "))
		}
		a.langs = append(a.langs, l)
	}
	a.cache.shards = make([]wordShard, len(codes))
	return a, nil
}

// Languages returns the analyzer's language codes.
func (a *Analyzer) Languages() []string { return slices.Clone(a.codes) }

// words splits s into lower-cased words of at least two letters or digits
// (two bytes); pure numbers are left out (they say little about a topic).
// A word is given to fn as a substring of s when it is lower-case ASCII
// already, else lower-cased into *low and given as b (w is then ""): the
// caller looks it up without a copy. h is the FNV-1a hash of the
// lower-cased word, computed as the word is read, for wordShard's table.
func words(s string, low *[]byte, fn func(w string, b []byte, h uint64)) {
	for i := 0; i < len(s); {
		if byteClass[s[i]] == separator {
			i++
			continue
		}
		start := i
		// ASCII letters and digits: their classes' bits gathered, the
		// hash of the lower-cased byte (upper-case letters get 0x20).
		var kinds byte
		h := uint64(fnvOffset)
		for i < len(s) {
			c := s[i]
			k := byteClass[c]
			if k == separator || k == wide {
				break
			}
			kinds |= k
			c |= (k & upperLetter) << 4
			h = (h ^ uint64(c)) * fnvPrime
			i++
		}
		if i < len(s) && byteClass[s[i]] == wide {
			// A character not ASCII: the rest of the word a rune at a
			// time (its hash is the lower-cased word's, computed after).
			for i < len(s) {
				if k := byteClass[s[i]]; k != wide {
					if k == separator {
						break
					}
					kinds |= k
					i++
					continue
				}
				r, n := utf8.DecodeRuneInString(s[i:])
				if !unicode.IsLetter(r) {
					break
				}
				kinds |= wide
				i += n
			}
			if i == start { // a character that is no word's
				_, n := utf8.DecodeRuneInString(s[i:])
				i += n
				continue
			}
		}
		if kinds&(lowerLetter|upperLetter|wide) == 0 || i-start < 2 {
			continue
		}
		w := s[start:i]
		switch {
		case kinds&(upperLetter|wide) == 0:
			fn(w, nil, h)
		case kinds&wide == 0:
			b := (*low)[:0]
			for k := 0; k < len(w); k++ {
				c := w[k]
				b = append(b, c|(byteClass[c]&upperLetter)<<4)
			}
			*low = b
			fn("", b, h)
		default:
			b := (*low)[:0]
			for _, r := range w {
				b = utf8.AppendRune(b, unicode.ToLower(r))
			}
			*low = b
			fn("", b, hashBytes(b))
		}
	}
}

// byteClass classes bytes for words: ASCII letters and digits, other
// ASCII bytes (separators), and the bytes of other characters (wide).
var byteClass = func() (t [256]byte) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = lowerLetter
		t[c-'a'+'A'] = upperLetter
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = digit
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = wide
	}
	return t
}()

// Byte classes: bits, to gather a word's.
const (
	separator   = 0
	lowerLetter = 1
	upperLetter = 2 // << 4 is 'a' - 'A'
	digit       = 4
	wide        = 8
)

// FNV-1a, 64 bits: a word's hash, one multiplication per byte as the word
// is read.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func hashBytes(b []byte) uint64 {
	h := uint64(fnvOffset)
	for _, c := range b {
		h = (h ^ uint64(c)) * fnvPrime
	}
	return h
}

// Terms calls fn with each term of s in order: stop words dropped, the
// others stemmed.
func (a *Analyzer) Terms(s string, fn func(term string)) {
	var out []string
	a.scan(s, nil, func(e entry, _ bool) {
		if !e.stop {
			out = append(out, e.stem)
		}
	}, nil)
	for _, t := range out {
		fn(t)
	}
}

// detect picks the language whose stop words are most frequent in the
// first words of s.
func (a *Analyzer) detect(s string) int {
	if len(a.langs) == 1 {
		return 0
	}
	hits := make([]int, len(a.langs))
	var low []byte
	words(s[:min(len(s), 4096)], &low, func(w string, b []byte, _ uint64) {
		if b != nil {
			w = string(b)
		}
		for i, l := range a.langs {
			if l.stop(w) {
				hits[i]++
			}
		}
	})
	best := 0
	for i, h := range hits {
		if h > hits[best] {
			best = i
		}
	}
	return best
}

// Vector is a sparse term vector.
type Vector map[string]float64

// Counts returns the term frequencies of s.
func (a *Analyzer) Counts(s string) Vector { return a.addCounts(s, nil) }

// AddCounts adds the term frequencies of s to v: Counts into a map the
// caller reuses.
func (a *Analyzer) AddCounts(s string, v Vector) { a.addCounts(s, v) }

// addCounts adds the term frequencies of s to v, or to a new map of the
// right size when v is nil, and returns it.
func (a *Analyzer) addCounts(s string, v Vector) Vector {
	c := counters.Get().(*counter)
	var missed Vector // stems of words not cached yet
	a.scan(s, c, func(e entry, _ bool) {
		if !e.stop {
			if missed == nil {
				missed = Vector{}
			}
			missed[e.stem]++
		}
	}, func(stems []string) {
		// Under the same read lock: the ids are the cache's of this scan.
		if v == nil {
			v = make(Vector, len(c.touched)+len(missed))
		}
		for _, id := range c.touched {
			v[stems[id]] += c.n[id]
			c.n[id] = 0
		}
		c.touched = c.touched[:0]
	})
	for t, n := range missed {
		v[t] += n
	}
	counters.Put(c)
	return v
}

// counter counts a text's cached words by stem id; reused (counters).
type counter struct {
	n       []float64 // by stem id; zero outside touched
	touched []uint32
}

// add counts n words of stem id.
func (c *counter) add(id uint32, n float64) {
	if int(id) >= len(c.n) {
		c.n = append(c.n, make([]float64, int(id)+1-len(c.n))...)
	}
	if c.n[id] == 0 {
		c.touched = append(c.touched, id)
	}
	c.n[id] += n
}

var counters = sync.Pool{New: func() any { return &counter{} }}

// Norm is the Euclidean length of v.
func (v Vector) Norm() float64 {
	s := 0.0
	for _, w := range v {
		s += w * w
	}
	return math.Sqrt(s)
}

// Add adds w × u to v.
func (v Vector) Add(u Vector, w float64) {
	for t, x := range u {
		v[t] += w * x
	}
}

// Normalized returns v scaled to length 1 (v itself when it is empty).
func (v Vector) Normalized() Vector {
	n := v.Norm()
	if n == 0 {
		return v
	}
	out := make(Vector, len(v))
	for t, x := range v {
		out[t] = x / n
	}
	return out
}

// Cosine is the cosine of the angle between u and v, 0 when either is
// empty.
func Cosine(u, v Vector) float64 {
	if len(u) > len(v) {
		u, v = v, u
	}
	dot := 0.0
	for t, x := range u {
		dot += x * v[t]
	}
	if dot == 0 {
		return 0
	}
	return dot / (u.Norm() * v.Norm())
}

// Term is a term and its weight.
type Term struct {
	Term   string  `json:"term"`
	Weight float64 `json:"weight"`
}

// Top returns the n heaviest terms of v, heaviest first (ties by term).
func (v Vector) Top(n int) []Term {
	out := make([]Term, 0, len(v))
	for t, w := range v {
		out = append(out, Term{t, w})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Weight != out[j].Weight {
			return out[i].Weight > out[j].Weight
		}
		return out[i].Term < out[j].Term
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// TFIDF returns, for each document's term counts, their TF-IDF weights
// within the collection docs (tf × log(N / df)), summed over the
// documents: the terms that represent the collection as against a
// term spread evenly over all of it.
func TFIDF(docs []Vector) Vector {
	df := map[string]int{}
	for _, d := range docs {
		for t := range d {
			df[t]++
		}
	}
	n := float64(len(docs))
	out := Vector{}
	for _, d := range docs {
		total := 0.0
		for _, c := range d {
			total += c
		}
		for t, c := range d {
			if idf := math.Log(n / float64(df[t])); idf > 0 {
				out[t] += c / total * idf
			}
		}
	}
	return out
}

// wordCache remembers, per language, what each word is: a stop word or
// its stem. A crawl's vocabulary is mostly a few thousand frequent words,
// so nearly every word of a page is one table lookup instead of the stop
// word lists and the stemmer. Each language's table is bounded: emptied
// when full (the frequent words come back at once).
type wordCache struct{ shards []wordShard }

// wordShard is one language's cache: an open-addressing table of the
// words' hashes (computed by words as it reads them, cheaper than a map's
// hash of the finished word) pointing into words.
type wordShard struct {
	mu     sync.RWMutex
	blocks blockCache // counts of lines by the ids of stems
	slots  []uint32   // index into words + 1; 0: empty; a power of two long
	words  []cachedWord
	ids    map[string]uint32 // stem → id
	stems  []string          // id → stem
}

type cachedWord struct {
	h uint64
	w string
	e entry
}

// find returns the entry of the word w (when b is nil) or b, whose hash is h.
func (sh *wordShard) find(w string, b []byte, h uint64) (entry, bool) {
	if len(sh.slots) == 0 {
		return entry{}, false
	}
	mask := uint64(len(sh.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		k := sh.slots[i]
		if k == 0 {
			return entry{}, false
		}
		if cw := &sh.words[k-1]; cw.h == h && (b == nil && cw.w == w || b != nil && cw.w == string(b)) {
			return cw.e, true
		}
	}
}

// put adds word w, whose hash is h; the caller holds the write lock and
// has checked that w is not there.
func (sh *wordShard) put(w string, h uint64, e entry) {
	if 2*(len(sh.words)+1) > len(sh.slots) {
		n := max(1024, 2*len(sh.slots))
		sh.slots = make([]uint32, n)
		for k, cw := range sh.words {
			sh.place(cw.h, uint32(k+1))
		}
	}
	sh.words = append(sh.words, cachedWord{h, w, e})
	sh.place(h, uint32(len(sh.words)))
}

func (sh *wordShard) place(h uint64, k uint32) {
	mask := uint64(len(sh.slots) - 1)
	i := h & mask
	for sh.slots[i] != 0 {
		i = (i + 1) & mask
	}
	sh.slots[i] = k
}

// entry is what a word is in a language: a stop word, or a stem and the
// stem's id in its shard.
type entry struct {
	stem string
	id   uint32
	stop bool
}

const wordCacheMax = 1 << 16

// LeadStems returns the terms the first word of s may count as, one per
// language of the analyzer, so that a text in which s occurs as whole
// words has one of them in its counts. ok is false when that word does
// not always count: s does not start with a word, or its first word is a
// stop word, of one byte, of digits only or not all ASCII (whose lower
// case may change its length).
func (a *Analyzer) LeadStems(s string) (stems []string, ok bool) {
	n := 0
	letters := false
	for n < len(s) && byteClass[s[n]] != separator && byteClass[s[n]] != wide {
		letters = letters || byteClass[s[n]] != digit
		n++
	}
	if n < 2 || !letters || n < len(s) && s[n] >= utf8.RuneSelf {
		return nil, false
	}
	w := strings.ToLower(s[:n])
	for _, l := range a.langs {
		if l.stop(w) {
			return nil, false
		}
	}
	for _, l := range a.langs {
		if st := l.stem(w, true); !slices.Contains(stems, st) {
			stems = append(stems, st)
		}
	}
	return stems, true
}

// entryOf works out what w is in language lang, without the cache.
func (a *Analyzer) entryOf(lang int, w string) entry {
	for _, l := range a.langs {
		if l.stop(w) {
			return entry{stop: true}
		}
	}
	return entry{stem: a.langs[lang].stem(w, true)}
}

// scan calls fn with the entry of each word of s (stop words included),
// in order, in the language detected for s, and whether the entry came
// from the cache (only then is its id set); then done, when not nil, with
// the stems by id. With a counter, the cached words' stems are counted
// in it by id instead (fn gets the others), and the lines of s are
// looked up in the block cache first. fn and done are called under the
// cache's read lock: they must not call the Analyzer.
func (a *Analyzer) scan(s string, c *counter, fn func(e entry, cached bool), done func(stems []string)) {
	lang := a.detect(s)
	sh := &a.cache.shards[lang]
	var low []byte
	type missed struct {
		h uint64
		e entry
	}
	var miss map[string]missed // words not cached, added after the scan
	// into is the counter the cached words of the current line go to;
	// misses counts the words of the scan that were not cached.
	into, misses := c, 0
	word := func(w string, b []byte, h uint64) {
		if e, ok := sh.find(w, b, h); ok {
			switch {
			case c == nil:
				fn(e, true)
			case !e.stop:
				into.add(e.id, 1)
			}
			return
		}
		misses++
		if b != nil {
			w = string(b)
		}
		m, ok := miss[w]
		if !ok {
			m = missed{h, a.entryOf(lang, w)}
			if miss == nil {
				miss = map[string]missed{}
			}
			miss[strings.Clone(w)] = m
		}
		fn(m.e, false)
	}
	var fresh []newBlock // lines seen for the first or second time
	sh.mu.RLock()
	if c == nil {
		words(s, &low, word)
	} else {
		fresh = a.scanLines(sh, s, c, &low, word, &misses, &into)
	}
	if done != nil {
		done(sh.stems)
	}
	sh.mu.RUnlock()
	if len(miss) == 0 && len(fresh) == 0 {
		return
	}
	sh.mu.Lock()
	if len(miss) > 0 && (sh.ids == nil || len(sh.words)+len(miss) > wordCacheMax) {
		sh.slots, sh.words, sh.ids, sh.stems = nil, nil, map[string]uint32{}, nil
		// The lines' counts are by the ids just dropped.
		sh.blocks.clear()
		fresh = nil
	}
	for w, m := range miss {
		if _, ok := sh.find(w, nil, m.h); ok {
			continue // another scan added it meanwhile
		}
		e := m.e
		if !e.stop {
			id, ok := sh.ids[e.stem]
			if !ok {
				id = uint32(len(sh.stems))
				sh.ids[e.stem] = id
				sh.stems = append(sh.stems, e.stem)
			}
			e.id = id
		}
		sh.put(w, m.h, e)
	}
	for _, b := range fresh {
		sh.blocks.add(b)
	}
	sh.mu.Unlock()
}

// scanLines counts the words of s into c line by line: a line the block
// cache holds is counted from its counts, without reading its words; the
// others are read with word, and those met for the second time are
// returned with their counts, for the cache (when every word of theirs
// was cached: the others have no id yet). The caller holds the shard's
// read lock.
func (a *Analyzer) scanLines(sh *wordShard, s string, c *counter, low *[]byte, word func(string, []byte, uint64), misses *int, into **counter) []newBlock {
	var fresh []newBlock
	var bc *counter // a line's own counts, when it is to be cached
	for len(s) > 0 {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if len(line) < blockMin {
			words(line, low, word)
			continue
		}
		h := blockKey{maphash.String(blockSeeds[0], line), maphash.String(blockSeeds[1], line)}
		if terms, ok := sh.blocks.m[h]; ok {
			for _, t := range terms {
				c.add(t.id, float64(t.n))
			}
			continue
		}
		if !sh.blocks.seen[h] {
			// Met once: most lines of a page are its own and never
			// come back; only lines met again are kept.
			fresh = append(fresh, newBlock{h: h})
			words(line, low, word)
			continue
		}
		if bc == nil {
			bc = counters.Get().(*counter)
			defer counters.Put(bc)
		}
		before := *misses
		*into = bc
		words(line, low, word)
		*into = c
		b := newBlock{h: h, again: true, terms: make([]idCount, 0, len(bc.touched))}
		for _, id := range bc.touched {
			b.terms = append(b.terms, idCount{id, uint32(bc.n[id])})
			c.add(id, bc.n[id])
			bc.n[id] = 0
		}
		bc.touched = bc.touched[:0]
		if *misses == before {
			fresh = append(fresh, b)
		}
	}
	return fresh
}

// blockMin is the shortest line the block cache looks up: a shorter one
// has a word or two, read as fast as it is hashed.
const blockMin = 24

// blockSeeds hash lines for the block cache: a line is known by its two
// hashes, 128 bits, rather than by its text, which would be read again
// from memory the cache does not keep warm (two lines of the same hashes
// are as unlikely as a flipped bit of RAM).
var blockSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

type blockKey [2]uint64

// blockCache remembers the counts of the lines of texts that come back
// across documents: a site's repeated blocks (menus, sidebars, notices,
// footers, quoted paragraphs), each counted once instead of once per
// page. A line is kept from its second sighting on (its hash is noted at
// the first), so that the lines of one page alone take no room. Its
// counts are by stem id: the cache is its language shard's and is emptied
// with the shard's words. Bounded: emptied when it holds blockCacheMax
// lines or blockCacheTerms stems (and the first sightings when there are
// blockSeenMax).
type blockCache struct {
	m     map[blockKey][]idCount // a line's non-stop-word stems, counted
	seen  map[blockKey]bool      // lines met once
	terms int
}

type idCount struct{ id, n uint32 }

// newBlock is a line met for the first time or again.
type newBlock struct {
	h     blockKey
	again bool
	terms []idCount
}

const (
	blockCacheMax   = 1 << 13
	blockCacheTerms = 1 << 19
	blockSeenMax    = 1 << 16
)

func (bc *blockCache) clear() { bc.m, bc.seen, bc.terms = nil, nil, 0 }

// add notes a line's first sighting or keeps a line met again; the
// caller holds the shard's write lock.
func (bc *blockCache) add(b newBlock) {
	if !b.again {
		if bc.seen == nil || len(bc.seen) >= blockSeenMax {
			bc.seen = map[blockKey]bool{}
		}
		bc.seen[b.h] = true
		return
	}
	if _, ok := bc.m[b.h]; ok {
		return // another scan kept it meanwhile
	}
	if bc.m == nil || len(bc.m) >= blockCacheMax || bc.terms+len(b.terms) > blockCacheTerms {
		bc.m, bc.terms = map[blockKey][]idCount{}, 0
	}
	bc.m[b.h] = b.terms
	bc.terms += len(b.terms)
}
