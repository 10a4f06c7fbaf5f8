package spec

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
)

// Focus makes a crawl focused (docs/crawl-spec.md, "focus"): what the
// archivist asks for, as keywords, entities, example documents and
// languages, from which a topic vector is built; the analysis modules that
// score every link to follow, and their weights; the URL rules and the
// hosts never to crawl. Each link's score, in [0, 1], orders its queue.
type Focus struct {
	Languages []string       `yaml:"languages"` // ISO 639-1 codes of the stemmers and stop words; default [en]
	Keywords  []FocusKeyword `yaml:"keywords,omitempty"`
	Entities  []FocusEntity  `yaml:"entities,omitempty"`
	// Examples are documents on the topic: URLs (fetched by the crawl,
	// which makes them seeds) or files (read when the crawl starts).
	Examples []string `yaml:"examples,omitempty"`
	// Reference is the number of pages of the reference crawl: the first
	// pages crawled, whose most representative terms (TF-IDF) are offered
	// for the archivist to accept into the topic or drop. 0: none.
	Reference int `yaml:"reference,omitempty"`
	// Weights of the analysis modules in the aggregated score: document,
	// paragraph, anchor, entities, url, social, site.
	Weights map[string]float64 `yaml:"weights,omitempty"`
	URLs    []FocusURLRule     `yaml:"urls,omitempty"`
	// Blacklist: hosts (exact, or "*.example.org") and URL regular
	// expressions that are never crawled.
	Blacklist FocusBlacklist `yaml:"blacklist,omitempty"`
	// Batch is the number of pages whose scored links enter the
	// frontier's queues together (the batch prioritisation of ARCOMEM's
	// crawler: links are scored into the frontier only after every Batch
	// pages); default (0): as many pages as the crawl has workers.
	Batch int `yaml:"batch,omitempty"`
	// Threshold is the cosine with the topic above which a page counts as
	// relevant (the harvest ratio's measure); default 0.333.
	Threshold float64 `yaml:"threshold,omitempty"`
}

// FocusKeyword is a word or phrase of the topic; Weight defaults to 1.
type FocusKeyword struct {
	Term   string  `yaml:"term"`
	Weight float64 `yaml:"weight,omitempty"`
}

// FocusEntity is a named entity: its name, other names, and optionally
// the IRI that identifies it (Wikidata, DBpedia …).
type FocusEntity struct {
	Name    string   `yaml:"name"`
	Aliases []string `yaml:"aliases,omitempty"`
	IRI     string   `yaml:"iri,omitempty"`
}

// FocusURLRule gives the URLs matching a regular expression, or under a
// SURT prefix, a score in [0, 1] (the url module's; the first rule
// matching wins).
type FocusURLRule struct {
	Pattern string  `yaml:"pattern,omitempty"`
	SURT    string  `yaml:"surt,omitempty"`
	Score   float64 `yaml:"score"`
}

// FocusBlacklist is what a focused crawl never fetches.
type FocusBlacklist struct {
	Hosts    []string `yaml:"hosts,omitempty"`
	Patterns []string `yaml:"patterns,omitempty"`
}

// FocusLanguages are the languages a focus section may name: ISO 639-1
// codes of the Snowball stemmers and stop-word lists of the analysis
// (package analysis/focus/text, whose test keeps the two lists equal).
var FocusLanguages = []string{"en", "es", "fr", "hu", "no", "ru", "sv"}

// FocusModules are the analysis modules a weight may name.
var FocusModules = []string{"document", "paragraph", "anchor", "entities", "url", "social", "site"}

// DefaultFocusWeights are the weights of a focus section that sets none.
var DefaultFocusWeights = map[string]float64{"document": 0.4, "paragraph": 0.2, "anchor": 0.3, "entities": 0.1}

// FocusThreshold is the default relevance threshold, the cosine the
// harvest ratio counts pages by.
const FocusThreshold = 0.333

// complete fills in the defaults of a parsed focus section: English, and
// the example URLs among the seeds (an example is fetched by the crawl).
func (f *Focus) complete(s *Spec) {
	if len(f.Languages) == 0 {
		f.Languages = []string{"en"}
	}
	for _, x := range f.Examples {
		if (strings.HasPrefix(x, "http://") || strings.HasPrefix(x, "https://")) && !slices.Contains(s.Seeds, x) {
			s.Seeds = append(s.Seeds, x)
		}
	}
}

