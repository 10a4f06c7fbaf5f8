package focus

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/analysis/focus/text"
	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/spec"
)

func mustURL(t *testing.T, s string) canon.URL {
	t.Helper()
	u, err := canon.New(canon.Options{}).Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func newTestScorer(t *testing.T, f *spec.Focus, u frontier.UpdateFunc) *Scorer {
	t.Helper()
	if f.Languages == nil {
		f.Languages = []string{"en"}
	}
	s, err := New(Options{Focus: f, Update: u})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestScoreModulesAndExplain(t *testing.T) {
	s := newTestScorer(t, &spec.Focus{
		Keywords:  []spec.FocusKeyword{{Term: "web archiving", Weight: 2}, {Term: "crawler"}},
		Entities:  []spec.FocusEntity{{Name: "Internet Archive", Aliases: []string{"Wayback Machine"}, IRI: "http://www.wikidata.org/entity/Q461"}, {Name: "Heritrix"}},
		URLs:      []spec.FocusURLRule{{Pattern: "/news/", Score: 1}},
		Blacklist: spec.FocusBlacklist{Hosts: []string{"*.spam.example"}},
		Weights:   map[string]float64{"document": 1, "anchor": 1, "paragraph": 1, "entities": 1, "url": 1},
	}, frontier.UpdateAvg)
	page := mustURL(t, "http://example.org/a")
	content := "The Wayback Machine is a web archive; its crawler archives pages. Heritrixes are not Heritrix mentions."
	links := []Link{
		{URL: mustURL(t, "http://example.org/news/1"), Hop: extract.Link, Text: "crawlers and web archives", Paragraph: "about archiving"},
		{URL: mustURL(t, "http://example.org/cooking"), Hop: extract.Link, Text: "pasta recipes"},
		{URL: mustURL(t, "http://ads.spam.example/x"), Hop: extract.Link, Text: "web archive"},
		{URL: mustURL(t, "http://example.org/style.css"), Hop: extract.Embed},
	}
	res, scores, err := s.Score(page, content, links)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Analyzed || res.Cosine <= 0 || len(res.Entities) != 2 {
		t.Fatalf("page result %+v: want a cosine and both entities (alias, and Heritrix as a whole word)", res)
	}
	if !math.IsNaN(scores[2]) {
		t.Errorf("blacklisted link scored %v, want NaN (dropped)", scores[2])
	}
	if !(scores[0] > scores[1]) {
		t.Errorf("on-topic link %v not above off-topic %v", scores[0], scores[1])
	}
	for i, s := range scores {
		if i != 2 && (s < 0 || s > 1) {
			t.Errorf("score %d = %v, outside [0, 1]", i, s)
		}
	}
	e, ok, err := s.Explain(links[0].URL.Canonical)
	if err != nil || !ok {
		t.Fatalf("explain: %v %v", ok, err)
	}
	sum := 0.0
	for _, c := range e.Contributions {
		sum += c
	}
	// The site module: the link's folder has no page yet, so it is like
	// the rest of the crawl: 0.5.
	if math.Abs(sum-e.Current) > 1e-12 || math.Abs(e.Score-scores[0]) > 1e-12 || e.Modules["url"] != 1 || e.Modules["entities"] != 1 || math.Abs(e.Modules["site"]-0.5) > 1e-12 {
		t.Errorf("explanation %+v: contributions sum %v", e, sum)
	}
	// An embed: the page's document and entities and its URL rule; no anchor.
	if e, _, _ := s.Explain(links[3].URL.Canonical); len(e.Modules) != 3 || e.Modules["url"] != 0 {
		t.Errorf("embed explanation modules %v, want document, entities, url", e.Modules)
	}
	// A second sighting of links[1] with a better anchor: AVG averages.
	_, again, err := s.Score(page, content, []Link{{URL: links[1].URL, Hop: extract.Link, Text: "web archiving crawler"}})
	if err != nil {
		t.Fatal(err)
	}
	e1, _, _ := s.Explain(links[1].URL.Canonical)
	if e1.Sightings != 2 || math.Abs(e1.Score-(scores[1]+again[0])/2) > 1e-12 {
		t.Errorf("after two sightings: %+v, want the average of %v and %v", e1, scores[1], again[0])
	}
}

func TestSetWeightsRescores(t *testing.T) {
	s := newTestScorer(t, &spec.Focus{Keywords: []spec.FocusKeyword{{Term: "archive"}}}, frontier.UpdateMax)
	page := mustURL(t, "http://example.org/")
	a, b := mustURL(t, "http://example.org/a"), mustURL(t, "http://example.org/b")
	_, _, err := s.Score(page, "archive", []Link{
		{URL: a, Hop: extract.Link, Text: "archive", Paragraph: "nothing here"},
		{URL: b, Hop: extract.Link, Text: "nothing", Paragraph: "archive"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetWeights(map[string]float64{"document": 0, "anchor": 0, "paragraph": 1, "entities": 0}); err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	if err := s.Rescores(1, func(rs []frontier.Rescore) error {
		for _, r := range rs {
			got[r.URL] = r.Score
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got[a.Canonical] != 0 || got[b.Canonical] != 1 {
		t.Errorf("rescored %v: want a 0 (no paragraph match), b 1", got)
	}
	if _, err := s.SetWeights(map[string]float64{"paragraph": 0}); err == nil {
		t.Error("weights summing to 0 accepted")
	}
}

func TestReferenceCrawlProposesTerms(t *testing.T) {
	s := newTestScorer(t, &spec.Focus{Keywords: []spec.FocusKeyword{{Term: "archive"}}, Reference: 3}, frontier.UpdateMax)
	page := mustURL(t, "http://example.org/")
	for _, c := range []string{"archive preservation preservation", "archive crawler", "archive preservation"} {
		if _, _, err := s.Score(page, c, nil); err != nil {
			t.Fatal(err)
		}
	}
	ref, ok := s.Reference()
	// "archive" is in every page: no TF-IDF weight, not proposed.
	if !ok || !ref.Done || len(ref.Proposed) != 2 || ref.Proposed[0].Term != "crawler" || ref.Proposed[1].Term != "preserv" {
		t.Fatalf("reference %+v: want crawler (rarer) then preserv", ref)
	}
	before := s.Topic().Vector()["preserv"]
	if err := s.Decide([]string{"preserv"}, []string{"crawler"}); err != nil {
		t.Fatal(err)
	}
	if after := s.Topic().Vector()["preserv"]; !(after > before) {
		t.Errorf("accepted term's weight %v → %v", before, after)
	}
	if err := s.Decide([]string{"nonsense"}, nil); err == nil {
		t.Error("a term never proposed was accepted")
	}
	if ref, _ := s.Reference(); len(ref.Proposed) != 0 {
		t.Errorf("decided terms still proposed: %v", ref.Proposed)
	}
}

// TestCosineTermsAsDefined checks the one-pass document score against the
// definitions: the cosine of the counts with the unit topic vector, and
// the topic terms ordered by their part of the dot product (ties by term).
func TestCosineTermsAsDefined(t *testing.T) {
	s := newTestScorer(t, &spec.Focus{
		Keywords: []spec.FocusKeyword{{Term: "web archiving", Weight: 2}, {Term: "crawler"}, {Term: "harvest", Weight: 0.5}},
		Weights:  map[string]float64{"document": 1},
	}, frontier.UpdateAvg)
	topic := s.topic.Vector()
	rng := rand.New(rand.NewPCG(1, 2))
	pool := []string{"web", "archiv", "crawler", "harvest", "pasta", "sauc", "owl", "marsh"}
	for range 200 {
		counts := text.Vector{}
		for _, w := range pool {
			if rng.IntN(2) == 0 {
				counts[w] = float64(1 + rng.IntN(4))
			}
		}
		dot, norm := 0.0, 0.0
		var matched []string
		for w, c := range counts {
			dot += c * topic[w]
			norm += c * c
			if topic[w] > 0 {
				matched = append(matched, w)
			}
		}
		want := 0.0
		if dot > 0 {
			want = min(1, dot/math.Sqrt(norm))
		}
		slices.SortFunc(matched, func(a, b string) int {
			if d := cmp.Compare(topic[b]*counts[b], topic[a]*counts[a]); d != 0 {
				return d
			}
			return strings.Compare(a, b)
		})
		got, terms := s.topic.CosineTerms(counts, 2)
		if math.Abs(got-want) > 1e-12 || math.Abs(s.topic.Cosine(counts)-want) > 1e-12 {
			t.Fatalf("counts %v: cosine %v (Cosine %v), want %v", counts, got, s.topic.Cosine(counts), want)
		}
		if !slices.Equal(terms, matched[:min(2, len(matched))]) {
			t.Fatalf("counts %v: terms %v, want %v", counts, terms, matched[:min(2, len(matched))])
		}
	}
}
