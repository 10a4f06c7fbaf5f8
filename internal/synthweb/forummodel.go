package synthweb

import (
	"fmt"
	"html"
	"html/template"
	"time"
)

// The forum's model: built once by newForum, rendered by the handlers.

const (
	forumTopicCount    = 40
	forumMembers       = 24 // user ids 2..25, as phpBB's first user is the admin
	forumPerPage       = 10 // topics per forum page and posts per topic page
	forumFirstTopicID  = 101
	forumFirstPostID   = 1001
	forumSessionCookie = "phpbb3_fvn_sid"
)

func forumTopicID(i int) int { return forumFirstTopicID + i }

type forumMember struct {
	ID     int
	Name   string
	Joined time.Time
	Rank   string
	Posts  int
	Site   string // a blog author's archive page, "" for others
}

type forumDef struct {
	ID     int
	Name   string
	Desc   string
	Topics []*forumTopic // newest first
	Posts  int
}

type forumTopic struct {
	ID    int
	Title string
	Forum *forumDef
	Posts []*forumPost
	Views int
}

type forumPost struct {
	ID      int
	Topic   *forumTopic
	Title   string
	Author  *forumMember
	Date    time.Time
	Quote   *forumPost // the post it quotes, nil when none
	Content template.HTML
}

type forum struct {
	bases   Bases
	base    string
	forums  []*forumDef
	topics  map[int]*forumTopic
	posts   map[int]*forumPost
	members map[int]*forumMember
}

var forumDefs = []struct{ name, desc string }{
	{"Sightings", "What you saw, where and when."},
	{"Site guides", "Access, parking and the best hides around the valley."},
	{"Gear and photography", "Binoculars, scopes, cameras and how to use them."},
	{"Conservation work", "Work parties, surveys and news from the wardens."},
}

func newForum(b Bases) *forum {
	f := &forum{bases: b, base: b.Forum, topics: map[int]*forumTopic{}, posts: map[int]*forumPost{}, members: map[int]*forumMember{}}
	ranks := []string{"New member", "Regular", "Regular", "Old hand", "Site warden"}
	// The blog's authors are members too, under the same names.
	names := people(rng("blog", "people"), 3)
	for _, p := range people(rng("forum", "people"), 40) {
		if len(names) == forumMembers {
			break
		}
		if p.Name != names[0].Name && p.Name != names[1].Name && p.Name != names[2].Name {
			names = append(names, p)
		}
	}
	for i, p := range names {
		r := rng("forum", "member", p.Name)
		m := &forumMember{ID: 2 + i, Name: p.Name, Rank: pick(r, ranks),
			Joined: time.Date(2019+r.IntN(4), time.Month(1+r.IntN(12)), 1+r.IntN(28), r.IntN(24), r.IntN(60), 0, 0, time.UTC)}
		if i < 3 {
			m.Site = b.Blog + "/author/" + p.Slug + "/"
		}
		f.members[m.ID] = m
	}
	for i, d := range forumDefs {
		f.forums = append(f.forums, &forumDef{ID: 2 + i, Name: d.name, Desc: d.desc})
	}
	postID := forumFirstPostID
	for i := range forumTopicCount {
		r := rng("forum", "topic", fmt.Sprint(i))
		g := textGen{r}
		fd := f.forums[r.IntN(len(f.forums))]
		t := &forumTopic{ID: forumTopicID(i), Title: g.title(), Forum: fd, Views: 40 + r.IntN(2000)}
		at := time.Date(2023, 2, 1, 8, 0, 0, 0, time.UTC).Add(time.Duration(i*11+r.IntN(9)) * 24 * time.Hour)
		for j := range 1 + r.IntN(26) {
			at = at.Add(time.Duration(10+r.IntN(1500)) * time.Minute)
			p := &forumPost{ID: postID, Topic: t, Date: at, Author: f.members[2+r.IntN(forumMembers)], Title: "Re: " + t.Title}
			postID++
			if j == 0 {
				p.Title = t.Title
			} else if r.IntN(4) == 0 {
				p.Quote = t.Posts[r.IntN(len(t.Posts))]
			}
			text := html.EscapeString(g.paragraph(1+r.IntN(3))) + "<br>\n<br>\n" + html.EscapeString(g.paragraph(1+r.IntN(2)))
			switch r.IntN(5) {
			case 0:
				w := pick(r, wikiTitles)
				text += fmt.Sprintf(`<br>
<br>
See <a href="%s" class="postlink">%s</a> on the wiki.`, html.EscapeString(wikiURL(b.Wiki, w)), html.EscapeString(w))
			case 1:
				text += fmt.Sprintf(`<br>
<br>
Margaret wrote it up on <a href="%s/?p=%d" class="postlink">the blog</a>.`, b.Blog, 10+3*r.IntN(blogPosts))
			}
			p.Content = template.HTML(text)
			p.Author.Posts++
			t.Posts = append(t.Posts, p)
			f.posts[p.ID] = p
		}
		fd.Topics = append([]*forumTopic{t}, fd.Topics...)
		fd.Posts += len(t.Posts)
		f.topics[t.ID] = t
	}
	return f
}

// Last is the topic's last post.
func (t *forumTopic) Last() *forumPost { return t.Posts[len(t.Posts)-1] }

// Replies is the number of answers to the first post.
func (t *forumTopic) Replies() int { return len(t.Posts) - 1 }

// Pages is how many pages the topic spans.
func (t *forumTopic) Pages() []int {
	var out []int
	for s := 0; s < len(t.Posts); s += forumPerPage {
		out = append(out, s)
	}
	return out
}

// Last is the forum's most recent post.
func (d *forumDef) Last() *forumPost {
	var last *forumPost
	for _, t := range d.Topics {
		if p := t.Last(); last == nil || p.Date.After(last.Date) {
			last = p
		}
	}
	return last
}

// phpbbDate is prosilver's default date format, "Thu Mar 14, 2024 10:22 am".
func phpbbDate(t time.Time) string { return t.Format("Mon Jan 02, 2006 ") + wpTime(t) }
