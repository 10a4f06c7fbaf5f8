package focus

import (
	"fmt"
	"math"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/coregx/ahocorasick"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/spec"
)

// Module indices, in the order of spec.FocusModules.
const (
	modDocument = iota
	modParagraph
	modAnchor
	modEntities
	modURL
	modSocial
	modSite
	numModules
)

// Values are a link's module values; NaN where a module gave none.
type Values [numModules]float64

func noValues() Values {
	var v Values
	for i := range v {
		v[i] = math.NaN()
	}
	return v
}

// Weights are the modules' weights.
type Weights [numModules]float64

// weightsOf reads a spec's weights map.
func weightsOf(m map[string]float64) (Weights, error) {
	var w Weights
	sum := 0.0
	for name, x := range m {
		i := moduleIndex(name)
		if i < 0 {
			return w, fmt.Errorf("weights.%s: unknown module (want %s)", name, strings.Join(spec.FocusModules, ", "))
		}
		if x < 0 || math.IsNaN(x) || math.IsInf(x, 0) {
			return w, fmt.Errorf("weights.%s: %v: weights are non-negative numbers", name, x)
		}
		w[i] = x
		sum += x
	}
	if !(sum > 0) {
		return w, fmt.Errorf("weights: they sum to %v: at least one weight must be positive", sum)
	}
	return w, nil
}

func moduleIndex(name string) int {
	for i, m := range spec.FocusModules {
		if m == name {
			return i
		}
	}
	return -1
}

// Map returns the weights by module name.
func (w Weights) Map() map[string]float64 {
	out := map[string]float64{}
	for i, m := range spec.FocusModules {
		out[m] = w[i]
	}
	return out
}

// Aggregate is Σ wₘ·vₘ / Σ wₘ over the modules with a value, 0 when none
// has one.
func (w Weights) Aggregate(v Values) float64 {
	num, den := 0.0, 0.0
	for i, x := range v {
		if math.IsNaN(x) || w[i] == 0 {
			continue
		}
		num += w[i] * x
		den += w[i]
	}
	if den == 0 {
		return 0
	}
	return num / den
}

// entityMatcher finds mentions of the spec's entities: their names and
// aliases, case-insensitively, as whole words.
type entityMatcher struct {
	ac       *ahocorasick.Automaton
	entityOf []int // pattern → entity
	entities []spec.FocusEntity
}

func newEntityMatcher(es []spec.FocusEntity) (*entityMatcher, error) {
	if len(es) == 0 {
		return nil, nil
	}
	m := &entityMatcher{entities: es}
	var pats []string
	for i, e := range es {
		for _, name := range append([]string{e.Name}, e.Aliases...) {
			if n := strings.ToLower(strings.TrimSpace(name)); n != "" {
				pats = append(pats, n)
				m.entityOf = append(m.entityOf, i)
			}
		}
	}
	ac, err := ahocorasick.NewBuilder().AddStrings(pats).SetMatchKind(ahocorasick.LeftmostLongest).Build()
	if err != nil {
		return nil, fmt.Errorf("focus.entities: %w", err)
	}
	m.ac = ac
	return m, nil
}

// lowerInto returns strings.ToLower(s) in the memory of dst (which it
// overwrites), in one pass when s is ASCII.
func lowerInto(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return append(dst[:0], strings.ToLower(s)...)
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// lowered recycles the lower-cased texts the matcher searches.
var lowered = sync.Pool{New: func() any { return new([]byte) }}

// match returns the entities mentioned in text (any case), each once.
func (m *entityMatcher) match(text string) []int {
	if m == nil {
		return nil
	}
	buf := lowered.Get().(*[]byte)
	defer lowered.Put(buf)
	hay := lowerInto((*buf)[:0], text)
	*buf = hay
	var found []int
	seen := make([]bool, len(m.entities))
	// Every occurrence of every name, in one pass: a longest-match search
	// from each match on would scan the rest of the text per match and
	// pass over a shorter name before a longer one.
	for _, mt := range m.ac.FindAllOverlapping(hay) {
		if e := m.entityOf[mt.PatternID]; !seen[e] && wordEdge(hay, mt.Start, mt.End) {
			seen[e] = true
			found = append(found, e)
		}
	}
	return found
}

// wordEdge reports whether hay[start:end] is not inside a longer word.
func wordEdge(hay []byte, start, end int) bool {
	if start > 0 {
		r, _ := utf8.DecodeLastRune(hay[:start])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	if end < len(hay) {
		r, _ := utf8.DecodeRune(hay[end:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// urlRule is a compiled spec URL rule.
type urlRule struct {
	re    *regexp.Regexp
	surt  string
	score float64
}

func compileURLRules(rs []spec.FocusURLRule, cn *canon.Canonicalizer) ([]urlRule, error) {
	var out []urlRule
	for i, r := range rs {
		u := urlRule{score: r.Score}
		if r.Pattern != "" {
			re, err := regexp.Compile(r.Pattern)
			if err != nil {
				return nil, fmt.Errorf("focus.urls[%d].pattern: %w", i, err)
			}
			u.re = re
		} else {
			p, err := cn.SURTPrefix(r.SURT)
			if err != nil {
				return nil, fmt.Errorf("focus.urls[%d].surt: %w", i, err)
			}
			u.surt = p
		}
		out = append(out, u)
	}
	return out, nil
}

// scoreURL returns the score of the first rule u matches, or 0; NaN when
// there are no rules.
func scoreURL(rules []urlRule, u canon.URL) float64 {
	if len(rules) == 0 {
		return math.NaN()
	}
	var surt string
	for _, r := range rules {
		if r.re != nil {
			if r.re.MatchString(u.Href) {
				return r.score
			}
			continue
		}
		if surt == "" {
			surt = u.ScopeSURT()
		}
		if strings.HasPrefix(surt, r.surt) {
			return r.score
		}
	}
	return 0
}

// blacklist holds the hosts and URL patterns never crawled.
type blacklist struct {
	hosts []string // exact or "*.domain" globs
	pats  []*regexp.Regexp
}

func newBlacklist(b spec.FocusBlacklist) (*blacklist, error) {
	bl := &blacklist{}
	for _, h := range b.Hosts {
		bl.hosts = append(bl.hosts, strings.ToLower(h))
	}
	for i, p := range b.Patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("focus.blacklist.patterns[%d]: %w", i, err)
		}
		bl.pats = append(bl.pats, re)
	}
	return bl, nil
}

// blocks reports whether u is never to be crawled.
func (b *blacklist) blocks(u canon.URL) bool {
	host := strings.ToLower(u.Host)
	for _, h := range b.hosts {
		if h == host {
			return true
		}
		if ok, _ := path.Match(h, host); ok {
			return true
		}
	}
	for _, re := range b.pats {
		if re.MatchString(u.Href) {
			return true
		}
	}
	return false
}

// Shares says how often and when last a URL was shared in the social
// campaign linked to a crawl.
type Shares interface {
	Shares(url string) (count int, last time.Time, err error)
}

// socialHalfLife is how fast a share's weight fades with its age.
const socialHalfLife = 7 * 24 * time.Hour

// socialScore maps a share count and the last share's age to [0, 1]:
// 1 − 2^(−count/2), halved for every socialHalfLife since the last share.
func socialScore(count int, age time.Duration) float64 {
	if count <= 0 {
		return 0
	}
	s := 1 - math.Exp2(-float64(count)/2)
	if age > 0 {
		s *= math.Exp2(-float64(age) / float64(socialHalfLife))
	}
	return s
}
