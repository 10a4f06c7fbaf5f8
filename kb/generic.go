package kb

import (
	"strings"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/mneme-archive/mneme/kb/vdoc"
	"github.com/mneme-archive/mneme/kb/xpath"
)

// Generic application types stand for a category when the application is
// named (by a fingerprint, say) but the knowledge base has no entry for
// it, or when specific entries are switched off: one terminal level for
// every page, whose objects are found without patterns (the page's
// article, and the records Mine finds), the category's avoid patterns,
// and every other link followed.

// genericAvoid are links no crawl of the category needs: accounts,
// editing, search, printing and feeds, as any engine of it spells them.
var genericAvoid = map[string][]string{
	"": {
		"/http/url[contains(., 'login')]", "/http/url[contains(., 'logout')]",
		"/http/url[contains(., 'register')]", "/http/url[contains(., 'signup')]",
		"/http/url[contains(., 'wp-login.php')]", "/http/url[contains(., 'replytocom=')]",
		"/http/url[contains(., 'print=')]", "/http/url[contains(., '/feed')]",
		"/http/url[contains(., 'share=')]", "/http/url[contains(., 'search')]",
	},
	"forum": {
		"/http/url[contains(., 'posting.php')]", "/http/url[contains(., 'newreply')]",
		"/http/url[contains(., 'mode=quote')]", "/http/url[contains(., 'action=post')]",
		"/http/url[contains(., '/reply')]", "/http/url[contains(., 'report')]",
		"/http/url[contains(., 'memberlist')]", "/http/url[contains(., '/members/')]",
	},
	"wiki": {
		"/http/url[contains(., 'action=edit')]", "/http/url[contains(., 'action=history')]",
		"/http/url[contains(., 'oldid=')]", "/http/url[contains(., 'diff=')]",
		"/http/url[contains(., 'do=edit')]", "/http/url[contains(., 'do=revisions')]",
		"/http/url[contains(., 'Special:')]",
	},
}

// Categories' object kinds: what a generic page yields besides its
// article.
var genericRecords = map[string]ObjectKind{"forum": ForumPost, "blog": Comment, "cms": Comment}

var genericTypes = func() map[string]*Type {
	out := map[string]*Type{}
	always := mustPattern("/http/url")
	for _, c := range categories {
		t := &Type{ID: "generic-" + c, Name: "generic " + c, Category: c, Generic: true, File: "kb/generic.go"}
		for _, src := range append(genericAvoid[""], genericAvoid[c]...) {
			t.Avoid = append(t.Avoid, mustPattern(src))
		}
		t.Levels = []*Level{{Name: "page", Terminal: true, Detect: []*Pattern{always}}}
		out[c] = t
	}
	return out
}()

func mustPattern(src string) *Pattern {
	e, err := xpath.Compile(src)
	if err != nil {
		panic(err)
	}
	return &Pattern{Expr: e}
}

// Generic returns the generic type of a category (blog, forum, wiki or
// cms), nil for another.
func Generic(category string) *Type { return genericTypes[category] }

// genericByID resolves a generic type's ID, for sites read back by ID.
func genericByID(id string) *Type {
	if c, ok := strings.CutPrefix(id, "generic-"); ok {
		return genericTypes[c]
	}
	return nil
}

// extractGeneric finds a generic page's objects: its article (except on
// a forum, whose posts are the records) and its records, mined or by the
// site's learned extraction when that still finds them.
func (t *Type) extractGeneric(doc *vdoc.Doc, learned *Extraction) ([]Object, *Extraction) {
	var objs []Object
	if t.Category != "forum" {
		if a, ok := Article(doc, t.Category); ok {
			objs = append(objs, a)
		}
	}
	kind, ok := genericRecords[t.Category]
	if !ok {
		return objs, nil
	}
	recs, x := MineObjects(doc, kind, learned)
	if len(recs) == 0 && kind == Comment {
		// A forum under a CMS's name (a community module, say): its
		// posts when they are a thread's.
		if posts, px := MineObjects(doc, ForumPost, learned); Thread(posts) {
			return posts, px
		}
	}
	if len(objs) > 0 {
		for i := range recs {
			if recs[i].ReplyTo == "" || recs[i].ReplyTo == recs[0].IRI && kind == Comment {
				recs[i].ReplyTo = objs[0].IRI
			}
		}
	}
	return append(objs, recs...), x
}

