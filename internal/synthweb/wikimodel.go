package synthweb

import (
	"fmt"
	"html"
	"html/template"
	"net/url"
	"strings"
	"time"
)

// The wiki's model: built once by newWiki, rendered by the handlers.

// wikiTitles are the wiki's articles (besides the main page).
var wikiTitles = func() []string {
	var t []string
	t = append(t, birds...)
	t = append(t, places...)
	return append(t, plants...)
}()

// wikiKey is a title as MediaWiki writes it in URLs: spaces as underscores.
func wikiKey(title string) string { return strings.ReplaceAll(title, " ", "_") }

func wikiURL(base, title string) string { return base + "/wiki/" + wikiKey(title) }

// missingTitles are linked from articles but do not exist: red links.
var missingTitles = []string{"Otter", "Water Vole", "Fenwick Mill", "Common Tern", "Black Poplar", "Heron Survey 2022"}

type wikiArticle struct {
	Title  string
	Key    string
	Cats   []string
	Blocks []template.HTML // lead paragraphs, headings and sections, in order
	Revs   []*wikiRev      // oldest first
}

type wikiRev struct {
	ID      int
	Parent  int // 0 for the first revision
	Article *wikiArticle
	User    string
	Time    time.Time
	Size    int
	Comment string
	Minor   bool
	Blocks  int // how many of the article's blocks this revision has
}

type wiki struct {
	bases    Bases
	base     string
	articles map[string]*wikiArticle // by key
	order    []*wikiArticle          // by title
	revs     map[int]*wikiRev
	editors  []string
	cats     map[string][]*wikiArticle
	catOrder []string
}

var editSummaries = []string{"Created page", "added sightings", "copyedit", "/* Where to see it in the valley */ new site",
	"/* Records */ update", "fixed link", "added category", "Reverted edits by vandal", "expanded description", "typo"}

