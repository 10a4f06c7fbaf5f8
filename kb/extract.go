package kb

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/html"

	"github.com/mneme-archive/mneme/kb/vdoc"
	"github.com/mneme-archive/mneme/kb/xpath"
)

// Object is one thing extracted from a page: a post, comment, wiki article…
type Object struct {
	Kind ObjectKind
	// IRI identifies the object: its permalink (url field) resolved
	// against the page, else the page URL with its id as fragment, else
	// the page URL (the first object) or page URL#n.
	IRI       string
	ID        string
	Title     string
	Author    string
	AuthorURL string
	// Date is the publication date; DateText the text it was read from.
	Date       time.Time
	DateText   string
	Modified   time.Time
	Content    string
	Tags       []string
	Categories []string
	// ReplyTo is the IRI of the object this one answers, "" when none.
	ReplyTo   string
	Note      string
	VersionOf string
}

// Failure is an action that matched nothing where it should have: the
// signal that a site's templates differ from the KB's, for adaptation.
type Failure struct {
	Type   string
	Level  string
	Action string // "navigate", "records" or "field"
	Field  Field  // for a field failure
	// Patterns are the alternatives that were tried.
	Patterns []string
}

// Link is a URL a navigation action selected, with the level it leads to.
type Link struct {
	URL    string
	Target string
	// Pattern is the navigation alternative that selected it.
	Pattern string
}

// Navigate applies the navigation actions of level l of type t to doc and
// returns the links to follow (resolved, without fragment, deduplicated,
// none matching the type's avoid patterns) and the failures of
// non-optional actions that selected nothing.
func (t *Type) Navigate(l *Level, doc *vdoc.Doc) ([]Link, []Failure) {
	var links []Link
	var fails []Failure
	seen := map[string]bool{}
	for _, nav := range l.Navigate {
		found := false
		for _, p := range nav.Select {
			items := p.Select(doc.Root)
			if len(items) == 0 {
				continue
			}
			found = true
			for _, it := range items {
				raw := it.Value
				if it.Attr == "" && it.Node.Type == html.ElementNode {
					raw = attr(it.Node, "href")
				}
				u, ok := resolve(doc.Base, raw)
				if !ok || seen[u.String()] || t.Avoids(u) {
					continue
				}
				seen[u.String()] = true
				links = append(links, Link{URL: u.String(), Target: nav.Target, Pattern: p.String()})
			}
			break
		}
		if !found && !nav.Optional {
			fails = append(fails, Failure{Type: t.ID, Level: l.Name, Action: "navigate", Patterns: sources(nav.Select)})
		}
	}
	return links, fails
}

// Avoids reports whether one of the type's avoid patterns is true of the
// link u: a page the application-aware crawler never fetches.
func (t *Type) Avoids(u *url.URL) bool {
	if len(t.Avoid) == 0 {
		return false
	}
	d := vdoc.ForURL(u)
	for _, p := range t.Avoid {
		if p.Match(d.Root) {
			return true
		}
	}
	return false
}

func resolve(base *url.URL, raw string) (*url.URL, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" || strings.HasPrefix(raw, "#") || strings.HasPrefix(raw, "javascript:") || strings.HasPrefix(raw, "mailto:") {
		return nil, false
	}
	u, err := base.Parse(raw)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" {
		return nil, false
	}
	u.Fragment = ""
	u.RawFragment = ""
	return u, true
}

func sources(ps []*Pattern) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// Extract applies the extraction actions of level l of type t to doc and
// returns the objects found, with the failures of actions that matched
// nothing (records, or a non-optional field no record yielded).
func (t *Type) Extract(l *Level, doc *vdoc.Doc) ([]Object, []Failure) {
	var objs []Object
	var fails []Failure
	for _, x := range l.Extract {
		objs, fails = x.run(t.ID, l.Name, doc, objs, fails)
	}
	mainReplies(objs)
	return objs, fails
}

