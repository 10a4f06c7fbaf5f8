// Package gencorpus generates a blog archive crawled several times, with
// events planted in it and their ground truth, for measuring the analysis
// layer: which names each text mentions and where, which entities rise,
// which change their name and when, which turn controversial, and which
// posts were edited, kept or deleted between crawls.
//
// The model (a news-and-opinion blog, as a focused crawl collects it):
// a world of persons (first and last name), organisations (one or two
// words and a kind such as "Trading" or "Foundation") and places, each
// with a topic among six (shipping, football, science, food, politics,
// music) whose vocabulary its texts use. Every crawl collects the posts
// published since the previous crawl and the ones still listed from
// before (each kept as it was, edited, or gone), each post with a few
// comments. A post is about one topic: it names one to three entities of
// that topic, drawn by their popularity in that period, in sentences of
// newswire and blog forms (statements, meetings, quotes, opinions), a
// person in full first and by last name after, an organisation in full
// first and by its first word after; filler sentences about the topic,
// dates and weekdays, acronyms and sentence-initial capitals are the
// distractors. Opinions follow each entity's attitude in the period:
// mostly mild, one entity turning controversial (strong praise and strong
// blame both) from a given crawl on. Planted events: one entity whose
// popularity grows threefold per crawl; Renames entities (organisations,
// and a person when Renames > 2) that take a new name at a random crawl,
// after which new texts use the new name (a few also say "X, formerly
// Y"), and older posts still listed keep the old one; and an entity that
// simply fades while an unrelated one of another topic appears (no
// rename). Nothing in the model knows how the analysis works: the forms,
// names and rates are those of the genre, fixed before any measurement.
package gencorpus

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// Config sets the size and seed of a corpus.
type Config struct {
	Seed          uint64
	Crawls        int       // default 4
	PostsPerCrawl int       // new posts per crawl; default 120
	Renames       int       // entities that change name; default 4
	Start         time.Time // the first crawl's start; default 2025-01-06
}

// Corpus is a generated archive with its ground truth.
type Corpus struct {
	Crawls   []Crawl
	Entities []*Entity
	// Renames are the planted name changes.
	Renames []Rename
	// Rising, Controversial, Fading and Appearing are the keys of the
	// entities of the other planted events.
	Rising, Controversial, Fading, Appearing string
	// ControversialFrom is the crawl from which Controversial is.
	ControversialFrom int
}

// Crawl is one crawl of the blog.
type Crawl struct {
	ID    string
	Start time.Time
	Texts []*Text
}

// Text is a post or comment with the names it mentions.
type Text struct {
	IRI, Capture string
	Author       string // the blog author who wrote a post, or a commenter's name
	ReplyTo      string // the post a comment answers
	Content      string
	Mentions     []Mention
	// Version is how the text compares with the previous crawl: new,
	// unchanged or changed ("deleted" texts are absent).
	Version string
}

// Mention is a planted mention: where (characters, end exclusive) and
// which name (Entity.Names key).
type Mention struct {
	Start, End int
	Name       string // the full name the surface stands for
}

// Rename is a planted name change.
type Rename struct {
	Old, New string
	Crawl    int // the first crawl using the new name
}

// Entity is a person, organisation or place of the world.
type Entity struct {
	Name     string // its name before any rename
	Kind     string // person, organization, place
	Topic    int
	NewName  string // after RenamedAt, when renamed
	RenameAt int    // crawl of the rename (0: never)
	weight   []float64
	attitude []float64 // mean opinion per crawl, -1 to 1
	polar    []bool    // controversial in that crawl
}

// name is the entity's name in crawl k.
func (e *Entity) name(k int) string {
	if e.NewName != "" && k >= e.RenameAt {
		return e.NewName
	}
	return e.Name
}

