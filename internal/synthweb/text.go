package synthweb

import (
	"hash/fnv"
	"math/rand/v2"
	"strings"
)

// rng returns a generator seeded from a name, so that every item of a site
// draws its own sequence whatever order the items are built in.
func rng(parts ...string) *rand.Rand {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	s := h.Sum64()
	return rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// The valley's vocabulary: the sites share it, so that their text reads as
// one community's and their links make sense.
var (
	birds = []string{"Kingfisher", "Grey Heron", "Dipper", "Barn Owl", "Red Kite", "Lapwing",
		"Curlew", "Skylark", "Goldcrest", "Nuthatch", "Sand Martin", "Little Egret",
		"Great Crested Grebe", "Tawny Owl", "Green Woodpecker", "Yellowhammer", "Redstart",
		"Pied Flycatcher", "Snipe", "Whinchat"}
	places = []string{"Millbrook Weir", "Fenwick Marsh", "Harrow Ridge", "Ashcombe Wood",
		"Thornley Reservoir", "Saltmead Flats", "Kestrel Bridge", "Oldfield Meadows",
		"Brackenside Quarry", "Lower Fenwick Common"}
	plants = []string{"Marsh Marigold", "Yellow Flag Iris", "Common Reed", "Alder",
		"Bog Myrtle", "Meadowsweet", "Purple Loosestrife", "Hawthorn"}
	adjectives = []string{"early", "quiet", "misty", "bright", "windy", "patient", "late",
		"cold", "golden", "muddy", "still", "unexpected", "noisy", "rare", "familiar", "long"}
	nouns = []string{"morning", "walk", "survey", "count", "nest", "flock", "season",
		"hide", "footpath", "hedge", "bank", "pool", "reedbed", "meadow", "evening", "tide",
		"notebook", "telescope", "migration", "song", "feeder", "track", "puddle", "boardwalk"}
	verbs = []string{"spotted", "heard", "counted", "watched", "photographed", "followed",
		"recorded", "missed", "found", "noticed", "described", "checked"}
	connectives = []string{"After that", "Later", "Meanwhile", "Surprisingly", "As usual",
		"Just before noon", "On the way back", "By the end of the day", "For once", "Again"}
	weather = []string{"a light drizzle", "a hard frost", "low cloud", "a warm westerly",
		"bright sunshine", "fog over the water", "a sharp easterly wind", "steady rain"}
	firstNames = []string{"Margaret", "Tom", "Ines", "Oliver", "Priya", "Hamish", "Chloe",
		"Dev", "Agnes", "Ruth", "Samuel", "Yusuf", "Bridget", "Leon", "Martha", "Ewan",
		"Nadia", "Clive", "Rosa", "Felix", "Joan", "Kwame", "Elsie", "Arthur", "Mei"}
	lastNames = []string{"Holloway", "Achebe", "Duarte", "Pennington", "Rao", "McCrae",
		"Whitlock", "Sandhu", "Fairbairn", "Okafor", "Lindqvist", "Brennan", "Tamura",
		"Ashworth", "Kowalski", "Greer", "Ferreira", "Dunmore", "Ibsen", "Carrow"}
)

// textGen writes realistic-ish English about the valley.
type textGen struct{ r *rand.Rand }

func (g textGen) subject() string {
	switch g.r.IntN(3) {
	case 0:
		return "a " + strings.ToLower(pick(g.r, birds))
	case 1:
		return "two " + strings.ToLower(pick(g.r, birds)) + "s"
	}
	return "the " + strings.ToLower(pick(g.r, plants))
}

// sentence is one sentence, from a handful of shapes.
func (g textGen) sentence() string {
	r := g.r
	switch r.IntN(6) {
	case 0:
		return "We " + pick(r, verbs) + " " + g.subject() + " near " + pick(r, places) + " in " + pick(r, weather) + "."
	case 1:
		return pick(r, connectives) + ", the " + pick(r, adjectives) + " " + pick(r, nouns) + " along " + pick(r, places) + " turned up " + g.subject() + "."
	case 2:
		return "It was a " + pick(r, adjectives) + " " + pick(r, nouns) + ", with " + pick(r, weather) + " and " + g.subject() + " by the " + pick(r, nouns) + "."
	case 3:
		return "Someone had " + pick(r, verbs) + " " + g.subject() + " at " + pick(r, places) + " the day before, so I went back with my " + pick(r, nouns) + "."
	case 4:
		return "The " + pick(r, nouns) + " at " + pick(r, places) + " is " + pick(r, adjectives) + " this time of year, and " + g.subject() + " made the wait worthwhile."
	}
	return "I " + pick(r, verbs) + " " + g.subject() + " twice, once by the " + pick(r, nouns) + " and once from the " + pick(r, nouns) + "."
}

// paragraph is n sentences.
func (g textGen) paragraph(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.sentence())
	}
	return b.String()
}

// title is a headline, e.g. "Misty morning at Fenwick Marsh".
func (g textGen) title() string {
	r := g.r
	switch r.IntN(4) {
	case 0:
		return capitalize(pick(r, adjectives)) + " " + pick(r, nouns) + " at " + pick(r, places)
	case 1:
		return pick(r, birds) + " " + pick(r, []string{"back at", "seen at", "nesting near", "returns to"}) + " " + pick(r, places)
	case 2:
		return "Notes from a " + pick(r, adjectives) + " " + pick(r, nouns)
	}
	return "Counting the " + strings.ToLower(pick(r, birds)) + "s of " + pick(r, places)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// slug is a URL path segment for a title, as WordPress makes them.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(s) {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			b.WriteRune(c)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// person is an author or member of one of the sites.
type person struct {
	Name string
	Slug string
}

// people draws n distinct people.
func people(r *rand.Rand, n int) []person {
	seen := map[string]bool{}
	var out []person
	for len(out) < n {
		name := pick(r, firstNames) + " " + pick(r, lastNames)
		if seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, person{Name: name, Slug: slug(name)})
	}
	return out
}