// ExtractPage is the extraction the crawl runs on a page of level l of
// type t: a generic type's objects (Generic), or the level's extraction
// actions refined where they find nothing: comments a theme lays out
// otherwise than the knowledge base says are mined from the page's
// comment section. learned is the site's earlier mined extraction (nil
// for none); the one used is returned for the site's next pages.
func (t *Type) ExtractPage(l *Level, doc *vdoc.Doc, learned *Extraction) ([]Object, []Failure, *Extraction) {
	if t.Generic {
		objs, x := t.extractGeneric(doc, learned)
		return objs, nil, x
	}
	objs, fails := t.Extract(l, doc)
	if slices.ContainsFunc(l.Extract, func(x *Extraction) bool { return x.Object == ForumPost }) {
		switch {
		case !slices.ContainsFunc(objs, func(o Object) bool { return o.Kind == ForumPost }):
			// A thread whose posts the entry's records miss (a
			// template it does not know): its posts mined, when they
			// are a thread's.
			if posts, x := MineObjects(doc, ForumPost, learned); Thread(posts) {
				return append(objs, posts...), fails, x
			}
		case lacking(objs, ForumPost):
			// Records the entry finds, but without the author or the
			// date on most (a version whose markup of them differs):
			// those fields filled from the mined records holding the
			// same text.
			if posts, x := MineObjects(doc, ForumPost, learned); fill(objs, posts) > 0 {
				return objs, fails, x
			}
		}
		return objs, fails, learned
	}
	if !slices.ContainsFunc(l.Extract, func(x *Extraction) bool { return x.Object == Comment }) {
		return objs, fails, learned
	}
	// The level has comments. Where the knowledge base's comment
	// records find none, or fewer or poorer ones than the page's own
	// evidence shows (a theme's markup the entry does not know), the
	// comments are mined.
	kbRecords := slices.ContainsFunc(fails, func(f Failure) bool {
		return f.Action == "records" && slices.ContainsFunc(l.Extract, func(x *Extraction) bool {
			return x.Object == Comment && x.Records.String() == f.Patterns[0]
		})
	})
	if !kbRecords && len(commentRecords(doc.Root)) == 0 {
		return objs, fails, learned
	}
	recs, x := MineObjects(doc, Comment, learned)
	var kept []Object
	var own []Object
	for _, o := range objs {
		if o.Kind == Comment {
			own = append(own, o)
		} else {
			kept = append(kept, o)
		}
	}
	if commentScore(recs) <= commentScore(own) {
		return objs, fails, learned
	}
	if len(kept) > 0 {
		for i := range recs {
			if recs[i].ReplyTo == "" || recs[i].ReplyTo == recs[0].IRI {
				recs[i].ReplyTo = kept[0].IRI
			}
		}
	}
	return append(kept, recs...), fails, x
}

// lacking reports whether most objects of kind in objs miss their author
// or their date.
func lacking(objs []Object, kind ObjectKind) bool {
	n, noAuthor, noDate := 0, 0, 0
	for _, o := range objs {
		if o.Kind != kind {
			continue
		}
		n++
		if !o.hasAuthor() {
			noAuthor++
		}
		if !o.hasDate() {
			noDate++
		}
	}
	return 2*noAuthor > n || 2*noDate > n
}

// fill sets the author and date that objects of objs miss from the
// object of mined that holds the same text (most of the shorter text's
// words in the other), each mined object lending to one object at most;
// it returns the number of objects filled.
func fill(objs, mined []Object) int {
	used := make([]bool, len(mined))
	minedWords := make([]map[string]int, len(mined))
	for i, m := range mined {
		minedWords[i] = wordBag(m.Content)
	}
	filled := 0
	for i := range objs {
		o := &objs[i]
		needAuthor, needDate := !o.hasAuthor(), !o.hasDate()
		if !needAuthor && !needDate {
			continue
		}
		words := wordBag(o.Content)
		best, bi := 0.5, -1
		for j := range mined {
			if !used[j] {
				if v := overlap(words, minedWords[j]); v > best {
					best, bi = v, j
				}
			}
		}
		if bi < 0 {
			continue
		}
		used[bi] = true
		m := mined[bi]
		did := false
		if needAuthor && m.hasAuthor() {
			o.Author, o.AuthorURL, did = m.Author, m.AuthorURL, true
		}
		if needDate && m.hasDate() {
			o.Date, o.DateText, did = m.Date, m.DateText, true
		}
		if did {
			filled++
		}
	}
	return filled
}

// hasAuthor tells an object whose author was found, by name or profile.
func (o *Object) hasAuthor() bool { return o.Author != "" || o.AuthorURL != "" }

