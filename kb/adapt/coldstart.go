package adapt

import (
	"cmp"
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/vdoc"
	"github.com/mneme-archive/mneme/kb/xpath"
)

// coreFields are relaxed even where the KB marks them optional: they are
// what an object is (a post without its author or date, an article
// without its last change, is half lost), while other optional fields
// may rightly be absent from a page.
var coreFields = []kb.Field{kb.FieldTitle, kb.FieldAuthor, kb.FieldDate, kb.FieldModified, kb.FieldContent}

// Relax is the paper's adaptation for an application whose KB actions
// fail (a cold start: no earlier crawl to learn from). For each field of
// the extractions of level l that yields no plausible value on most of
// docs (pages of that level), it relaxes the field's KB expressions and
// proposes the first relaxed expression, in the paper's order, that
// yields plausible values on at least MinPages pages and four in five of
// the pages, distinct from page to page where objects differ (titles,
// dates, content), and never the value of another field of the same
// object. Values and tags of the same field in other types of the
// category come first among candidates. k gives those types.
func Relax(k *kb.KB, t *kb.Type, l *kb.Level, docs []*vdoc.Doc, o Options) []Proposal {
	v := collectVocab(docs)
	var props []Proposal
	for _, x := range l.Extract {
		recs := make([]*recordOn, 0, len(docs))
		for _, d := range docs {
			if rs := x.Records.Select(d.Root); len(rs) > 0 {
				recs = append(recs, &recordOn{doc: d, rec: rs[0], obj: kb.Object{Kind: x.Object}})
			}
		}
		if len(recs) < o.minPages() {
			continue
		}
		// The values of the fields that work, against which candidates
		// are checked.
		var failing []kb.Field
		for _, f := range fieldOrder(x) {
			n := 0
			for _, r := range recs {
				if kb.ExtractField(&r.obj, f, x.Fields[f], r.rec.Node, r.doc) && plausible(f, &r.obj) {
					n++
				}
			}
			if n*5 < len(recs)*4 && (!x.Optional[f] || slices.Contains(coreFields, f)) {
				failing = append(failing, f)
			}
		}
		for _, r := range recs {
			r.content = contentNode(x, r)
			r.others = otherRecords(l, x, r)
		}
		for _, f := range failing {
			p, ok := relaxField(k, t, l, x, f, recs, v, o)
			if !ok {
				continue
			}
			props = append(props, p)
			pat, _ := compile(p.Pattern)
			for _, r := range recs {
				kb.ExtractField(&r.obj, f, []*kb.Pattern{pat}, r.rec.Node, r.doc)
			}
		}
	}
	return props
}

// recordOn is the main record of extraction x on one page, with the
// object its working fields give.
type recordOn struct {
	doc *vdoc.Doc
	rec xpath.Item
	obj kb.Object
	// content is the node the object's content comes from, nil when
	// unknown: no other field lies inside it.
	content *html.Node
	// others are the records of the level's other extractions that do
	// not hold this one (a post's comments): none of its fields lies
	// inside them.
	others map[*html.Node]bool
}

// fieldOrder is the fields of x in a fixed order: the relaxation of one
// field is checked against those relaxed before it.
func fieldOrder(x *kb.Extraction) []kb.Field {
	var out []kb.Field
	for f := range x.Fields {
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b kb.Field) int {
		ia, ib := slices.Index(coreFields, a), slices.Index(coreFields, b)
		if ia < 0 {
			ia = len(coreFields)
		}
		if ib < 0 {
			ib = len(coreFields)
		}
		return cmp.Or(cmp.Compare(ia, ib), cmp.Compare(a, b))
	})
	return out
}

