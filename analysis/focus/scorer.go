package focus

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mneme-archive/mneme/analysis/focus/text"
	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/spec"
)

// Options configure a Scorer.
type Options struct {
	Focus *spec.Focus
	// Dir is where relative example files are read from.
	Dir string
	// Store is the folder of the links' explanations; "" keeps them in
	// memory (the simulator, tests).
	Store  string
	Update frontier.UpdateFunc // the crawl's, which the explanations mirror
	Shares Shares              // the social module's source; nil: no module
	Canon  *canon.Canonicalizer
	// Now is the time of social shares' ages (default time.Now).
	Now func() time.Time
}

// Scorer scores the links of pages against a topic. It is safe for
// concurrent use.
type Scorer struct {
	topic     *Topic
	entities  *entityMatcher
	rules     []urlRule
	black     *blacklist
	shares    Shares
	update    frontier.UpdateFunc
	threshold float64
	now       func() time.Time
	weights   atomic.Pointer[Weights]
	expl      *explainStore
	ref       *reference
	harvest   harvest
	linkCos   scoreCache
	site      siteModel
	// cost is the time spent per module (ns), the text analysis apart,
	// in the timed pages (one in costSample).
	cost  [numModules + 1]atomic.Int64
	pages atomic.Int64
	timed atomic.Int64
	urls  scoreCache // the URL rules' scores of recent URLs
}

// costText indexes the text analysis (tokenising, stemming) in cost.
const costText = numModules