// Generate makes a corpus.
func Generate(c Config) *Corpus {
	if c.Crawls <= 0 {
		c.Crawls = 4
	}
	if c.PostsPerCrawl <= 0 {
		c.PostsPerCrawl = 120
	}
	if c.Renames < 0 {
		c.Renames = 0
	} else if c.Renames == 0 {
		c.Renames = 4
	}
	if c.Start.IsZero() {
		c.Start = time.Date(2025, 1, 6, 9, 0, 0, 0, time.UTC)
	}
	g := &gen{rng: rand.New(rand.NewPCG(c.Seed, 0x9e3779b97f4a7c15)), c: c, used: map[string]bool{}}
	return g.corpus()
}

type gen struct {
	authors []string
	rng     *rand.Rand
	c       Config
	used    map[string]bool // names given
	cor     *Corpus
	n       int // texts made
}

func (g *gen) pick(xs []string) string { return xs[g.rng.IntN(len(xs))] }

// fresh returns a name make makes that no entity has, nor shares its
// distinctive word with another's (a person's last name, an
// organisation's first word), so that a text's short references are
// unambiguous.
func (g *gen) fresh(make func() string, distinctive func([]string) string) string {
	for {
		n := make()
		d := distinctive(strings.Fields(n))
		if !g.used[n] && !g.used["@"+d] {
			g.used[n], g.used["@"+d] = true, true
			return n
		}
	}
}

func last(ws []string) string  { return ws[len(ws)-1] }
func first(ws []string) string { return ws[0] }

func (g *gen) person() string {
	return g.fresh(func() string { return g.pick(firstNames) + " " + g.pick(lastNames) }, last)
}

func (g *gen) org() string {
	return g.fresh(func() string { return g.pick(orgStems) + " " + g.pick(orgKinds) }, first)
}

func (g *gen) place() string { return g.fresh(func() string { return g.pick(places) }, first) }

