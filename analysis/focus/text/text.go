// Package text turns text into term vectors for focused crawling: words
// are split on Unicode letter and digit runs, lower-cased, stop words of
// the chosen languages dropped and the rest stemmed with the Snowball
// stemmers (github.com/kljensen/snowball, whose stop-word lists are used
// too), so that "Crawling" and "crawled" count as one term. Vectors are
// sparse term → weight maps; Cosine compares them.
package text

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
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
	cache stemCache
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
	a.cache.shards = make([]stemShard, len(codes))
	return a, nil
}

// Languages returns the analyzer's language codes.
func (a *Analyzer) Languages() []string { return slices.Clone(a.codes) }

// words splits s into lower-cased words of at least two letters or digits;
// pure numbers are left out (they say little about a topic).
func words(s string, fn func(string)) {
	start, letters := -1, false
	var buf strings.Builder
	flush := func(end int) {
		if start >= 0 && letters && end-start >= 2 {
			w := s[start:end]
			if isLowerASCII(w) {
				fn(w)
			} else {
				buf.Reset()
				for _, r := range w {
					buf.WriteRune(unicode.ToLower(r))
				}
				fn(buf.String())
			}
		}
		start, letters = -1, false
	}
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'), r >= utf8.RuneSelf && unicode.IsLetter(r):
			if start < 0 {
				start = i
			}
			letters = true
		case r >= '0' && r <= '9':
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
		i += n
	}
	flush(len(s))
}

func isLowerASCII(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= utf8.RuneSelf || c >= 'A' && c <= 'Z' {
			return false
		}
	}
	return true
}

// Terms calls fn with each term of s in order: stop words dropped, the
// others stemmed.
func (a *Analyzer) Terms(s string, fn func(term string)) {
	lang := a.detect(s)
	words(s, func(w string) {
		for _, l := range a.langs {
			if l.stop(w) {
				return
			}
		}
		fn(a.cache.stem(lang, a.langs[lang], w))
	})
}

// detect picks the language whose stop words are most frequent in the
// first words of s.
func (a *Analyzer) detect(s string) int {
	if len(a.langs) == 1 {
		return 0
	}
	hits := make([]int, len(a.langs))
	n := 0
	words(s[:min(len(s), 4096)], func(w string) {
		n++
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
func (a *Analyzer) Counts(s string) Vector {
	v := Vector{}
	a.Terms(s, func(t string) { v[t]++ })
	return v
}

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

// stemCache remembers stems per language: a bounded map per language,
// emptied when full (a crawl's vocabulary is mostly a few thousand
// frequent words, which come back at once). Reads take no lock, as the
// workers stem concurrently.
type stemCache struct{ shards []stemShard }

type stemShard struct {
	m sync.Map // word → stem
	n atomic.Int64
}

const stemCacheMax = 1 << 16

func (c *stemCache) stem(i int, l language, w string) string {
	sh := &c.shards[i]
	if s, ok := sh.m.Load(w); ok {
		return s.(string)
	}
	s := l.stem(w, true)
	if sh.n.Add(1) > stemCacheMax {
		sh.m.Clear()
		sh.n.Store(0)
	}
	sh.m.Store(strings.Clone(w), s)
	return s
}