// checkFocus reports every problem of the focus section, naming its field.
func checkFocus(f *Focus, bad func(string, ...any)) {
	if len(f.Languages) == 0 {
		bad("focus.languages: give at least one language (one of %s)", strings.Join(FocusLanguages, ", "))
	}
	for i, l := range f.Languages {
		if !slices.Contains(FocusLanguages, l) {
			bad("focus.languages[%d]: unknown language %q (want one of %s)", i, l, strings.Join(FocusLanguages, ", "))
		}
	}
	if len(f.Keywords) == 0 && len(f.Entities) == 0 && len(f.Examples) == 0 {
		bad("focus: empty topic: give keywords, entities or examples")
	}
	for i, k := range f.Keywords {
		if strings.TrimSpace(k.Term) == "" {
			bad("focus.keywords[%d].term: empty", i)
		}
		if k.Weight < 0 || math.IsNaN(k.Weight) || math.IsInf(k.Weight, 0) {
			bad("focus.keywords[%d].weight: %v: want a positive number", i, k.Weight)
		}
	}
	for i, e := range f.Entities {
		if strings.TrimSpace(e.Name) == "" {
			bad("focus.entities[%d].name: empty", i)
		}
		if e.IRI != "" && !strings.Contains(e.IRI, ":") {
			bad("focus.entities[%d].iri: %q is not an absolute IRI", i, e.IRI)
		}
	}
	for i, x := range f.Examples {
		if strings.TrimSpace(x) == "" {
			bad("focus.examples[%d]: empty", i)
		}
	}
	if f.Batch < 0 {
		bad("focus.batch: %d: want a number of pages (1: after every page; 0: as many as the crawl's workers)", f.Batch)
	}
	if f.Reference < 0 {
		bad("focus.reference: %d: want a number of pages (0 for none)", f.Reference)
	}
	sum := 0.0
	for m, w := range f.Weights {
		known := false
		for _, k := range FocusModules {
			known = known || k == m
		}
		if !known {
			bad("focus.weights.%s: unknown module (want %s)", m, strings.Join(FocusModules, ", "))
		}
		if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
			bad("focus.weights.%s: %v: weights are non-negative numbers", m, w)
		} else {
			sum += w
		}
	}
	if f.Weights != nil && !(sum > 0) {
		bad("focus.weights: they sum to %v: at least one weight must be positive", sum)
	}
	for i, r := range f.URLs {
		where := fmt.Sprintf("focus.urls[%d]", i)
		if (r.Pattern == "") == (r.SURT == "") {
			bad("%s: give either a pattern (regular expression) or a surt prefix", where)
		}
		if r.Pattern != "" {
			if _, err := regexp.Compile(r.Pattern); err != nil {
				bad("%s.pattern: invalid regular expression: %v", where, err)
			}
		}
		if r.Score < 0 || r.Score > 1 || math.IsNaN(r.Score) {
			bad("%s.score: %v: want a score in [0, 1]", where, r.Score)
		}
	}
	for i, h := range f.Blacklist.Hosts {
		if strings.TrimSpace(h) == "" || strings.ContainsAny(h, "/ ") {
			bad("focus.blacklist.hosts[%d]: %q is not a host name", i, h)
		}
	}
	for i, p := range f.Blacklist.Patterns {
		if _, err := regexp.Compile(p); err != nil {
			bad("focus.blacklist.patterns[%d]: invalid regular expression: %v", i, err)
		}
	}
	if f.Threshold < 0 || f.Threshold >= 1 || math.IsNaN(f.Threshold) {
		bad("focus.threshold: %v: want a cosine in [0, 1)", f.Threshold)
	}
}

// FocusWeights returns the section's weights, or the defaults.
func (f *Focus) FocusWeights() map[string]float64 {
	out := map[string]float64{}
	src := f.Weights
	if src == nil {
		src = DefaultFocusWeights
	}
	for m, w := range src {
		out[m] = w
	}
	return out
}

// RelevanceThreshold returns the threshold, or its default.
func (f *Focus) RelevanceThreshold() float64 {
	if f.Threshold == 0 {
		return FocusThreshold
	}
	return f.Threshold
}
