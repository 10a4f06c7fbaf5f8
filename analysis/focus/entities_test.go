package focus

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/analysis/focus/text"
	"github.com/mneme-archive/mneme/crawler/spec"
)

// TestEntitiesEveryName: every entity one of whose names occurs as a
// whole word, in any case, is found, whatever comes before or after it
// in the text.
func TestEntitiesEveryName(t *testing.T) {
	an, err := text.New("en", "fr")
	if err != nil {
		t.Fatal(err)
	}
	m, err := newEntityMatcher([]spec.FocusEntity{
		{Name: "Internet Archive", Aliases: []string{"Wayback Machine", "IA"}}, // 0
		{Name: "Heritrix"},                     // 1
		{Name: "Archive"},                      // 2: inside the name of 0
		{Name: "Ina", Aliases: []string{"ia"}}, // 3: shares an alias with 0
	}, an)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		want []int
	}{
		{"we use heritrix to crawl for the internet archive today", []int{0, 1, 2}},
		{"the internet archive crawls with heritrix", []int{0, 1, 2}},
		{"heritrixes are not heritrix-like, heritrix is", []int{1}},
		{"two wayback machines", nil},
		{"the wayback machine", []int{0}},
		{"ia: a shared alias", []int{0, 3}},
		{"media and trivia", nil},
		{"The Internet Archive crawls with HERITRIX", []int{0, 1, 2}},
		{"archive, then internet archive", []int{0, 2}},
	} {
		got := m.match(c.text)
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: entities %v, want %v", c.text, got, c.want)
		}
		if len(got) > 0 && !m.mayMention(an.Counts(c.text)) {
			t.Errorf("%q: mentions %v, but mayMention says none", c.text, got)
		}
	}
}

// TestEntitiesPrefilter: a text that mentions an entity always passes
// mayMention (which spares the search in texts that cannot), whatever the
// case, the words around the name and the characters between them; and
// texts without the names' first words are spared the search.
func TestEntitiesPrefilter(t *testing.T) {
	an, err := text.New("en", "fr")
	if err != nil {
		t.Fatal(err)
	}
	names := []spec.FocusEntity{
		{Name: "Internet Archive", Aliases: []string{"Wayback Machine"}},
		{Name: "Heritrix"},
		{Name: "Crawling Archives"}, // the first word's stem is not the word
		{Name: "Archives nationales"},
	}
	m, err := newEntityMatcher(names, an)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 9))
	vocab := []string{"internet", "archive", "wayback", "machine", "heritrix", "crawling", "archives", "nationales",
		"the", "a", "crawl", "web", "page", "internets", "Archive", "HERITRIX", "x", "2024", "été"}
	seps := []string{" ", "  ", ", ", ". ", "\n", "-", "'", "(", ")", "é", "\u00a0", "1"}
	mentioned, spared := 0, 0
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			if r.IntN(4) == 0 {
				e := names[r.IntN(len(names))]
				name := append([]string{e.Name}, e.Aliases...)[r.IntN(1+len(e.Aliases))]
				if r.IntN(2) == 0 {
					name = strings.ToUpper(name)
				}
				b.WriteString(name)
			} else {
				b.WriteString(vocab[r.IntN(len(vocab))])
			}
			b.WriteString(seps[r.IntN(len(seps))])
		}
		s := b.String()
		may := m.mayMention(an.Counts(s))
		if found := m.match(s); len(found) > 0 {
			mentioned++
			if !may {
				t.Fatalf("%q mentions %v, but mayMention says none", s, found)
			}
		} else if !may {
			spared++
		}
	}
	if mentioned == 0 || spared == 0 {
		t.Fatalf("texts mentioning entities %d, texts spared the search %d: both must occur", mentioned, spared)
	}
	// A name whose first word is a stop word is always searched for.
	m2, err := newEntityMatcher([]spec.FocusEntity{{Name: "The Guardian"}}, an)
	if err != nil {
		t.Fatal(err)
	}
	if !m2.mayMention(an.Counts("nothing here")) {
		t.Error("a name led by a stop word must always be searched for")
	}
}
