package adapt

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"golang.org/x/net/html"

	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/vdoc"
	"github.com/mneme-archive/mneme/kb/xpath"
)

// Options tune learning.
type Options struct {
	// Site is the host the pages come from, recorded in proposals.
	Site string
	// MinPages is how many pages of a level a pattern must work on before
	// it is proposed (the paper's 3 when 0).
	MinPages int
	// MaxRelax bounds the relaxations of one expression (3 when 0).
	MaxRelax int
	// Now stamps proposals (time.Now when nil).
	Now func() time.Time
}

func (o Options) minPages() int { return cmp.Or(o.MinPages, 3) }
func (o Options) maxRelax() int { return cmp.Or(o.MaxRelax, 3) }
func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now().UTC()
	}
	return time.Now().UTC()
}

// Page is a page of one level: its document and, in a recrawl, the
// objects an earlier crawl extracted from the same URL (Known).
type Page struct {
	Doc   *vdoc.Doc
	Known []kb.Object
}

// Finding is what checking one field of an extraction against the known
// content of the pages found: on how many pages the KB still extracts
// the stored value, on how many the value is in the page but the KB
// misses it (a structural change), and on how many the value is gone
// (the content was edited or deleted since: not a structural change).
type Finding struct {
	Level      string
	Object     kb.ObjectKind
	Field      kb.Field
	Agreed     int
	Structural int
	Deleted    int
}

// Changed reports whether the finding is a template change.
func (f Finding) Changed() bool { return f.Structural > 0 }

// relearnable fields are single values a page shows as they were
// stored; links and lists are left to relaxation.
var relearnable = []kb.Field{kb.FieldTitle, kb.FieldAuthor, kb.FieldDate, kb.FieldModified, kb.FieldContent, kb.FieldNote, kb.FieldID}

// Relearn is the paper's adaptation in a recrawl: for each field of the
// extractions of level l, it compares what type t extracts from the pages
// with what the earlier crawl stored for them, and for a field whose
// stored value is still in the page but no longer extracted, it finds the
// nodes holding the value and proposes the XPath that selects them on the
// most pages (at least MinPages, and nine in ten of the pages where the
// value was found).
func Relearn(t *kb.Type, l *kb.Level, pages []Page, o Options) ([]Finding, []Proposal) {
	var findings []Finding
	var props []Proposal
	for _, x := range l.Extract {
		if x.Object == kb.Comment || x.Object == kb.ForumPost && len(l.Extract) > 1 {
			// Records of several objects per page are matched to stored
			// objects through their IRIs, which come from fields that may
			// have failed too: only a page's main object is relearnt.
			continue
		}
		var samples []sample
		for _, pg := range pages {
			if s, ok := sampleOf(t, l, x, pg); ok {
				samples = append(samples, s)
			}
		}
		for _, f := range relearnable {
			if _, used := x.Fields[f]; !used {
				continue
			}
			fd := Finding{Level: l.Name, Object: x.Object, Field: f}
			var found []sample
			var targets []target
			for _, s := range samples {
				if value(s.known, f) == "" {
					continue
				}
				if got, ok := s.extracted(); ok && same(f, got, s.known) {
					fd.Agreed++
					found = append(found, s)
					continue
				}
				ts := findValue(s.doc, f, s.known)
				if len(ts) == 0 {
					fd.Deleted++
					continue
				}
				fd.Structural++
				found = append(found, s)
				for _, tg := range ts {
					tg.rec = s.rec
					targets = append(targets, tg)
				}
			}
			findings = append(findings, fd)
			if !fd.Changed() {
				continue
			}
			if p, ok := generalize(x, f, targets, found, o); ok {
				p.Type, p.Level, p.Replaces = t.ID, l.Name, sources(x.Fields[f])
				p.setID()
				props = append(props, p)
			}
		}
	}
	return findings, props
}

// sample is a page with its record of extraction x and the stored object
// of that record.
type sample struct {
	doc   *vdoc.Doc
	rec   *html.Node
	known *kb.Object
	x     *kb.Extraction
}

func sampleOf(t *kb.Type, l *kb.Level, x *kb.Extraction, pg Page) (sample, bool) {
	var known *kb.Object
	for i := range pg.Known {
		if pg.Known[i].Kind == x.Object {
			known = &pg.Known[i]
			break
		}
	}
	if known == nil {
		return sample{}, false
	}
	recs := x.Records.Select(pg.Doc.Root)
	if len(recs) == 0 {
		return sample{}, false
	}
	return sample{doc: pg.Doc, rec: recs[0].Node, known: known, x: x}, true
}

// extracted is the page's main object as the KB extracts it now.
func (s sample) extracted() (*kb.Object, bool) {
	o := &kb.Object{Kind: s.x.Object}
	any := false
	for f, alts := range s.x.Fields {
		if kb.ExtractField(o, f, alts, s.rec, s.doc) {
			any = true
		}
	}
	return o, any
}

// target is a node that holds a stored value: an element, or one of its
// attributes.
type target struct {
	node *html.Node
	attr string
	rec  *html.Node
}

