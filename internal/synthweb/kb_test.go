package synthweb

import (
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// TestKBRecognizesDemo checks the demo sites against mneme's knowledge
// base of web applications: each page is detected as the application it
// imitates, at the level its URL implies, and the extraction rules find
// the posts, comments, authors and dates the site generated.
func TestKBRecognizesDemo(t *testing.T) {
	d := startDemo(t)
	k, err := kb.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	det := kb.NewDetector(k, nil)
	bl := newBlog(d.Bases)
	post := bl.posts[0]
	for _, p := range bl.posts {
		if len(p.Comments) > 0 && len(p.Comments[0].Children) > 0 {
			post = p
			break
		}
	}
	cases := []struct {
		url, app, level string
	}{
		{d.Blog + "/", "wordpress", "list"},
		{d.Blog + "/page/2/", "wordpress", "list"},
		{d.Blog + "/tag/owls/", "wordpress", "list"},
		{post.URL, "wordpress", "post"},
		{d.Blog + "/about/", "wordpress", "page"},
		{d.Forum + "/index.php", "phpbb", "index"},
		{d.Forum + "/viewforum.php?f=2", "phpbb", "forum"},
		{d.Forum + "/viewtopic.php?t=101", "phpbb", "thread"},
		{d.Wiki + "/wiki/Grey_Heron", "mediawiki", "article"},
		{d.Wiki + "/wiki/Special:AllPages", "mediawiki", "special"},
	}
	for _, c := range cases {
		p := fetch(t, c.url)
		doc, err := vdoc.New(c.url, p.header, p.body)
		if err != nil {
			t.Fatal(err)
		}
		got := det.Detect(doc)
		if got.App() != c.app || got.Level == nil || got.Level.Name != c.level {
			level := "none"
			if got.Level != nil {
				level = got.Level.Name
			}
			t.Errorf("%s: detected %q at level %s, want %q at %s", c.url, got.App(), level, c.app, c.level)
			continue
		}
		objs, fails := got.Type.Extract(got.Level, doc)
		switch c.level {
		case "post":
			if len(fails) > 0 {
				t.Errorf("%s: extraction failures %+v", c.url, fails)
			}
			var comments, replies int
			for _, o := range objs {
				switch o.Kind {
				case "blog-post":
					if o.Title != post.Title || o.Author != post.Author.Name || !o.Date.Equal(post.Date) || len(o.Tags) != len(post.Tags) {
						t.Errorf("%s: post extracted as %q by %q on %v with tags %v", c.url, o.Title, o.Author, o.Date, o.Tags)
					}
				case "comment":
					comments++
					if o.ReplyTo != "" {
						replies++
					}
				}
			}
			if comments != post.NComments || replies == 0 {
				t.Errorf("%s: %d comments (%d replies) extracted, want %d with replies", c.url, comments, replies, post.NComments)
			}
		case "thread":
			topic := newForum(d.Bases).topics[101]
			n := 0
			for _, o := range objs {
				if o.Kind == "forum-post" {
					if o.Author == "" || o.Date.IsZero() || o.Content == "" {
						t.Errorf("%s: forum post without author, date or content: %+v", c.url, o)
					}
					n++
				}
			}
			if n != min(len(topic.Posts), forumPerPage) {
				t.Errorf("%s: %d forum posts extracted, want %d", c.url, n, min(len(topic.Posts), forumPerPage))
			}
		case "article":
			if len(objs) != 1 || objs[0].Title != "Grey Heron" || len(objs[0].Categories) == 0 || !strings.Contains(objs[0].Content, "Fenwick Valley") {
				t.Errorf("%s: extracted %+v", c.url, objs)
			}
		}
	}
}