// hasDate tells an object whose date was found, read or not.
func (o *Object) hasDate() bool { return !o.Date.IsZero() || o.DateText != "" }

// wordBag counts the lower-case words of s.
func wordBag(s string) map[string]int {
	bag := map[string]int{}
	for _, w := range strings.Fields(strings.ToLower(s)) {
		bag[w]++
	}
	return bag
}

// overlap is the share of the smaller bag's words that the other holds.
func overlap(a, b map[string]int) float64 {
	na, nb, common := 0, 0, 0
	for w, c := range a {
		na += c
		common += min(c, b[w])
	}
	for _, c := range b {
		nb += c
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return float64(common) / float64(min(na, nb))
}

// commentScore weighs comments by what they hold: text, author, date.
func commentScore(objs []Object) int {
	n := 0
	for _, o := range objs {
		if o.Content != "" {
			n++
		}
		if o.Author != "" {
			n++
		}
		if !o.Date.IsZero() || o.DateText != "" {
			n++
		}
	}
	return n
}

// ExtractUnleveled extracts a page of an application that no level of
// its type describes: on a forum, the posts mining finds when they are a
// thread's; on a blog or CMS, when the page shows numbered comments (a
// post of a theme whose markup the entry does not know), the page's
// article and its mined comments, as the category's generic type finds
// them; nil otherwise.
func (t *Type) ExtractUnleveled(doc *vdoc.Doc, learned *Extraction) ([]Object, *Extraction) {
	g := Generic(t.Category)
	switch {
	case g == nil:
		return nil, nil
	case t.Category == "forum":
		if posts, x := MineObjects(doc, ForumPost, learned); Thread(posts) {
			return posts, x
		}
		return nil, nil
	case genericRecords[t.Category] != Comment || len(commentRecords(doc.Root)) == 0:
		return nil, nil
	}
	return g.extractGeneric(doc, learned)
}

// Objects applies x alone to doc (an extraction Mine found, say) and
// returns the objects found, replies linked as Extract links them.
func (x *Extraction) Objects(doc *vdoc.Doc) []Object {
	objs, _ := x.run("", "", doc, nil, nil)
	mainReplies(objs)
	return objs
}

// run appends the objects x finds on doc to objs, and its failures to
// fails.
func (x *Extraction) run(typ, level string, doc *vdoc.Doc, objs []Object, fails []Failure) ([]Object, []Failure) {
	records := x.Records.Select(doc.Root)
	if len(records) == 0 {
		return objs, append(fails, Failure{Type: typ, Level: level, Action: "records", Patterns: []string{x.Records.String()}})
	}
	yielded := map[Field]bool{}
	start := len(objs)
	for i, rec := range records {
		o := Object{Kind: x.Object}
		for f, alts := range x.Fields {
			if ExtractField(&o, f, alts, rec.Node, doc) {
				yielded[f] = true
			}
		}
		if o.Content == "" && (o.Kind == ForumPost || o.Kind == Comment) {
			continue // an advertisement or a deleted post in the list
		}
		// A comment is never the page itself: that is its post.
		o.IRI = objectIRI(doc.URL, &o, len(objs) == 0 && o.Kind != Comment, i)
		objs = append(objs, o)
	}
	linkReplies(objs[start:], doc.Base)
	reconcileDates(objs[start:], doc)
	for f, alts := range x.Fields {
		if !yielded[f] && !x.Optional[f] {
			fails = append(fails, Failure{Type: typ, Level: level, Action: "field", Field: f, Patterns: sources(alts)})
		}
	}
	return objs, fails
}

// ExtractField sets field f of o from the first alternative that yields a
// value for record rec of doc, and reports whether one did. Extract runs
// it for every field; adaptation (package kb/adapt) runs it alone to try
// candidate patterns.
func ExtractField(o *Object, f Field, alts []*Pattern, rec *html.Node, doc *vdoc.Doc) bool {
	for _, p := range alts {
		items := p.Select(rec)
		if !p.NodeSet() {
			// A computed string (substring-before(…), concat(…)) stands
			// for one attribute-like value.
			if v := p.Value(rec); v != "" {
				items = []xpath.Item{{Node: rec, Attr: "value()", Value: v}}
			}
		}
		switch f {
		case FieldTags, FieldCategories:
			var vals []string
			for _, it := range items {
				if v := xpath.Collapse(it.Text()); v != "" {
					vals = append(vals, v)
				}
			}
			if len(vals) == 0 {
				continue
			}
			if f == FieldTags {
				o.Tags = vals
			} else {
				o.Categories = vals
			}
			return true
		case FieldDate, FieldModified:
			lang := DocLang(doc.Root, doc.Header)
			for _, it := range items {
				tm, text, ok := itemDate(it, lang, CaptureTime(doc))
				if !ok {
					continue
				}
				if f == FieldDate {
					o.Date, o.DateText = tm, text
				} else {
					o.Modified = tm
				}
				return true
			}
			continue
		}
		if len(items) == 0 {
			continue
		}
		var v string
		if f == FieldContent {
			v = Text(items[0].Node)
			if items[0].Attr != "" {
				v = xpath.Collapse(items[0].Value)
			}
		} else {
			v = xpath.Collapse(items[0].Text())
		}
		if v == "" {
			continue
		}
		switch f {
		case FieldTitle:
			o.Title = v
		case FieldAuthor:
			o.Author = v
		case FieldAuthorURL:
			if u, ok := resolve(doc.Base, v); ok {
				o.AuthorURL = u.String()
			}
		case FieldContent:
			o.Content = v
		case FieldReplyTo:
			o.ReplyTo = v
		case FieldID:
			o.ID = v
		case FieldURL:
			if u, err := doc.Base.Parse(v); err == nil {
				o.IRI = u.String()
			}
		case FieldNote:
			o.Note = v
		case FieldVersionOf:
			if u, err := doc.Base.Parse(v); err == nil {
				o.VersionOf = u.String()
			}
		}
		return true
	}
	return false
}

// itemDate reads a date from a selected node: machine-readable attributes
// first (datetime, content, data-time, title), then the text, its month
// words in the page's language lang, with dates relative to now (the
// capture time).
func itemDate(it xpath.Item, lang string, now time.Time) (time.Time, string, bool) {
	text := xpath.Collapse(it.Text())
	if it.Attr == "" && it.Node.Type == html.ElementNode {
		// Words apart at <br> and blocks: "ann<br>March 4" is no "annmarch".
		text = Text(it.Node)
		if tm, v, ok := attrDate(it.Node, lang); ok {
			if text == "" {
				text = v
			}
			return tm, text, true
		}
	}
	tm, ok := ParseDateAt(text, lang, now)
	if !ok && now.IsZero() && RelativeDate(text) {
		// A date relative to a capture time the page does not carry
		// (a saved file): its text, without a time.
		return time.Time{}, text, true
	}
	return tm, text, ok
}

// objectIRI names an object whose url field did not.
func objectIRI(page *url.URL, o *Object, first bool, i int) string {
	if o.IRI != "" {
		return o.IRI
	}
	u := *page
	u.Fragment, u.RawFragment = "", ""
	switch {
	case o.ID != "":
		u.Fragment = o.ID
	case !first:
		u.Fragment = "object-" + strconv.Itoa(i+1)
	}
	return u.String()
}

// linkReplies turns reply_to values (ids of other records, or URLs) into
// IRIs.
func linkReplies(objs []Object, page *url.URL) {
	byID := map[string]string{}
	for _, o := range objs {
		if o.ID != "" {
			byID[o.ID] = o.IRI
		}
	}
	for i := range objs {
		r := objs[i].ReplyTo
		if r == "" {
			continue
		}
		if iri, ok := byID[r]; ok {
			objs[i].ReplyTo = iri
		} else if u, err := page.Parse(r); err == nil {
			objs[i].ReplyTo = u.String()
		}
	}
}

// mainReplies makes comments without a reply_to answer the page's first
// object (the post they are comments on), and forum posts after the
// first answer the first (the thread's opening post).
func mainReplies(objs []Object) {
	if len(objs) < 2 {
		return
	}
	main := objs[0].IRI
	for i := 1; i < len(objs); i++ {
		o := &objs[i]
		if o.ReplyTo == "" && (o.Kind == Comment || o.Kind == ForumPost && objs[0].Kind == ForumPost) {
			o.ReplyTo = main
		}
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
