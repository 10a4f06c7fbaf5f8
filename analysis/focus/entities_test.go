package focus

import (
	"slices"
	"testing"

	"github.com/mneme-archive/mneme/crawler/spec"
)

// TestEntitiesEveryName: every entity one of whose names occurs as a
// whole word, in any case, is found, whatever comes before or after it
// in the text.
func TestEntitiesEveryName(t *testing.T) {
	m, err := newEntityMatcher([]spec.FocusEntity{
		{Name: "Internet Archive", Aliases: []string{"Wayback Machine", "IA"}}, // 0
		{Name: "Heritrix"},                     // 1
		{Name: "Archive"},                      // 2: inside the name of 0
		{Name: "Ina", Aliases: []string{"ia"}}, // 3: shares an alias with 0
	})
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
	}
}