// New returns the Scorer of a focus section.
func New(o Options) (*Scorer, error) {
	f := o.Focus
	if f == nil {
		return nil, errors.New("focus: no focus section")
	}
	if o.Canon == nil {
		o.Canon = canon.New(canon.Options{})
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	w, err := weightsOf(f.FocusWeights())
	if err != nil {
		return nil, fmt.Errorf("focus.%w", err)
	}
	t, err := NewTopic(f, o.Dir)
	if err != nil {
		return nil, err
	}
	s := &Scorer{topic: t, shares: o.Shares, update: o.Update, threshold: f.RelevanceThreshold(), now: o.Now}
	s.weights.Store(&w)
	if s.entities, err = newEntityMatcher(f.Entities, s.topic.an); err != nil {
		return nil, err
	}
	if s.rules, err = compileURLRules(f.URLs, o.Canon); err != nil {
		return nil, err
	}
	if s.black, err = newBlacklist(f.Blacklist); err != nil {
		return nil, err
	}
	if f.Reference > 0 {
		s.ref = &reference{want: f.Reference, pages: f.Reference}
	}
	if s.expl, err = openExplain(o.Store, o.Update); err != nil {
		return nil, fmt.Errorf("focus: explanations: %w", err)
	}
	return s, nil
}

// Close closes the explanation store.
func (s *Scorer) Close() error { return s.expl.close() }

// Topic is the scorer's topic.
func (s *Scorer) Topic() *Topic { return s.topic }

// Weights returns the current weights.
func (s *Scorer) Weights() Weights { return *s.weights.Load() }

// Link is a link of a page to score.
type Link struct {
	URL       canon.URL
	Hop       extract.Hop
	Text      string // anchor text
	Paragraph string // text of the block around the link
}

// PageResult is what the analysis found in a page.
type PageResult struct {
	Cosine    float64 // with the topic
	Relevance float64 // aggregate of the document-level modules
	Relevant  bool    // Cosine > threshold
	Terms     []string
	Entities  []spec.FocusEntity
	Analyzed  bool // the page had text to analyse
}

// scoreURL is scoreURL of the spec's rules, remembered for recent URLs.
func (s *Scorer) scoreURL(u canon.URL) float64 {
	if len(s.rules) == 0 {
		return math.NaN()
	}
	if x, ok := s.urls.get(0, u.Href); ok {
		return x
	}
	x := scoreURL(s.rules, u)
	s.urls.put(0, u.Href, x)
	return x
}

// Blocked reports whether the blacklist forbids u.
func (s *Scorer) Blocked(u canon.URL) bool { return s.black.blocks(u) }

// Score analyses a page (its URL, its content text) and scores its links:
// the result has one score per link, NaN for a blacklisted link (to drop).
// The scores and their module values are recorded for Explain.
func (s *Scorer) Score(page canon.URL, content string, links []Link) (PageResult, []float64, error) {
	w := s.Weights()
	var res PageResult
	// One page in costSample has its modules timed: reading the clock
	// around every module of every link costs more than the cheap ones.
	timed := s.pages.Add(1)%costSample == 1
	if timed {
		s.timed.Add(1)
	}
	var t0 time.Time
	start := func() {
		if timed {
			t0 = time.Now()
		}
	}
	lap := func(mod int) { // the time since start or the last lap is mod's
		if timed {
			t := time.Now()
			s.cost[mod].Add(int64(t.Sub(t0)))
			t0 = t
		}
	}
	start()
	counts := s.topic.an.Counts(content)
	lap(costText)
	if s.topic.IsExample(page.Href) || s.topic.IsExample(page.Canonical) {
		s.topic.AddExample(page.Href, counts)
		s.topic.AddExample(page.Canonical, counts)
	}
	doc := noValues()
	if len(counts) > 0 {
		res.Analyzed = true
		start()
		res.Cosine, res.Terms = s.topic.CosineTerms(counts, 10)
		res.Relevant = res.Cosine > s.threshold
		doc[modDocument] = res.Cosine
		lap(modDocument)
		if s.entities != nil {
			var found []int
			if s.entities.mayMention(counts) {
				found = s.entities.match(content)
			}
			for _, e := range found {
				res.Entities = append(res.Entities, s.entities.entities[e])
			}
			doc[modEntities] = min(1, float64(len(found))/float64(min(3, len(s.entities.entities))))
			lap(modEntities)
		}
		s.harvest.add(res.Relevant)
		s.site.add(page, res.Cosine)
		if s.ref != nil {
			s.ref.add(counts)
		}
	}
	own := doc
	own[modURL] = s.scoreURL(page)
	res.Relevance = w.Aggregate(own)

	scores := make([]float64, len(links))
	vals := make([]Values, 0, len(links))
	urls := make([]string, 0, len(links))
	kept := make([]float64, 0, len(links))
	var scratch text.Vector // one link text's counts, reused
	gen := s.topic.Generation()
	cos := func(txt string) float64 {
		if txt == "" {
			return math.NaN()
		}
		c, ok := s.linkCos.get(gen, txt)
		if !ok {
			if scratch == nil {
				scratch = text.Vector{}
			}
			clear(scratch)
			s.topic.an.AddCounts(txt, scratch)
			c = s.topic.Cosine(scratch)
			s.linkCos.put(gen, txt, c)
		}
		return c
	}
	for i, l := range links {
		start()
		if s.black.blocks(l.URL) {
			scores[i] = math.NaN()
			continue
		}
		v := noValues()
		v[modDocument], v[modEntities] = doc[modDocument], doc[modEntities]
		if l.Hop == extract.Link {
			v[modParagraph] = cos(l.Paragraph)
			lap(modParagraph)
			v[modAnchor] = cos(l.Text)
			lap(modAnchor)
			v[modSite] = s.site.score(l.URL)
			lap(modSite)
		}
		v[modURL] = s.scoreURL(l.URL)
		lap(modURL)
		if s.shares != nil {
			if n, last, err := s.shares.Shares(l.URL.Canonical); err == nil {
				v[modSocial] = socialScore(n, s.now().Sub(last))
			}
			lap(modSocial)
		}
		scores[i] = w.Aggregate(v)
		urls = append(urls, l.URL.Canonical)
		vals = append(vals, v)
		kept = append(kept, scores[i])
	}
	if err := s.expl.add(urls, vals, kept); err != nil {
		return res, scores, err
	}
	return res, scores, nil
}

// costSample is how many pages there are per timed page.
const costSample = 8

// Explanation says why a URL has its score.
type Explanation struct {
	URL       string             `json:"url"`
	Sightings int                `json:"sightings"` // links to it analysed
	Score     float64            `json:"score"`     // as the frontier combined it
	Current   float64            `json:"current"`   // with today's weights
	Modules   map[string]float64 `json:"modules"`   // each module's value; absent: none
	// Contributions are wₘ·vₘ / Σ wₘ: they sum to Current.
	Contributions map[string]float64 `json:"contributions"`
	Weights       map[string]float64 `json:"weights"`
	Update        string             `json:"update"`
}

// Explain returns why url (canonical) has its score; ok is false when no
// link to it was analysed.
func (s *Scorer) Explain(url string) (Explanation, bool, error) {
	r, ok, err := s.expl.lookup(url)
	if err != nil || !ok {
		return Explanation{}, false, err
	}
	w := s.Weights()
	e := Explanation{URL: url, Sightings: int(r.n), Score: r.score, Current: w.Aggregate(r.values),
		Modules: map[string]float64{}, Contributions: map[string]float64{}, Weights: w.Map(), Update: s.update.String()}
	den := 0.0
	for i, v := range r.values {
		if !math.IsNaN(v) && w[i] > 0 {
			den += w[i]
		}
	}
	for i, v := range r.values {
		if math.IsNaN(v) {
			continue
		}
		m := spec.FocusModules[i]
		e.Modules[m] = v
		if w[i] > 0 && den > 0 {
			e.Contributions[m] = w[i] * v / den
		}
	}
	return e, true, nil
}

// SetWeights replaces the weights (by module name; modules left out keep
// theirs) and returns the rescored links, for the frontier
// (frontier.UpdatePriority replaces the scores of the queued ones).
func (s *Scorer) SetWeights(m map[string]float64) (Weights, error) {
	w := s.Weights()
	merged := w.Map()
	for k, v := range m {
		if moduleIndex(k) < 0 {
			return w, fmt.Errorf("weights.%s: unknown module (want %s)", k, strings.Join(spec.FocusModules, ", "))
		}
		merged[k] = v
	}
	nw, err := weightsOf(merged)
	if err != nil {
		return w, err
	}
	s.weights.Store(&nw)
	return nw, nil
}

// Rescores returns, in batches of at most n, every recorded link's score
// under the current weights, for the frontier.
func (s *Scorer) Rescores(n int, fn func([]frontier.Rescore) error) error {
	w := s.Weights()
	var batch []frontier.Rescore
	err := s.expl.each(func(url string, r record) error {
		batch = append(batch, frontier.Rescore{URL: url, Score: w.Aggregate(r.values), Update: frontier.UpdateLast})
		if len(batch) == n {
			err := fn(batch)
			batch = batch[:0]
			return err
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = fn(batch)
	}
	return err
}

// Cost is the time the analysis took per page, per module (measured in
// one page of every costSample).
type Cost struct {
	Pages   int64            `json:"pages"`
	PerPage map[string]int64 `json:"per-page-ns"` // modules and "text" (tokenising, stemming)
}

// Costs returns the time spent per page by each module.
func (s *Scorer) Costs() Cost {
	c := Cost{Pages: s.pages.Load(), PerPage: map[string]int64{}}
	n := max(s.timed.Load(), 1)
	for i, m := range spec.FocusModules {
		c.PerPage[m] = s.cost[i].Load() / n
	}
	c.PerPage["text"] = s.cost[costText].Load() / n
	return c
}

// harvest follows the share of relevant pages over time: the ratio after
// every step pages, at most harvestPoints points (the step doubles, and
// every other point goes, when they fill).
type harvest struct {
	mu       sync.Mutex
	pages    int64
	relevant int64
	step     int64
	series   []float64
}

const harvestPoints = 120

func (h *harvest) add(relevant bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.step == 0 {
		h.step = 10
	}
	h.pages++
	if relevant {
		h.relevant++
	}
	if h.pages%h.step == 0 {
		h.series = append(h.series, float64(h.relevant)/float64(h.pages))
		if len(h.series) == harvestPoints {
			for i := range harvestPoints / 2 {
				h.series[i] = h.series[2*i+1]
			}
			h.series = h.series[:harvestPoints/2]
			h.step *= 2
		}
	}
}

// Harvest is the harvest ratio so far and over time.
type Harvest struct {
	Pages    int64     `json:"pages"`    // pages analysed
	Relevant int64     `json:"relevant"` // with a cosine above the threshold
	Ratio    float64   `json:"ratio"`
	Step     int64     `json:"step"`   // pages between points of Series
	Series   []float64 `json:"series"` // the ratio after Step, 2·Step … pages
}

// Harvest returns the harvest ratio.
func (s *Scorer) Harvest() Harvest {
	h := &s.harvest
	h.mu.Lock()
	defer h.mu.Unlock()
	out := Harvest{Pages: h.pages, Relevant: h.relevant, Step: max(h.step, 10), Series: append([]float64(nil), h.series...)}
	if h.pages > 0 {
		out.Ratio = float64(h.relevant) / float64(h.pages)
	}
	return out
}

// Update is the update function the explanations mirror.
func (s *Scorer) Update() frontier.UpdateFunc { return s.update }

// Threshold is the cosine above which a page is relevant.
func (s *Scorer) Threshold() float64 { return s.threshold }

// reference collects the term counts of the reference crawl's pages.
type reference struct {
	mu       sync.Mutex
	pages    int // the spec's
	want     int // pages still wanted; -1 when done
	docs     []text.Vector
	proposed []text.Term
	decided  map[string]bool
}

func (r *reference) add(counts text.Vector) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.docs) >= r.want {
		return
	}
	r.docs = append(r.docs, counts)
	if len(r.docs) == r.want {
		r.proposed = text.TFIDF(r.docs).Top(referenceTerms)
		r.docs = nil // done: the counts are no longer needed
		r.want = -1
	}
}

// referenceTerms is how many terms the reference crawl proposes.
const referenceTerms = 30

// Reference is the state of the reference crawl.
type Reference struct {
	Pages    int         `json:"pages"`    // pages it takes
	Done     bool        `json:"done"`     // its pages were analysed
	Proposed []text.Term `json:"proposed"` // terms not yet accepted or dropped
}

// Reference returns the reference crawl's state; ok is false when the
// spec asks for none.
func (s *Scorer) Reference() (Reference, bool) {
	r := s.ref
	if r == nil {
		return Reference{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := Reference{Pages: r.pages, Done: r.want < 0}
	for _, t := range r.proposed {
		if !r.decided[t.Term] {
			out.Proposed = append(out.Proposed, t)
		}
	}
	return out, true
}

// Decide accepts terms of the reference crawl into the topic and drops
// others; terms not proposed are an error naming them.
func (s *Scorer) Decide(accept, drop []string) error {
	r := s.ref
	if r == nil {
		return errors.New("focus.reference: this crawl has no reference crawl")
	}
	r.mu.Lock()
	byTerm := map[string]text.Term{}
	for _, t := range r.proposed {
		byTerm[t.Term] = t
	}
	var unknown []string
	for _, t := range append(append([]string(nil), accept...), drop...) {
		if _, ok := byTerm[t]; !ok {
			unknown = append(unknown, t)
		}
	}
	if len(unknown) > 0 {
		r.mu.Unlock()
		return fmt.Errorf("terms not proposed by the reference crawl: %s", strings.Join(unknown, ", "))
	}
	if r.decided == nil {
		r.decided = map[string]bool{}
	}
	var acc []text.Term
	for _, t := range accept {
		r.decided[t] = true
		acc = append(acc, byTerm[t])
	}
	for _, t := range drop {
		r.decided[t] = true
	}
	r.mu.Unlock()
	if len(acc) > 0 {
		s.topic.Accept(acc)
	}
	return nil
}

// scoreCache remembers scores of strings across pages: the cosine of
// link texts (anchors, paragraphs) with the topic, as menus, lists of
// related pages and their titles come back on many pages of a site, and
// the URL rules' score of link targets, which come back as often. It
// holds the scores of one generation (of the topic; the URL rules have
// one) and at most cosCacheMax strings (emptied when full), each known by
// a 128-bit hash (its first half maps to its second and the score): no
// copy of the string kept, none read again to compare.
type scoreCache struct {
	mu  sync.RWMutex
	gen int
	m   map[uint64]hashedScore
}

type hashedScore struct {
	h2 uint64
	x  float64
}

const cosCacheMax = 1 << 14

func (c *scoreCache) get(gen int, txt string) (float64, bool) {
	h1, h2 := key128(txt)
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.gen != gen {
		return 0, false
	}
	e, ok := c.m[h1]
	return e.x, ok && e.h2 == h2
}

func (c *scoreCache) put(gen int, txt string, x float64) {
	h1, h2 := key128(txt)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || c.gen != gen || len(c.m) >= cosCacheMax {
		c.m, c.gen = map[uint64]hashedScore{}, gen
	}
	c.m[h1] = hashedScore{h2, x}
}
