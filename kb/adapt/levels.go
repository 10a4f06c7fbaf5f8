package adapt

import (
	"fmt"
	"slices"

	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// levelState is what a site's session keeps to relax level detection
// (the paper's "also relax level detection patterns"): which level
// navigation led to each URL, the pages of a known application that
// matched no level, and some pages of each level to check a relaxed
// pattern against.
type levelState struct {
	expected  map[string]string      // URL → the level navigation led to it as
	unleveled map[string][]*vdoc.Doc // pages no level matched, by expected level
	others    map[string][]*vdoc.Doc // pages each level matched
	next      map[string]int         // unleveled pages before the next attempt
}

// Bounds on what levelState keeps: URLs expected, and pages per level.
const (
	maxExpected = 4096
	maxLevelDoc = 8
)

// expect records that navigation led to l's URL as a page of its target.
func (ls *levelState) expect(l kb.Link) {
	if _, ok := ls.expected[l.URL]; ok || len(ls.expected) < maxExpected {
		ls.expected[l.URL] = l.Target
	}
}

// keep records a page the KB gave level name, to check relaxed
// detection patterns of the other levels against.
func (ls *levelState) keep(name string, doc *vdoc.Doc) {
	if len(ls.others[name]) < maxLevelDoc {
		ls.others[name] = append(ls.others[name], doc)
	}
}

// unleveled returns the level of a page of type t that no level of t
// matched, or another level than the one navigation led to it as: the
// page is kept under that expected level L, and once MinPages such pages are
// (at least twice as many as at the last failed attempt), L's detection
// is relaxed (RelaxLevel) against the pages of the other levels seen;
// a proposal is learned and the page given level L if the relaxed
// pattern matches it. nil when the page stays without a level.
func (s *Session) unleveled(st *siteState, site string, doc *vdoc.Doc, t *kb.Type) *kb.Level {
	typ := s.typeFor(st, site, t)
	ls := &st.levels
	name, ok := ls.expected[doc.URL.String()]
	lv := typ.Level(name)
	if !ok || lv == nil {
		return nil
	}
	if len(ls.unleveled[name]) < maxPending {
		ls.unleveled[name] = append(ls.unleveled[name], doc)
	}
	docs := ls.unleveled[name]
	if len(docs) < max(s.minPages(), ls.next[name]) {
		return nil
	}
	ls.next[name] = 2 * len(docs)
	var others []*vdoc.Doc
	for other, ds := range ls.others {
		if other != name {
			others = append(others, ds...)
		}
	}
	o := s.Options
	o.Site = site
	p, ok := RelaxLevel(s.KB, typ, lv, docs, others, o)
	if !ok {
		return nil
	}
	fmt.Fprintf(s.log(), "adapt: %s: learned %s: %s (%s, %d of %d pages)\n", site, p.What(), p.Pattern, p.Method, len(p.Pages), p.Checked)
	st.learned = append(st.learned, p)
	if s.Learned != nil {
		if _, err := s.Learned.Add(p); err != nil {
			fmt.Fprintf(s.log(), "adapt: %s: %v\n", site, err)
		}
	}
	ls.unleveled[name] = nil
	delete(st.types, t.ID)
	if !slices.Contains(p.Pages, doc.URL.String()) {
		return nil
	}
	return t.Level(name)
}
