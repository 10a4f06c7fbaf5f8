package synthweb

import (
	"fmt"
	"html"
	"html/template"
	"strings"
	"time"
)

// The blog's model: built once by newBlog, rendered by the handlers.

type blogPost struct {
	ID         int
	Title      string
	Slug       string
	Author     person
	Date       time.Time
	Modified   time.Time
	Category   term
	Tags       []term
	Paragraphs []template.HTML
	Excerpt    string
	Comments   []*blogComment // top level, replies nested
	NComments  int
	Image      string // path of the featured image
	URL        string // permalink
	Prev, Next *blogPost
}

type blogComment struct {
	ID       int
	Author   person
	URL      string // the commenter's site, "" when none
	Date     time.Time
	Text     string
	Depth    int
	Children []*blogComment
	PostURL  string
}

// term is a category, tag or author archive of the blog.
type term struct {
	Name string
	Slug string
	URL  string
}

var (
	blogCategories = []string{"Sightings", "Walks", "Conservation", "Photography", "Gear"}
	blogTags       = []string{"kingfisher", "owls", "waders", "migration", "winter", "spring",
		"nesting", "reedbeds", "woodland", "volunteering", "rain", "dawn chorus"}
)

const (
	blogPosts        = 48
	blogPostsPerPage = 5
)

type blog struct {
	bases      Bases
	base       string
	posts      []*blogPost // newest first
	bySlug     map[string]*blogPost
	authors    []term
	categories []term
	tags       []term
	recent     []*blogComment
	months     []monthArchive
}

type monthArchive struct {
	Year  int
	Month time.Month
	Name  string
	URL   string
}

func newBlog(b Bases) *blog {
	bl := &blog{bases: b, base: b.Blog, bySlug: map[string]*blogPost{}}
	r := rng("blog", "people")
	authors := people(r, 3)
	commenters := people(rng("blog", "commenters"), 14)
	for _, a := range authors {
		bl.authors = append(bl.authors, term{a.Name, a.Slug, bl.base + "/author/" + a.Slug + "/"})
	}
	for _, c := range blogCategories {
		bl.categories = append(bl.categories, term{c, slug(c), bl.base + "/category/" + slug(c) + "/"})
	}
	for _, t := range blogTags {
		bl.tags = append(bl.tags, term{t, slug(t), bl.base + "/tag/" + slug(t) + "/"})
	}
	date := time.Date(2023, 1, 4, 7, 30, 0, 0, time.UTC)
	commentID := 1
	var chrono []*blogPost
	for i := range blogPosts {
		r := rng("blog", "post", fmt.Sprint(i))
		g := textGen{r}
		date = date.Add(time.Duration(5+r.IntN(8))*24*time.Hour + time.Duration(r.IntN(600))*time.Minute)
		p := &blogPost{ID: 10 + i*3, Title: g.title(), Date: date, Author: authors[r.IntN(len(authors))]}
		p.Slug = slug(p.Title)
		for n := 2; bl.bySlug[p.Slug] != nil; n++ {
			p.Slug = slug(p.Title) + fmt.Sprintf("-%d", n)
		}
		bl.bySlug[p.Slug] = p
		p.URL = fmt.Sprintf("%s/%04d/%02d/%02d/%s/", bl.base, date.Year(), date.Month(), date.Day(), p.Slug)
		p.Modified = date
		if r.IntN(3) == 0 {
			p.Modified = date.Add(time.Duration(1+r.IntN(200)) * time.Hour)
		}
		p.Category = bl.categories[r.IntN(len(bl.categories))]
		for _, k := range r.Perm(len(bl.tags))[:2+r.IntN(3)] {
			p.Tags = append(p.Tags, bl.tags[k])
		}
		p.Image = fmt.Sprintf("/wp-content/uploads/%04d/%02d/%s-1024x683.png", date.Year(), date.Month(), p.Slug)
		for j := range 4 + r.IntN(4) {
			text := html.EscapeString(g.paragraph(3 + r.IntN(4)))
			if j == 1 || j == 3 {
				// Cross-site links, as a birder would cite the wiki and the forum.
				w := pick(r, wikiTitles)
				text += fmt.Sprintf(` More about the <a href="%s">%s</a> on the valley wiki.`, html.EscapeString(wikiURL(b.Wiki, w)), html.EscapeString(w))
			}
			if j == 2 && r.IntN(2) == 0 {
				t := r.IntN(forumTopicCount)
				text += fmt.Sprintf(` There is a <a href="%s/viewtopic.php?t=%d">thread about it on the forum</a>.`, b.Forum, forumTopicID(t))
			}
			p.Paragraphs = append(p.Paragraphs, template.HTML("<p>"+text+"</p>"))
			if j == 0 {
				p.Excerpt = g.paragraph(1)
			}
		}
		// Comments: some answer an earlier comment, as threaded replies.
		var all []*blogComment
		at := date
		for range r.IntN(9) {
			at = at.Add(time.Duration(20+r.IntN(3000)) * time.Minute)
			c := &blogComment{ID: commentID, Author: pick(r, commenters), Date: at, Text: g.paragraph(1 + r.IntN(3)), PostURL: p.URL}
			commentID++
			if r.IntN(3) == 0 {
				c.URL = fmt.Sprintf("%s/memberlist.php?mode=viewprofile&u=%d", b.Forum, 2+r.IntN(forumMembers))
			}
			if len(all) > 0 && r.IntN(5) < 2 {
				parent := all[r.IntN(len(all))]
				if parent.Depth < 4 {
					c.Depth = parent.Depth + 1
					parent.Children = append(parent.Children, c)
					all = append(all, c)
					continue
				}
			}
			c.Depth = 1
			p.Comments = append(p.Comments, c)
			all = append(all, c)
		}
		p.NComments = len(all)
		bl.recent = append(bl.recent, all...)
		chrono = append(chrono, p)
	}
	for i, p := range chrono {
		if i > 0 {
			p.Prev = chrono[i-1]
		}
		if i+1 < len(chrono) {
			p.Next = chrono[i+1]
		}
	}
	for i := len(chrono) - 1; i >= 0; i-- {
		bl.posts = append(bl.posts, chrono[i])
	}
	for _, p := range bl.posts {
		y, m, _ := p.Date.Date()
		if n := len(bl.months); n == 0 || bl.months[n-1].Year != y || bl.months[n-1].Month != m {
			bl.months = append(bl.months, monthArchive{y, m, fmt.Sprintf("%s %d", m, y), fmt.Sprintf("%s/%04d/%02d/", bl.base, y, m)})
		}
	}
	if n := len(bl.recent); n > 5 {
		bl.recent = bl.recent[n-5:]
	}
	return bl
}

// filter returns the posts (newest first) for which keep is true.
func (bl *blog) filter(keep func(*blogPost) bool) []*blogPost {
	var out []*blogPost
	for _, p := range bl.posts {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}

func findTerm(ts []term, s string) (term, bool) {
	for _, t := range ts {
		if t.Slug == s {
			return t, true
		}
	}
	return term{}, false
}

func hasTerm(ts []term, s string) bool {
	_, ok := findTerm(ts, s)
	return ok
}

// wpDate is WordPress's default date format, "March 14, 2024".
func wpDate(t time.Time) string { return t.Format("January 2, 2006") }

// wpTime is "10:22 am".
func wpTime(t time.Time) string { return strings.ToLower(t.Format("3:04 PM")) }