// MineObjects applies learned (a site's earlier mined extraction) to doc
// and, when it finds nothing, mines doc afresh; it returns the objects
// and the extraction that found them (nil when none did). Comments are
// mined within the page's comment section when it has one.
func MineObjects(doc *vdoc.Doc, kind ObjectKind, learned *Extraction) ([]Object, *Extraction) {
	if learned != nil && learned.Object == kind {
		if objs := learned.Objects(doc); len(objs) > 0 {
			return objs, learned
		}
	}
	x := Mine(doc, kind, CaptureTime(doc))
	if x == nil {
		return nil, nil
	}
	return x.Objects(doc), x
}

// Article is a page's main object for a category: a blog post or a page
// (a wiki article on a wiki), with its title (og:title, the first <h1>,
// <title>), author (meta author, rel=author, JSON-LD), date (PageDate)
// and text (the <article>, <main> or the body's largest text block).
func Article(doc *vdoc.Doc, category string) (Object, bool) {
	o := Object{Kind: WebPage, IRI: objectIRI(doc.URL, &Object{}, true, 0)}
	switch category {
	case "blog":
		o.Kind = BlogPost
	case "wiki":
		o.Kind = WikiArticle
	}
	o.Title = firstValue(doc, "//meta[@property='og:title']/@content", "//h1", "//title")
	o.Author = firstValue(doc, "//meta[@name='author']/@content", "//*[@rel='author']", "//*[@itemprop='author']//*[@itemprop='name']", "//*[@itemprop='author']")
	o.Date = PageDate(doc)
	if !o.Date.IsZero() {
		o.DateText = o.Date.Format(time.RFC3339)
	}
	if n := mainBlock(doc); n != nil {
		o.Content = Text(n)
	}
	return o, o.Title != "" || o.Content != ""
}

func firstValue(doc *vdoc.Doc, srcs ...string) string {
	for _, s := range srcs {
		if it, ok := mustPattern(s).First(doc.Root); ok {
			if v := xpath.Collapse(it.Text()); v != "" {
				return v
			}
		}
	}
	return ""
}

// mainBlock is the page's <article>, else <main>, else the element of
// the body whose own paragraphs hold the most text.
func mainBlock(doc *vdoc.Doc) *html.Node {
	for _, a := range []atom.Atom{atom.Article, atom.Main} {
		if ns := doc.Elements(a.String()); len(ns) > 0 {
			return ns[0]
		}
	}
	var best *html.Node
	bestLen := 0
	for _, p := range doc.Elements("p") {
		if p.Parent == nil {
			continue
		}
		if n := len(Text(p.Parent)); n > bestLen {
			best, bestLen = p.Parent, n
		}
	}
	return best
}

// PageObjects runs on one page, without a site's history, the detection
// and extraction the application-aware crawl runs: the application's type
// and the page's level, then ExtractPage on a terminal level; on a page
// of no known application, mining for a forum thread's records, which
// names the generic forum type when it finds them.
func (d *Detector) PageObjects(doc *vdoc.Doc) (*Detection, []Object) {
	det := d.Detect(doc)
	if det.Type == nil {
		objs, _ := MineObjects(doc, ForumPost, nil)
		if !Thread(objs) {
			return det, nil
		}
		det.Type = Generic("forum")
		det.Level = det.Type.Levels[0]
		return det, objs
	}
	if det.Level == nil {
		objs, _ := det.Type.ExtractUnleveled(doc, nil)
		return det, objs
	}
	if !det.Level.Terminal {
		return det, nil
	}
	objs, _, _ := det.Type.ExtractPage(det.Level, doc, nil)
	return det, objs
}