func newWiki(b Bases) *wiki {
	wk := &wiki{bases: b, base: b.Wiki, articles: map[string]*wikiArticle{}, revs: map[int]*wikiRev{}, cats: map[string][]*wikiArticle{}}
	for _, p := range people(rng("wiki", "editors"), 12) {
		wk.editors = append(wk.editors, strings.ReplaceAll(p.Name, " ", ""))
	}
	revID := 2001
	for i, title := range append([]string{"Main Page"}, wikiTitles...) {
		r := rng("wiki", "article", title)
		g := textGen{r}
		a := &wikiArticle{Title: title, Key: wikiKey(title)}
		link := func(t string) string {
			return fmt.Sprintf(`<a href="/wiki/%s" title="%s">%s</a>`, url.PathEscape(wikiKey(t)), html.EscapeString(t), html.EscapeString(t))
		}
		if title == "Main Page" {
			a.Blocks = append(a.Blocks, template.HTML("<p>Welcome to the <b>Fenwick Valley Wiki</b>, the field guide to the valley's birds, places and plants that anyone can edit.</p>"))
			for _, group := range []struct {
				name   string
				titles []string
			}{{"Birds", birds}, {"Places", places}, {"Plants", plants}} {
				var li []string
				for _, t := range group.titles {
					li = append(li, "<li>"+link(t)+"</li>")
				}
				a.Blocks = append(a.Blocks, template.HTML(fmt.Sprintf(`<h2><span class="mw-headline" id="%s">%s</span></h2>
<ul>%s</ul>`, group.name, group.name, strings.Join(li, ""))))
			}
			a.Cats = []string{"Fenwick Valley Wiki"}
		} else {
			kind := "Birds"
			switch {
			case i > len(birds)+len(places):
				kind = "Plants"
			case i > len(birds):
				kind = "Places"
			}
			a.Cats = []string{kind}
			if kind == "Birds" {
				a.Cats = append(a.Cats, pick(r, []string{"Resident birds", "Summer visitors", "Winter visitors", "Passage migrants"}))
			}
			lead := g.paragraph(2)
			a.Blocks = append(a.Blocks, template.HTML(fmt.Sprintf("<p>The <b>%s</b> is a %s of the Fenwick Valley. %s</p>", html.EscapeString(title), strings.ToLower(strings.TrimSuffix(kind, "s")), html.EscapeString(lead))))
			for s, head := range []string{"Description", "Where to see it in the valley", "Records", "See also"} {
				id := wikiKey(head)
				a.Blocks = append(a.Blocks, template.HTML(fmt.Sprintf(`<h2><span class="mw-headline" id="%s">%s</span><span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="/w/index.php?title=%s&amp;action=edit&amp;section=%d" title="Edit section: %s">edit</a><span class="mw-editsection-bracket">]</span></span></h2>`,
					id, head, url.QueryEscape(a.Key), s+1, head)))
				if head == "See also" {
					var li []string
					for range 3 {
						li = append(li, "<li>"+link(pick(r, wikiTitles))+"</li>")
					}
					li = append(li, fmt.Sprintf(`<li><a href="%s/tag/%s/" class="external text" rel="nofollow">Posts on the valley blog</a></li>`, b.Blog, slug(pick(r, blogTags))))
					a.Blocks = append(a.Blocks, template.HTML("<ul>"+strings.Join(li, "")+"</ul>"))
					continue
				}
				for range 1 + r.IntN(3) {
					text := html.EscapeString(g.paragraph(2 + r.IntN(3)))
					text += " See also " + link(pick(r, wikiTitles)) + " and " + link(pick(r, wikiTitles)) + "."
					if r.IntN(3) == 0 {
						m := pick(r, missingTitles)
						text += fmt.Sprintf(` The <a href="/w/index.php?title=%s&amp;action=edit&amp;redlink=1" class="new" title="%s (page does not exist)">%s</a> is mentioned in old records.`, url.QueryEscape(wikiKey(m)), html.EscapeString(m), html.EscapeString(m))
					}
					if r.IntN(3) == 0 {
						text += fmt.Sprintf(` A <a rel="nofollow" class="external text" href="%s/viewtopic.php?t=%d">forum thread</a> has recent reports.`, b.Forum, forumTopicID(r.IntN(forumTopicCount)))
					}
					a.Blocks = append(a.Blocks, template.HTML("<p>"+text+"</p>"))
				}
			}
		}
		// Revisions grow the article block by block.
		n := 2 + r.IntN(7)
		at := time.Date(2021, 1, 10, 9, 0, 0, 0, time.UTC).Add(time.Duration(i*97+r.IntN(90)) * time.Hour)
		for k := range n {
			at = at.Add(time.Duration(24+r.IntN(24*60)) * time.Hour)
			rev := &wikiRev{ID: revID, Article: a, User: pick(r, wk.editors), Time: at, Comment: pick(r, editSummaries[1:]), Minor: r.IntN(4) == 0,
				Blocks: max(1, (len(a.Blocks)*(k+1)+n-1)/n)}
			if k == 0 {
				rev.Comment = editSummaries[0]
			} else {
				rev.Parent = a.Revs[k-1].ID
			}
			for _, bl := range a.Blocks[:rev.Blocks] {
				rev.Size += len(bl)
			}
			revID += 1 + r.IntN(5)
			a.Revs = append(a.Revs, rev)
			wk.revs[rev.ID] = rev
		}
		wk.articles[a.Key] = a
		wk.order = append(wk.order, a)
		for _, c := range a.Cats {
			if wk.cats[c] == nil {
				wk.catOrder = append(wk.catOrder, c)
			}
			wk.cats[c] = append(wk.cats[c], a)
		}
	}
	return wk
}

// Latest is the article's current revision.
func (a *wikiArticle) Latest() *wikiRev { return a.Revs[len(a.Revs)-1] }

// prev and next are the neighbouring revisions of r, nil at the ends.
func (r *wikiRev) prev() *wikiRev { return r.Article.at(r, -1) }
func (r *wikiRev) next() *wikiRev { return r.Article.at(r, 1) }

func (a *wikiArticle) at(r *wikiRev, d int) *wikiRev {
	for i, x := range a.Revs {
		if x == r && i+d >= 0 && i+d < len(a.Revs) {
			return a.Revs[i+d]
		}
	}
	return nil
}

// mwDate is MediaWiki's default date format, "14:02, 3 March 2024".
func mwDate(t time.Time) string { return t.Format("15:04, 2 January 2006") }