func relaxField(k *kb.KB, t *kb.Type, l *kb.Level, x *kb.Extraction, f kb.Field, recs []*recordOn, v *vocab, o Options) (Proposal, bool) {
	var same []string
	for _, ot := range k.Types {
		if ot.Category != t.Category {
			continue
		}
		for _, ol := range ot.Levels {
			for _, ox := range ol.Extract {
				if ox.Object == x.Object {
					same = append(same, sources(ox.Fields[f])...)
				}
			}
		}
	}
	cands := candidatesOf(x.Fields[f], v, vocabularyOf(same), sources(l.Detect), o)
	need := max(o.minPages(), (len(recs)*4+4)/5)
	for _, c := range cands {
		pat, err := compile(c.src)
		if err != nil {
			continue
		}
		if pages, ok := worksOn(pat, x, f, recs, need); ok {
			return Proposal{Status: Pending, Site: o.Site, Type: t.ID, Level: l.Name, Action: ActionField,
				Object: x.Object, Field: f, Pattern: c.src, Replaces: sources(x.Fields[f]), Method: MethodRelax,
				Relaxations: c.n, Pages: pages, Checked: len(recs), Learned: o.now()}.withID(), true
		}
	}
	return Proposal{}, false
}

func (p Proposal) withID() Proposal {
	p.setID()
	return p
}

// worksOn checks a candidate on the records: plausible values on at least
// need of them, distinct where the field is, and none equal to the value
// of another field of the object. It gives up as soon as need is out of
// reach.
func worksOn(pat *kb.Pattern, x *kb.Extraction, f kb.Field, recs []*recordOn, need int) ([]string, bool) {
	var pages []string
	distinct := map[string]bool{}
	for i, r := range recs {
		if len(pages)+len(recs)-i < need {
			return nil, false
		}
		got, ok := fieldOn(x.Object, f, pat, r.rec.Node, r.doc)
		if !ok || !plausible(f, &got) || clashes(f, value(&got, f), &r.obj) || f != kb.FieldContent && (inside(pat, r) || holdsContent(pat, r)) {
			continue
		}
		distinct[value(&got, f)] = true
		pages = append(pages, r.doc.URL.String())
	}
	// A value the same on every page is the template's (a label, the
	// site's name), not an object's.
	if len(pages) < need || distinctive(f) && len(distinct)*10 < len(pages)*9 || len(pages) >= 4 && len(distinct) == 1 {
		return nil, false
	}
	return pages, true
}

// contentNode returns the node the working content alternatives of x
// select in the record.
func contentNode(x *kb.Extraction, r *recordOn) *html.Node {
	for _, p := range x.Fields[kb.FieldContent] {
		if it, ok := p.First(r.rec.Node); ok {
			return it.Node
		}
	}
	return nil
}

// inside reports a candidate that selects a node within the object's
// content (a link in a post's text is not its author), within another
// object's record (nor is a commenter) or within a form (a form's labels
// are the site's, not the object's).
func inside(pat *kb.Pattern, r *recordOn) bool {
	it, ok := pat.First(r.rec.Node)
	if !ok {
		return false
	}
	for n := it.Node; n != nil; n = n.Parent {
		if n == r.content || r.others[n] || n.Type == html.ElementNode && n.Data == "form" {
			return true
		}
	}
	return false
}

// holdsContent reports a candidate that selects the node of the object's
// content or one holding it: a title, author or date is a part of the
// object beside its text, and a node around the text (the record's
// header and body together) only looks like one on pages where the text
// is short.
func holdsContent(pat *kb.Pattern, r *recordOn) bool {
	it, ok := pat.First(r.rec.Node)
	return ok && r.content != nil && it.Node != nil && isAncestor(it.Node, r.content)
}

// otherRecords returns the records of the extractions of l other than x
// on r's page that are not r or its ancestors.
func otherRecords(l *kb.Level, x *kb.Extraction, r *recordOn) map[*html.Node]bool {
	out := map[*html.Node]bool{}
	for _, y := range l.Extract {
		if y == x {
			continue
		}
		for _, it := range y.Records.Select(r.doc.Root) {
			if !isAncestor(it.Node, r.rec.Node) {
				out[it.Node] = true
			}
		}
	}
	return out
}

// clashes reports a value that another field of the object already has:
// the post's title offered as its author.
func clashes(f kb.Field, v string, o *kb.Object) bool {
	for _, g := range []kb.Field{kb.FieldTitle, kb.FieldAuthor, kb.FieldContent, kb.FieldNote} {
		if g != f && value(o, g) == v {
			return true
		}
	}
	return false
}