func (g *gen) corpus() *Corpus {
	k := g.c.Crawls
	cor := &Corpus{}
	g.cor = cor
	for range 5 {
		g.authors = append(g.authors, g.person())
	}
	// The world: per topic 3 persons, 2 organisations, 1 place.
	for t := range topics {
		for range 3 {
			cor.Entities = append(cor.Entities, &Entity{Name: g.person(), Kind: "person", Topic: t})
		}
		for range 2 {
			cor.Entities = append(cor.Entities, &Entity{Name: g.org(), Kind: "organization", Topic: t})
		}
		cor.Entities = append(cor.Entities, &Entity{Name: g.place(), Kind: "place", Topic: t})
	}
	for _, e := range cor.Entities {
		e.weight = make([]float64, k)
		e.attitude = make([]float64, k)
		e.polar = make([]bool, k)
		base := 0.5 + g.rng.Float64()
		att := g.rng.Float64()*0.8 - 0.3
		for i := range k {
			e.weight[i] = base
			e.attitude[i] = att
		}
	}
	// Planted events, each on a different entity.
	perm := g.rng.Perm(len(cor.Entities))
	take := func(kind string) *Entity {
		for i, p := range perm {
			if p < 0 {
				continue
			}
			if e := cor.Entities[p]; kind == "" || e.Kind == kind {
				perm[i] = -1
				return e
			}
		}
		return nil
	}
	for i := range g.c.Renames {
		kind := "organization"
		if i == 2 {
			kind = "person"
		}
		e := take(kind)
		if e == nil {
			break
		}
		e.RenameAt = 1 + g.rng.IntN(max(k-1, 1))
		if kind == "person" { // a married name: same first name
			given := strings.Fields(e.Name)[0]
			e.NewName = g.fresh(func() string { return given + " " + g.pick(lastNames) }, last)
		} else {
			e.NewName = g.org()
		}
		cor.Renames = append(cor.Renames, Rename{Old: e.Name, New: e.NewName, Crawl: e.RenameAt})
	}
	rising := take("")
	for i := range k {
		rising.weight[i] = 0.3 * pow(3, i)
	}
	cor.Rising = rising.Name
	contro := take("")
	from := 1 + g.rng.IntN(max(k-1, 1))
	for i := from; i < k; i++ {
		contro.polar[i] = true
	}
	cor.Controversial, cor.ControversialFrom = contro.Name, from
	fading := take("")
	var appearing *Entity
	for i, p := range perm { // of another topic than the fading one
		if p >= 0 && cor.Entities[p].Topic != fading.Topic {
			appearing, perm[i] = cor.Entities[p], -1
			break
		}
	}
	mid := 1 + g.rng.IntN(max(k-1, 1))
	for i := range k {
		if i >= mid {
			fading.weight[i] = 0.02
		} else {
			appearing.weight[i] = 0
		}
	}
	cor.Fading, cor.Appearing = fading.Name, appearing.Name

	var listed []*Text // posts of the previous crawl
	for i := range k {
		cr := Crawl{ID: fmt.Sprintf("gen-%d-%d", g.c.Seed, i+1), Start: g.c.Start.AddDate(0, 0, 30*i)}
		// Posts still listed from before: kept, edited or gone, their
		// comments with them.
		var texts []*Text
		fate := map[string]string{}
		for _, p := range listed {
			if p.ReplyTo == "" {
				switch x := g.rng.Float64(); {
				case x < 0.5:
					fate[p.IRI] = "unchanged"
					texts = append(texts, g.copyText(p, "unchanged"))
				case x < 0.75:
					fate[p.IRI] = "changed"
					texts = append(texts, g.edit(p))
				}
				continue
			}
			if fate[p.ReplyTo] != "" {
				texts = append(texts, g.copyText(p, "unchanged"))
			}
		}
		for range g.c.PostsPerCrawl {
			texts = append(texts, g.post(i)...)
		}
		for _, t := range texts {
			t.Capture = fmt.Sprintf("urn:uuid:%08x-0000-4000-8000-%012x", g.rng.Uint32(), g.rng.Uint64()&0xffffffffffff)
		}
		// A comment comes from its post's capture.
		capOf := map[string]string{}
		for _, t := range texts {
			if t.ReplyTo == "" {
				capOf[t.IRI] = t.Capture
			}
		}
		for _, t := range texts {
			if t.ReplyTo != "" {
				t.Capture = capOf[t.ReplyTo]
			}
		}
		cr.Texts = texts
		cor.Crawls = append(cor.Crawls, cr)
		listed = texts
	}
	return cor
}

func pow(b float64, n int) float64 {
	x := 1.0
	for range n {
		x *= b
	}
	return x
}

// copyText keeps a post (and its comments stay with it).
func (g *gen) copyText(p *Text, version string) *Text {
	c := *p
	c.Version = version
	c.Mentions = append([]Mention(nil), p.Mentions...)
	return &c
}

// edit changes a post: a sentence added at its end.
func (g *gen) edit(p *Text) *Text {
	c := g.copyText(p, "changed")
	w := &writer{b: strings.Builder{}, n: utf8.RuneCountInString(p.Content)}
	w.b.WriteString(p.Content)
	w.text(" Update: ")
	w.text(g.filler(g.rng.IntN(len(topics))))
	c.Content = w.b.String()
	return c
}

// writer builds a text and its mentions.
type writer struct {
	b        strings.Builder
	n        int // runes written
	mentions []Mention
}

func (w *writer) text(s string) {
	w.b.WriteString(s)
	w.n += utf8.RuneCountInString(s)
}

func (w *writer) name(surface, full string) {
	w.mentions = append(w.mentions, Mention{Start: w.n, End: w.n + utf8.RuneCountInString(surface), Name: full})
	w.text(surface)
}