// findValue returns the nodes of doc that hold the stored value of field
// f: the deepest elements whose text is the value (for content, the one
// whose text is closest to it, F1 ≥ 0.9), and attributes whose value is
// it (dates: parsed to the same instant).
func findValue(doc *vdoc.Doc, f kb.Field, known *kb.Object) []target {
	want := value(known, f)
	var out []target
	bestF1 := 0.0
	var walk func(*html.Node) bool
	walk = func(n *html.Node) bool {
		if n.Type != html.ElementNode && n.Type != html.DocumentNode {
			return false
		}
		below := false
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if walk(c) {
				below = true
			}
		}
		if n.Type != html.ElementNode {
			return below
		}
		for _, a := range n.Attr {
			if a.Key == "class" || a.Key == "style" {
				continue
			}
			if attrHolds(f, a.Val, want, known) {
				out = append(out, target{node: n, attr: a.Key})
			}
		}
		if below {
			return true
		}
		switch f {
		case kb.FieldContent:
			text := kb.Text(n)
			if len(text) < len(want)/2 || len(text) > 2*len(want)+100 {
				return false
			}
			if s := F1(text, want); s >= 0.9 && s > bestF1 {
				bestF1 = s
				out = slices.DeleteFunc(out, func(t target) bool { return t.attr == "" })
				out = append(out, target{node: n})
				return true
			}
		case kb.FieldDate, kb.FieldModified:
			text := xpath.Collapse(kb.Text(n))
			if len(text) > 120 {
				return false
			}
			if tm, ok := kb.ParseDate(text); ok && sameInstant(tm, dateOf(known, f)) {
				out = append(out, target{node: n})
				return true
			}
		default:
			if xpath.Collapse(kb.Text(n)) == want {
				out = append(out, target{node: n})
				return true
			}
		}
		return false
	}
	walk(doc.Root)
	return out
}

func attrHolds(f kb.Field, v, want string, known *kb.Object) bool {
	switch f {
	case kb.FieldDate, kb.FieldModified:
		tm, ok := kb.ParseDate(v)
		return ok && sameInstant(tm, dateOf(known, f))
	case kb.FieldContent:
		return false
	}
	return xpath.Collapse(v) == want
}

func dateOf(o *kb.Object, f kb.Field) time.Time {
	if f == kb.FieldModified {
		return o.Modified
	}
	return o.Date
}

// generalize turns the target nodes into candidate expressions and keeps
// the one that gives the stored value on the most sample pages.
func generalize(x *kb.Extraction, f kb.Field, targets []target, samples []sample, o Options) (Proposal, bool) {
	seen := map[string]bool{}
	var cands []string
	for _, t := range targets {
		for _, c := range pathsTo(t) {
			if !seen[c] {
				seen[c] = true
				cands = append(cands, c)
			}
		}
	}
	type scored struct {
		src                 string
		right, wrong, nodes int
		pages               []string
	}
	var best *scored
	for _, c := range cands {
		p, err := compile(c)
		if err != nil {
			continue
		}
		s := scored{src: c}
		for _, sm := range samples {
			s.nodes += len(p.Select(sm.rec))
			got, ok := fieldOn(x.Object, f, p, sm.rec, sm.doc)
			switch {
			case ok && same(f, &got, sm.known):
				s.right++
				s.pages = append(s.pages, sm.doc.URL.String())
			case ok:
				s.wrong++
			}
		}
		// The most pages right, then the fewest wrong, then the fewest
		// nodes selected (//li[@id='lastmod'] rather than //li, whose
		// date comes from the one item that holds one), then the shortest.
		if best == nil || cmp.Or(cmp.Compare(best.right, s.right), cmp.Compare(s.wrong, best.wrong),
			cmp.Compare(s.nodes, best.nodes), cmp.Compare(len(s.src), len(best.src))) < 0 {
			best = &s
		}
	}
	if best == nil || best.right < o.minPages() || best.right*10 < len(samples)*9 {
		return Proposal{}, false
	}
	return Proposal{Status: Pending, Site: o.Site, Action: ActionField, Object: x.Object, Field: f,
		Pattern: best.src, Method: MethodRelearn, Pages: best.pages, Checked: len(samples), Learned: o.now()}, true
}

// pathsTo writes expressions that select target t from its record: the
// target's own step alone, and under a step of one of its three nearest
// ancestors; steps name the tag with an id, a class token or a role
// attribute (rel, itemprop, property, name), or the tag alone. Values
// with digits name one object, not a template role, and are not used.
func pathsTo(t target) []string {
	lead := ".//"
	if !isAncestor(t.rec, t.node) || t.rec.Data == "body" || t.rec.Data == "html" {
		lead = "//"
	}
	tail := ""
	if t.attr != "" {
		tail = "/@" + t.attr
	}
	own := stepsFor(t.node, true)
	var out []string
	for _, s := range own {
		out = append(out, lead+s+tail)
	}
	n := t.node.Parent
	for i := 0; i < 3 && n != nil && n != t.rec && n.Type == html.ElementNode; i++ {
		for _, a := range stepsFor(n, false) {
			for _, s := range own {
				out = append(out, lead+a+"//"+s+tail)
			}
		}
		n = n.Parent
	}
	return out
}

func isAncestor(a, n *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n == a {
			return true
		}
	}
	return false
}

// stepsFor returns the steps that name element n; bare adds the tag alone.
func stepsFor(n *html.Node, bare bool) []string {
	var out []string
	for _, a := range n.Attr {
		if a.Val == "" || hasDigit(a.Val) && a.Key != "class" || strings.ContainsAny(a.Val, "'\n") {
			continue
		}
		switch a.Key {
		case "id", "rel", "itemprop", "property", "name":
			out = append(out, n.Data+"[@"+a.Key+"='"+a.Val+"']")
		case "class":
			for _, c := range strings.Fields(a.Val) {
				if !hasDigit(c) && !strings.ContainsAny(c, "'") {
					out = append(out, n.Data+"[contains(@class, '"+c+"')]")
				}
			}
		}
	}
	if bare {
		out = append(out, n.Data)
	}
	return out
}

func sources(ps []*kb.Pattern) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}
