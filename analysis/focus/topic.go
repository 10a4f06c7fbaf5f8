package focus

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mneme-archive/mneme/analysis/focus/text"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/crawler/spec"
)

// Topic is what a focused crawl looks for: a unit term vector, built from
// the spec's keywords, entity names and example documents, and the terms
// the archivist accepted from the reference crawl. It changes while a
// crawl runs (example pages arrive, terms are accepted); readers take a
// snapshot.
type Topic struct {
	an *text.Analyzer

	mu       sync.Mutex
	parts    text.Vector        // unnormalised sum of the parts
	examples map[string]bool    // example URLs not yet seen
	accepted map[string]float64 // reference terms accepted
	// acceptedPart is the accepted terms' unit vector as added to parts.
	acceptedPart text.Vector
	cur          atomic.Pointer[topicSnap]
}

type topicSnap struct {
	vec text.Vector // unit length
	gen int
}

// NewTopic builds the topic of a focus section; example files are read
// relative to dir (the spec's folder). Example URLs join the topic when
// their pages are seen (AddExample).
func NewTopic(f *spec.Focus, dir string) (*Topic, error) {
	an, err := text.New(f.Languages...)
	if err != nil {
		return nil, fmt.Errorf("focus.languages: %w", err)
	}
	t := &Topic{an: an, parts: text.Vector{}, examples: map[string]bool{}, accepted: map[string]float64{}}
	kw := text.Vector{}
	for _, k := range f.Keywords {
		w := k.Weight
		if w == 0 {
			w = 1
		}
		an.Terms(k.Term, func(term string) { kw[term] += w })
	}
	for _, e := range f.Entities {
		for _, name := range append([]string{e.Name}, e.Aliases...) {
			an.Terms(name, func(term string) { kw[term]++ })
		}
	}
	t.parts.Add(kw.Normalized(), 1)
	for i, x := range f.Examples {
		if strings.HasPrefix(x, "http://") || strings.HasPrefix(x, "https://") {
			t.examples[x] = true
			continue
		}
		path := x
		if !filepath.IsAbs(path) && dir != "" {
			path = filepath.Join(dir, path)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("focus.examples[%d]: %w", i, err)
		}
		body := string(data)
		if strings.HasSuffix(path, ".html") || strings.HasSuffix(path, ".htm") || strings.Contains(body[:min(len(body), 512)], "<html") {
			body = extract.ContentText(data)
		}
		t.parts.Add(an.Counts(body).Normalized(), 1)
	}
	if len(t.parts) == 0 && len(t.examples) == 0 {
		return nil, fmt.Errorf("focus: empty topic: its keywords, entities and examples give no term (all stop words?)")
	}
	t.publish()
	return t, nil
}

// publish makes the current parts the topic readers see.
func (t *Topic) publish() {
	gen := 0
	if old := t.cur.Load(); old != nil {
		gen = old.gen + 1
	}
	t.cur.Store(&topicSnap{vec: t.parts.Normalized(), gen: gen})
}

// Generation counts the topic's changes (0 as built).
func (t *Topic) Generation() int { return t.cur.Load().gen }

// Analyzer is the topic's text analyzer.
func (t *Topic) Analyzer() *text.Analyzer { return t.an }

// Vector returns the current topic vector (unit length; do not modify).
func (t *Topic) Vector() text.Vector { return t.cur.Load().vec }

// Terms returns the n heaviest terms of the topic.
func (t *Topic) Terms(n int) []text.Term { return t.Vector().Top(n) }

// IsExample reports whether url is an example URL not yet seen.
func (t *Topic) IsExample(url string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.examples[url]
}

// AddExample adds the term counts of an example page to the topic.
func (t *Topic) AddExample(url string, counts text.Vector) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.examples[url] {
		return
	}
	delete(t.examples, url)
	t.parts.Add(counts.Normalized(), 1)
	t.publish()
}

// Accept adds reference terms, with their weights, to the topic: as one
// part of the same weight as an example document.
func (t *Topic) Accept(terms []text.Term) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, x := range terms {
		t.accepted[x.Term] = x.Weight
	}
	v := text.Vector{}
	for term, w := range t.accepted {
		v[term] = w
	}
	// The accepted part is replaced, not added again: remove the earlier one.
	t.parts = t.rebuildWithout(v)
	t.publish()
}

// rebuildWithout returns parts with the accepted part set to v; the
// accepted part is kept apart in acceptedPart.
func (t *Topic) rebuildWithout(v text.Vector) text.Vector {
	out := text.Vector{}
	for term, w := range t.parts {
		out[term] = w
	}
	if t.acceptedPart != nil {
		out.Add(t.acceptedPart, -1)
	}
	t.acceptedPart = v.Normalized()
	out.Add(t.acceptedPart, 1)
	for term, w := range out {
		if math.Abs(w) < 1e-12 {
			delete(out, term)
		}
	}
	return out
}

// Cosine is the cosine of term counts with the topic.
func (t *Topic) Cosine(counts text.Vector) float64 {
	c, _ := t.CosineTerms(counts, 0)
	return c
}

// CosineTerms is Cosine and the n topic terms that contribute most to it
// (heaviest first, ties by term), in one pass over counts: a page's
// document score and matched terms.
func (t *Topic) CosineTerms(counts text.Vector, n int) (float64, []string) {
	v := t.Vector()
	type tc struct {
		term string
		c    float64
	}
	// The n heaviest contributions so far, heaviest first: a page
	// matches many topic terms, and only n are kept.
	before := func(a, b tc) bool { return a.c > b.c || a.c == b.c && a.term < b.term }
	var top []tc
	dot, norm := 0.0, 0.0
	for term, c := range counts {
		if w := v[term]; w != 0 {
			dot += c * w
			if x := (tc{term, w * c}); n > 0 && w > 0 && (len(top) < n || before(x, top[len(top)-1])) {
				if len(top) < n {
					top = append(top, x)
				}
				i := len(top) - 1
				for ; i > 0 && before(x, top[i-1]); i-- {
					top[i] = top[i-1]
				}
				top[i] = x
			}
		}
		norm += c * c
	}
	var terms []string
	for _, x := range top {
		terms = append(terms, x.term)
	}
	if dot <= 0 {
		return 0, terms
	}
	return min(1, dot/math.Sqrt(norm)), terms
}