// choose draws entities of a topic by weight in crawl k.
func (g *gen) choose(k, topic, n int) []*Entity {
	var pool []*Entity
	total := 0.0
	for _, e := range g.cor.Entities {
		if e.Topic == topic && e.weight[k] > 0 {
			pool = append(pool, e)
			total += e.weight[k]
		}
	}
	var out []*Entity
	for range n {
		if total <= 0 {
			break
		}
		x := g.rng.Float64() * total
		for i, e := range pool {
			if x -= e.weight[k]; x <= 0 || i == len(pool)-1 {
				out = append(out, e)
				total -= e.weight[k]
				pool = append(pool[:i:i], pool[i+1:]...)
				break
			}
		}
	}
	return out
}

// post makes a post of crawl k and its comments.
func (g *gen) post(k int) []*Text {
	g.n++
	topic := g.rng.IntN(len(topics))
	// The rising and appearing entities pull posts to their topic.
	ents := g.choose(k, topic, 1+g.rng.IntN(3))
	w := &writer{}
	seen := map[*Entity]bool{}
	ref := func(e *Entity) {
		full := e.name(k)
		switch {
		case !seen[e]:
			seen[e] = true
			if e.NewName != "" && k == e.RenameAt && g.rng.Float64() < 0.3 {
				w.name(full, full)
				w.text(", formerly ")
				w.name(e.Name, e.Name)
				w.text(",")
				return
			}
			w.name(full, full)
		case e.Kind == "person":
			w.name(strings.Fields(full)[1], full)
		case e.Kind == "organization" && g.rng.Float64() < 0.5:
			w.name(strings.Fields(full)[0], full)
		default:
			w.name(full, full)
		}
	}
	sentences := 4 + g.rng.IntN(6)
	for i := range sentences {
		if i > 0 {
			w.text(" ")
		}
		if len(ents) > 0 && g.rng.Float64() < 0.55 {
			e := ents[g.rng.IntN(len(ents))]
			g.entitySentence(w, k, e, ents, ref)
		} else {
			w.text(g.filler(topic))
		}
	}
	// Authors write about their own topics mostly.
	author := g.authors[topic%len(g.authors)]
	if g.rng.Float64() < 0.3 {
		author = g.pick(g.authors)
	}
	p := &Text{IRI: fmt.Sprintf("http://blog.example/%d/post/%d/", g.c.Seed, g.n), Author: author, Content: w.b.String(), Mentions: w.mentions, Version: "new"}
	out := []*Text{p}
	for j := range g.rng.IntN(4) {
		cw := &writer{}
		seen = map[*Entity]bool{}
		w = cw
		for s := range 1 + g.rng.IntN(3) {
			if s > 0 {
				cw.text(" ")
			}
			if len(ents) > 0 && g.rng.Float64() < 0.6 {
				e := ents[g.rng.IntN(len(ents))]
				g.opinion(cw, k, e, ref)
			} else {
				cw.text(g.pick(chatter))
			}
		}
		out = append(out, &Text{IRI: fmt.Sprintf("%s#comment-%d", p.IRI, j+1), ReplyTo: p.IRI, Author: g.pick(commenters), Content: cw.b.String(), Mentions: cw.mentions, Version: "new"})
	}
	return out
}

// entitySentence writes a sentence about e.
func (g *gen) entitySentence(w *writer, k int, e *Entity, ents []*Entity, ref func(*Entity)) {
	t := topics[e.Topic]
	switch x := g.rng.IntN(5); {
	case x == 0 && len(ents) > 1:
		other := ents[g.rng.IntN(len(ents))]
		if other == e {
			other = ents[(indexOf(ents, e)+1)%len(ents)]
		}
		ref(e)
		w.text(" " + g.pick([]string{"met", "spoke with", "signed an agreement with", "disagreed with"}) + " ")
		ref(other)
		w.text(" about the " + g.pick(t.nouns) + ".")
	case x == 1:
		g.opinion(w, k, e, ref)
	case x == 2:
		if g.rng.IntN(3) == 0 {
			w.text("According to ")
			ref(e)
			w.text(", the " + g.pick(t.nouns) + " had " + g.pick(t.verbs) + " the " + g.pick(t.nouns) + ".")
			return
		}
		w.text(g.pick([]string{"In a statement, ", "Speaking on " + g.pick(weekdays) + ", ", "On " + g.pick(weekdays) + ", "}))
		ref(e)
		w.text(" " + g.pick([]string{"said", "explained", "argued", "announced"}) + " that the " + g.pick(t.nouns) + " had " + g.pick(t.verbs) + " the " + g.pick(t.nouns) + ".")
	default:
		ref(e)
		w.text(" " + g.pick(t.verbs) + " the " + g.pick(adjectives) + " " + g.pick(t.nouns) + " " + g.pick([]string{"this week", "in " + g.pick(months), "again", "for the first time", "last " + g.pick(weekdays)}) + ".")
	}
}

