package adapt

import (
	"container/list"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/aah"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// Session adapts the knowledge base during one crawl, page by page: the
// crawler's application-aware helper hands it each page of a known
// application (ObserveResult, Observe). A site's learned patterns are
// used from its first page. On the first page of a level where the KB's
// actions fail (or, in a recrawl, miss content the earlier crawl stored),
// the session fetches more pages of that level through the crawl — pages the earlier crawl stored
// objects of that kind from, and links the navigation led to that level
// — so as to have twice MinPages to learn from at once (on later failing
// pages while it has fewer); it relearns
// from the stored content (Relearn), relaxes what still fails (Relax,
// RelaxNavigation), adds what it learned to the learned file, and
// analyzes the page again with it. Without a fetch function, failing
// pages are gathered as the crawl brings them, and those seen before the
// learning keep what the KB extracted from them. Learning holds the session's
// lock: other pages wait for it. It keeps the state of the maxSites sites
// seen last, so that a crawl of many sites does not hold pages of each in
// RAM. It is safe for concurrent use.
type Session struct {
	// KB is the knowledge base the crawl detects with; its types of the
	// same category guide relaxation.
	KB *kb.KB
	// Learned is the learned file, nil to keep proposals in memory.
	Learned *Learned
	// Known is what the earlier crawl stored, by page URL (see Known);
	// nil in a cold start.
	Known map[string][]kb.Object
	// Log receives a line per adaptation; default discarded.
	Log io.Writer
	Options

	mu    sync.Mutex
	sites map[string]*siteState
	lru   *list.List // of hosts, most recently seen first
	// kept are the proposals of the sites whose state was dropped, when
	// there is no learned file to find them in.
	kept map[string][]Proposal
}

// maxSites bounds the sites whose state a session keeps (pages of each
// level among them): the most recently seen. A site seen again after its
// state was dropped starts gathering pages anew, with what it learned.
const maxSites = 1024

type siteState struct {
	elem    *list.Element       // of Session.lru
	types   map[string]*kb.Type // the site's adapted type, by KB type ID
	learned []Proposal
	pending map[string][]Page   // failing pages, by level
	next    map[string]int      // pending pages before the next attempt
	targets map[string][]string // URLs navigation led to, by level
	sampled map[string]bool     // pages fetched or seen as samples
	levels  levelState
}

// maxSampled bounds the pages a site's session fetches to learn from.
const maxSampled = 256

// maxPending bounds the failing pages a site keeps per level.
const maxPending = 32

// Analysis is a page's analysis with the site's adapted type.
type Analysis struct {
	Links    []kb.Link
	Objects  []kb.Object
	Failures []kb.Failure
	// More are the links of the other pages learnt from, which the KB's
	// navigation had missed there: the crawl should follow them too.
	More []kb.Link
	// Level is the level the page was analyzed at: the helper's, or one
	// whose detection adaptation relaxed for the site (see Observe).
	Level *kb.Level
}

// ObserveResult is the application-aware helper's Observe hook
// (aah.Options.Observe): it observes the page, fetching samples through
// the crawl with r.Fetch, and gives the result the page's analysis with
// the site's adapted type.
func (s *Session) ObserveResult(r *aah.Result) {
	if an, ok := s.Observe(r.Doc, r.Type, r.Level, r.Fetch); ok {
		r.Level, r.Links, r.Objects, r.Failures, r.More = an.Level, an.Links, an.Objects, an.Failures, an.More
	}
}

// Observe analyzes one page of type t, level l (nil when no level
// matched) with the site's adapted type, and adapts when it is time,
// getting sample pages with fetch (nil: none are fetched, and navigation
// is not relaxed). A page no level matches is given the level whose
// detection was relaxed for the site, or kept to relax the detection of
// the level navigation led to it as (see unleveled). It returns the
// page's analysis with the type as adapted, and whether it differs from
// t's own (it does once something was learned for the site).
func (s *Session) Observe(doc *vdoc.Doc, t *kb.Type, l *kb.Level, fetch func(url string) (*vdoc.Doc, error)) (Analysis, bool) {
	site := doc.URL.Host
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.site(site)
	typ := s.typeFor(st, site, t)
	if typ != t {
		if al, _ := typ.LevelOf(doc); al != nil {
			l = t.Level(al.Name) // a level detection learned for the site
		}
	}
	if exp, ok := st.levels.expected[doc.URL.String()]; l == nil || ok && exp != l.Name && t.Level(exp) != nil {
		// No level, or not the one navigation led to the page as: the
		// expected level's detection may need relaxing, and the page is
		// no evidence that the actions of the level it matched fail.
		if nl := s.unleveled(st, site, doc, t); nl != nil {
			l = nl
		} else if l == nil {
			return Analysis{}, false
		} else {
			an := analyze(typ, typ.Level(l.Name), doc)
			st.remember(an.Links)
			return an, typ != t
		}
	} else {
		st.levels.keep(l.Name, doc)
	}
	typ = s.typeFor(st, site, t)
	lv := typ.Level(l.Name)
	an := analyze(typ, lv, doc)
	st.remember(an.Links)
	if !s.troubled(doc, lv, an.Objects, an.Failures) {
		return an, typ != t
	}
	st.pending[l.Name] = append(st.pending[l.Name], Page{Doc: doc, Known: s.Known[doc.URL.String()]})
	if want := 2*s.minPages() - len(st.pending[l.Name]); want > 0 && fetch != nil {
		st.pending[l.Name] = append(st.pending[l.Name], s.samples(st, typ, lv, doc, want, fetch)...)
	}
	if len(st.pending[l.Name]) > maxPending {
		st.pending[l.Name] = st.pending[l.Name][1:]
	}
	if len(st.pending[l.Name]) < max(s.minPages(), st.next[l.Name]) {
		return an, typ != t
	}
	// Try again with twice as many pages if nothing is learned now.
	st.next[l.Name] = 2 * len(st.pending[l.Name])
	props := s.learn(typ, lv, st.pending[l.Name], site, fetch)
	if len(props) == 0 {
		return an, typ != t
	}
	st.learned = append(st.learned, props...)
	if s.Learned != nil {
		if _, err := s.Learned.Add(props...); err != nil {
			fmt.Fprintf(s.log(), "adapt: %s: %v\n", site, err)
		}
	}
	pending := st.pending[l.Name]
	st.pending[l.Name] = nil
	delete(st.types, t.ID)
	typ = s.typeFor(st, site, t)
	lv = typ.Level(l.Name)
	an = analyze(typ, lv, doc)
	for _, p := range pending {
		if p.Doc != doc {
			links, _ := typ.Navigate(lv, p.Doc)
			an.More = append(an.More, links...)
		}
	}
	st.remember(an.Links)
	st.remember(an.More)
	return an, true
}

// maxTargets bounds the URLs remembered per level.
const maxTargets = 64

func (st *siteState) remember(links []kb.Link) {
	for _, l := range links {
		st.levels.expect(l)
		if len(st.targets[l.Target]) < maxTargets {
			st.targets[l.Target] = append(st.targets[l.Target], l.URL)
		}
	}
}

// samples fetches up to want more pages of level l of the site, none
// fetched before: first those the earlier crawl stored objects of l's
// kinds from, then those navigation led to l; a page of another level is
// left out.
func (s *Session) samples(st *siteState, t *kb.Type, l *kb.Level, doc *vdoc.Doc, want int, fetch func(string) (*vdoc.Doc, error)) []Page {
	var urls []string
	for u, objs := range s.Known {
		if len(urls) >= maxTargets {
			break
		}
		if !strings.HasPrefix(u, doc.URL.Scheme+"://"+doc.URL.Host+"/") || u == doc.URL.String() {
			continue
		}
		for _, x := range l.Extract {
			if indexKind(objs, x.Object) >= 0 {
				urls = append(urls, u)
				break
			}
		}
	}
	slices.Sort(urls) // the map's order is random; a crawl should not be
	urls = append(urls, st.targets[l.Name]...)
	var out []Page
	st.sampled[doc.URL.String()] = true
	for _, u := range urls {
		if len(out) >= want || len(st.sampled) >= maxSampled {
			break
		}
		if st.sampled[u] {
			continue
		}
		st.sampled[u] = true
		d, err := fetch(u)
		if err != nil {
			fmt.Fprintf(s.log(), "adapt: fetching a sample page: %v\n", err)
			continue
		}
		if found, _ := t.LevelOf(d); found == nil || found.Name != l.Name {
			continue
		}
		out = append(out, Page{Doc: d, Known: s.Known[d.URL.String()]})
	}
	return out
}

func (s *Session) site(host string) *siteState {
	if s.sites == nil {
		s.sites, s.lru, s.kept = map[string]*siteState{}, list.New(), map[string][]Proposal{}
	}
	if st := s.sites[host]; st != nil {
		s.lru.MoveToFront(st.elem)
		return st
	}
	st := &siteState{types: map[string]*kb.Type{}, pending: map[string][]Page{}, next: map[string]int{}, targets: map[string][]string{}, sampled: map[string]bool{},
		levels: levelState{expected: map[string]string{}, unleveled: map[string][]*vdoc.Doc{}, others: map[string][]*vdoc.Doc{}, next: map[string]int{}}}
	st.learned = s.kept[host]
	delete(s.kept, host)
	st.elem = s.lru.PushFront(host)
	s.sites[host] = st
	for s.lru.Len() > maxSites {
		old := s.lru.Remove(s.lru.Back()).(string)
		if s.Learned == nil && len(s.sites[old].learned) > 0 {
			s.kept[old] = s.sites[old].learned
		}
		delete(s.sites, old)
	}
	return st
}

// typeFor is t with the patterns learned for the site (in the learned
// file and in this session).
func (s *Session) typeFor(st *siteState, site string, t *kb.Type) *kb.Type {
	if typ, ok := st.types[t.ID]; ok {
		return typ
	}
	props := st.learned
	if s.Learned != nil {
		props = s.Learned.List()
	}
	var mine []Proposal
	for _, p := range props {
		if p.Type == t.ID {
			mine = append(mine, p)
		}
	}
	typ := t
	if len(mine) > 0 {
		k, err := Apply(&kb.KB{Types: []*kb.Type{t}}, mine, site)
		if err != nil {
			fmt.Fprintf(s.log(), "adapt: %s: %v\n", site, err)
		}
		typ = k.Types[0]
	}
	st.types[t.ID] = typ
	return typ
}

func analyze(t *kb.Type, l *kb.Level, doc *vdoc.Doc) Analysis {
	an := Analysis{Level: l}
	an.Links, an.Failures = t.Navigate(l, doc)
	if l.Terminal {
		var xf []kb.Failure
		an.Objects, xf = t.Extract(l, doc)
		an.Failures = append(an.Failures, xf...)
	}
	return an
}

// troubled reports a page on which the type fails: an action that
// matched nothing (but the records of an extraction after the page's
// main one), a core field of a main object the KB extracts that
// came out empty, or, in a recrawl, a stored value the page still shows
// that the type no longer extracts.
func (s *Session) troubled(doc *vdoc.Doc, l *kb.Level, objs []kb.Object, fails []kb.Failure) bool {
	for _, f := range fails {
		// Records of a further extraction (comments) may rightly be
		// absent: a post without comments is no template change.
		if f.Action != "records" || len(l.Extract) > 0 && f.Patterns[0] == l.Extract[0].Records.String() {
			return true
		}
	}
	for _, x := range l.Extract {
		i := indexKind(objs, x.Object)
		if i < 0 {
			continue
		}
		for _, f := range coreFields {
			if _, ok := x.Fields[f]; ok && value(&objs[i], f) == "" {
				return true
			}
		}
		known := s.Known[doc.URL.String()]
		if k := indexKind(known, x.Object); k >= 0 {
			for _, f := range relearnable {
				if _, ok := x.Fields[f]; ok && value(&known[k], f) != "" && !same(f, &objs[i], &known[k]) {
					return true
				}
			}
		}
	}
	return false
}

func indexKind(objs []kb.Object, kind kb.ObjectKind) int {
	for i := range objs {
		if objs[i].Kind == kind {
			return i
		}
	}
	return -1
}

// learn relearns from the stored content of the pages, then relaxes what
// still fails.
func (s *Session) learn(t *kb.Type, l *kb.Level, pages []Page, site string, fetch func(string) (*vdoc.Doc, error)) []Proposal {
	o := s.Options
	o.Site = site
	var props []Proposal
	if s.Known != nil {
		findings, learned := Relearn(t, l, pages, o)
		for _, f := range findings {
			if f.Changed() {
				fmt.Fprintf(s.log(), "adapt: %s: template change: %s %s on %d pages (%d agree, %d deleted since)\n",
					site, f.Object, f.Field, f.Structural, f.Agreed, f.Deleted)
			}
		}
		props = append(props, learned...)
	}
	if len(props) > 0 {
		k, _ := Apply(&kb.KB{Types: []*kb.Type{t}}, props, site)
		t = k.Types[0]
		l = t.Level(l.Name)
	}
	docs := make([]*vdoc.Doc, len(pages))
	for i, p := range pages {
		docs[i] = p.Doc
	}
	relaxed := Relax(s.KB, t, l, docs, o)
	if fetch != nil {
		relaxed = append(relaxed, RelaxNavigation(s.KB, t, l, docs, fetch, o)...)
	}
	props = append(props, relaxed...)
	for _, p := range props {
		fmt.Fprintf(s.log(), "adapt: %s: learned %s: %s (%s, %d of %d pages)\n", site, p.What(), p.Pattern, p.Method, len(p.Pages), p.Checked)
	}
	return props
}

func (s *Session) log() io.Writer {
	if s.Log == nil {
		return io.Discard
	}
	return s.Log
}