// RelaxNavigation relaxes the navigation actions of level l that select
// nothing on most of docs (pages of that level), as Relax does fields. A
// relaxed expression is judged by what it leads to: it must select links
// on at least MinPages pages and four in five of them; the links must be
// new from page to page (a sidebar's recent posts, the same on every
// page, lead to few pages again and again: at least half the links it
// selects must be distinct), outside the page's chrome (sidebars,
// widgets, header, footer and menus: at most half in them) unless the
// action itself names such a part; and nine in ten of the links checked
// (the first three per page found on that page alone, fetched with
// fetch) must lead to pages of the action's target level, distinct ones.
func RelaxNavigation(k *kb.KB, t *kb.Type, l *kb.Level, docs []*vdoc.Doc, fetch func(url string) (*vdoc.Doc, error), o Options) []Proposal {
	v := collectVocab(docs)
	var props []Proposal
	levelOf := map[string]string{}
	targetLevel := func(u string) string {
		if lv, ok := levelOf[u]; ok {
			return lv
		}
		lv := ""
		if d, err := fetch(u); err == nil {
			if found, _ := t.LevelOf(d); found != nil {
				lv = found.Name
			}
		}
		levelOf[u] = lv
		return lv
	}
	need := max(o.minPages(), (len(docs)*4+4)/5)
	for _, n := range l.Navigate {
		if n.Optional || selectsOn(t, n, n.Select, docs) >= need {
			continue
		}
		var same []string
		for _, ot := range k.Types {
			if ot.Category == t.Category {
				for _, ol := range ot.Levels {
					for _, on := range ol.Navigate {
						same = append(same, sources(on.Select)...)
					}
				}
			}
		}
		chromeOK := slices.ContainsFunc(sources(n.Select), namesChrome)
		cands := candidatesOf(n.Select, v, vocabularyOf(same), sources(l.Detect), o)
		for _, c := range cands {
			pat, err := compile(c.src)
			if err != nil || selectsOn(t, n, []*kb.Pattern{pat}, docs) < need {
				continue
			}
			sel := selectLinks(t, l, n, pat, docs)
			if !sel.novel() || !chromeOK && sel.chrome*2 > sel.total {
				continue
			}
			checked, right := 0, 0
			reached := map[string]bool{}
			for _, links := range sel.byDoc {
				tried := 0
				for _, u := range links {
					if tried == 3 {
						break
					}
					if sel.count[u] > 1 {
						continue // on other pages too: not what this page leads to
					}
					tried++
					checked++
					if targetLevel(u) == n.Target {
						right++
						reached[u] = true
					}
				}
			}
			if checked > 0 && right*10 >= checked*9 && len(reached) >= o.minPages() {
				props = append(props, Proposal{Status: Pending, Site: o.Site, Type: t.ID, Level: l.Name, Action: ActionNavigate,
					Target: n.Target, Pattern: c.src, Replaces: sources(n.Select), Method: MethodRelax, Relaxations: c.n,
					Pages: sel.pages, Checked: len(docs), Learned: o.now()}.withID())
				break
			}
		}
	}
	return props
}

// linkSelection is what a candidate navigation selects on the sample
// pages.
type linkSelection struct {
	byDoc  [][]string     // the links of each page, in page order
	count  map[string]int // pages each link is on
	pages  []string       // pages with links
	total  int            // links, over all pages
	chrome int            // links inside the pages' chrome
}

func selectLinks(t *kb.Type, l *kb.Level, n *kb.Navigation, pat *kb.Pattern, docs []*vdoc.Doc) *linkSelection {
	sel := &linkSelection{count: map[string]int{}}
	for _, d := range docs {
		links, _ := t.Navigate(&kb.Level{Name: l.Name, Navigate: []*kb.Navigation{{Select: []*kb.Pattern{pat}, Target: n.Target}}}, d)
		if len(links) == 0 {
			continue
		}
		sel.pages = append(sel.pages, d.URL.String())
		var urls []string
		for _, ln := range links {
			urls = append(urls, ln.URL)
			sel.count[ln.URL]++
		}
		sel.byDoc = append(sel.byDoc, urls)
		sel.total += len(links)
		for _, it := range pat.Select(d.Root) {
			if it.Node != nil && inChrome(it.Node) {
				sel.chrome++
			}
		}
	}
	return sel
}