func indexOf(es []*Entity, e *Entity) int {
	for i, x := range es {
		if x == e {
			return i
		}
	}
	return 0
}

// opinion writes a sentence judging e, positive or negative as its
// attitude in crawl k draws it.
func (g *gen) opinion(w *writer, k int, e *Entity, ref func(*Entity)) {
	noun := g.pick(topics[e.Topic].nouns)
	var pos bool
	strongly := false
	if e.polar[k] {
		pos, strongly = g.rng.IntN(2) == 0, true
	} else {
		pos = g.rng.Float64() < (1+e.attitude[k])/2
		strongly = g.rng.Float64() < 0.25
	}
	switch {
	case pos && strongly:
		form := g.pick(strongPraise)
		g.fill(w, form, e, noun, ref)
	case pos:
		g.fill(w, g.pick(praise), e, noun, ref)
	case strongly:
		g.fill(w, g.pick(strongBlame), e, noun, ref)
	default:
		g.fill(w, g.pick(blame), e, noun, ref)
	}
}

// fill writes a sentence form, {E} the entity and {N} a noun.
func (g *gen) fill(w *writer, form string, e *Entity, noun string, ref func(*Entity)) {
	for form != "" {
		i := strings.IndexByte(form, '{')
		if i < 0 {
			w.text(form)
			return
		}
		w.text(form[:i])
		switch form[i : i+3] {
		case "{E}":
			ref(e)
		case "{N}":
			w.text(noun)
		}
		form = form[i+3:]
	}
}

// filler is a sentence about a topic naming no entity.
func (g *gen) filler(topic int) string {
	t := topics[topic]
	switch g.rng.IntN(6) {
	case 0:
		return "The " + g.pick(adjectives) + " " + g.pick(t.nouns) + " " + g.pick(t.verbs) + " the " + g.pick(t.nouns) + "."
	case 1:
		return "In " + g.pick(months) + ", the " + g.pick(t.nouns) + " was " + g.pick(adjectives) + " and the " + g.pick(t.nouns) + " " + g.pick([]string{"grew", "changed", "slowed", "held"}) + "."
	case 2:
		return g.pick(weekdays) + " brought " + g.pick(adjectives) + " news about the " + g.pick(t.nouns) + "."
	case 3:
		return "Readers asked about " + g.pick(acronyms) + " and the " + g.pick(t.nouns) + "."
	case 4:
		n := g.pick(t.nouns)
		return strings.ToUpper(n[:1]) + n[1:] + " and " + g.pick(t.nouns) + " remain the " + g.pick(adjectives) + " questions."
	}
	return "Nobody expected that the " + g.pick(t.nouns) + " " + g.pick(t.verbs) + " the " + g.pick(t.nouns) + " so soon."
}

// Names lists every planted name (old and new names of renamed entities
// both), sorted.
func (c *Corpus) Names() []string {
	var out []string
	for _, e := range c.Entities {
		out = append(out, e.Name)
		if e.NewName != "" {
			out = append(out, e.NewName)
		}
	}
	sort.Strings(out)
	return out
}
