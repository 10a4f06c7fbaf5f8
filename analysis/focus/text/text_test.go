package text

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler/spec"
)

func terms(a *Analyzer, s string) []string {
	var out []string
	a.Terms(s, func(t string) { out = append(out, t) })
	return out
}

func TestTermsStemAndDropStopWords(t *testing.T) {
	a, err := New("en")
	if err != nil {
		t.Fatal(err)
	}
	got := terms(a, "The Crawlers were crawling; a crawled page, 2024 and X.")
	want := []string{"crawler", "crawl", "crawl", "page"}
	if !slices.Equal(got, want) {
		t.Errorf("terms = %q, want %q", got, want)
	}
}

func TestLanguageChosenByStopWords(t *testing.T) {
	a, err := New("en", "fr")
	if err != nil {
		t.Fatal(err)
	}
	// French stemming of a French text: "archives" and "archivage" meet.
	fr := terms(a, "Les archives du web et la conservation des pages pour les chercheurs")
	en := terms(a, "The archives of the web and the conservation of pages for the researchers")
	if slices.Equal(fr, en) {
		t.Fatalf("both texts stemmed alike (%q): the language was not detected", fr)
	}
	if !slices.Contains(en, "research") || !slices.Contains(fr, "chercheur") {
		t.Errorf("en %q, fr %q: want English and French stems", en, fr)
	}
}

func TestUnknownLanguage(t *testing.T) {
	_, err := New("en", "xx")
	if err == nil || !strings.Contains(err.Error(), `"xx"`) {
		t.Fatalf("New(en, xx) = %v, want an error naming xx", err)
	}
	if _, err := New(); err == nil {
		t.Fatal("New() with no language: no error")
	}
}

// TestSpecLanguages keeps the crawl spec's list of languages (which the
// crawler checks specs against) equal to the analyzer's.
func TestSpecLanguages(t *testing.T) {
	if !slices.Equal(Languages(), spec.FocusLanguages) {
		t.Errorf("analyzer languages %v, spec.FocusLanguages %v", Languages(), spec.FocusLanguages)
	}
}

func TestCosine(t *testing.T) {
	u := Vector{"a": 1, "b": 1}
	v := Vector{"a": 1}
	if c := Cosine(u, v); math.Abs(c-1/math.Sqrt2) > 1e-12 {
		t.Errorf("cosine = %v, want 1/√2", c)
	}
	if c := Cosine(u, Vector{"c": 3}); c != 0 {
		t.Errorf("disjoint cosine = %v", c)
	}
	if c := Cosine(u, Vector{}); c != 0 {
		t.Errorf("empty cosine = %v", c)
	}
}

func TestTFIDFFavoursDistinctiveTerms(t *testing.T) {
	docs := []Vector{{"web": 3, "archiv": 2}, {"web": 3, "crawl": 2}, {"web": 3, "archiv": 1}}
	top := TFIDF(docs).Top(3)
	// crawl: in one document, 2/5 of it, × ln 3; archiv: in two, 2/5 and 1/4, × ln 1.5.
	if len(top) != 2 || top[0].Term != "crawl" || top[1].Term != "archiv" {
		t.Errorf("top = %v: want crawl, archiv and not web, which every document has", top)
	}
}