// novel reports a selection at least half of whose links are distinct:
// the items of a list differ from page to page, a widget's links do not.
func (sel *linkSelection) novel() bool { return len(sel.count)*2 >= sel.total }

// chromeWords name the parts of a page around its content, in tags,
// classes and ids.
var chromeWords = []string{"aside", "footer", "header", "nav", "menu", "sidebar", "widget"}

// namesChrome reports an expression that names a part of the page's
// chrome: an action meant to follow a menu's links.
func namesChrome(src string) bool {
	src = strings.ToLower(src)
	return slices.ContainsFunc(chromeWords, func(w string) bool { return strings.Contains(src, w) })
}

// inChrome reports a node within the page's chrome: an aside, footer,
// header or nav element, or an element whose class or id names one, a
// sidebar, a widget or a menu.
func inChrome(n *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.Data {
		case "aside", "footer", "header", "nav":
			return true
		}
		for _, a := range n.Attr {
			if (a.Key == "class" || a.Key == "id") && namesChrome(a.Val) {
				return true
			}
		}
	}
	return false
}

// selectsOn counts the docs on which one of alts selects a link.
func selectsOn(t *kb.Type, n *kb.Navigation, alts []*kb.Pattern, docs []*vdoc.Doc) int {
	c := 0
	for _, d := range docs {
		links, _ := t.Navigate(&kb.Level{Navigate: []*kb.Navigation{{Select: alts, Target: n.Target}}}, d)
		if len(links) > 0 {
			c++
		}
	}
	return c
}

// candidatesOf relaxes every union branch of alts and orders all the
// candidates together, in the paper's order.
func candidatesOf(alts []*kb.Pattern, v *vocab, preferred map[string]bool, detect []string, o Options) []relaxed {
	var cands []relaxed
	seen := map[string]bool{}
	for _, alt := range alts {
		for _, branch := range splitUnion(alt.String()) {
			base, err := parsePath(branch)
			if err != nil {
				continue
			}
			for _, c := range relaxations(base, frozenSteps(base, detect), v, preferred, o.maxRelax()) {
				if !seen[c.src] {
					seen[c.src] = true
					cands = append(cands, c)
				}
			}
		}
	}
	sortRelaxed(cands)
	return cands
}

// RelaxLevel relaxes the detection patterns of level l when they match
// none of docs, pages the navigation led to as pages of l. A relaxed
// pattern is proposed when it matches at least MinPages of docs and four
// in five, and none of others (pages of the type's other levels).
func RelaxLevel(k *kb.KB, t *kb.Type, l *kb.Level, docs, others []*vdoc.Doc, o Options) (Proposal, bool) {
	matches := func(alts []*kb.Pattern, d *vdoc.Doc) bool {
		for _, p := range alts {
			if p.MatchIndexed(d.Root, d) {
				return true
			}
		}
		return false
	}
	need := max(o.minPages(), (len(docs)*4+4)/5)
	n := 0
	for _, d := range docs {
		if matches(l.Detect, d) {
			n++
		}
	}
	if n >= need {
		return Proposal{}, false
	}
	var same []string
	for _, ot := range k.Types {
		if ot.Category == t.Category {
			for _, ol := range ot.Levels {
				same = append(same, sources(ol.Detect)...)
			}
		}
	}
	all := append(slices.Clone(docs), others...)
	for _, c := range candidatesOf(l.Detect, collectVocab(all), vocabularyOf(same), nil, o) {
		pat, err := compile(c.src)
		if err != nil {
			continue
		}
		alts := []*kb.Pattern{pat}
		if slices.ContainsFunc(others, func(d *vdoc.Doc) bool { return matches(alts, d) }) {
			continue
		}
		var pages []string
		for _, d := range docs {
			if matches(alts, d) {
				pages = append(pages, d.URL.String())
			}
		}
		if len(pages) >= need {
			return Proposal{Status: Pending, Site: o.Site, Type: t.ID, Level: l.Name, Action: ActionDetect,
				Pattern: c.src, Replaces: sources(l.Detect), Method: MethodRelax, Relaxations: c.n,
				Pages: pages, Checked: len(docs), Learned: o.now()}.withID(), true
		}
	}
	return Proposal{}, false
}
