package kb

import (
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// themedPost is a WordPress post whose theme lays its comments out in
// markup the knowledge base does not know (no li.comment#comment-N).
const themedPost = `<!DOCTYPE html><html><head><meta name="generator" content="WordPress 6.4">
<title>Spring walk</title></head>
<body class="post-template-default single single-post postid-12">
<article class="post"><h1 class="entry-title">Spring walk</h1>
<span class="byline"><a href="/author/ed/">ed</a></span><time class="entry-date" datetime="2024-03-01T08:00:00Z">1 March</time>
<div class="entry-content"><p>We walked along the river to the old mill and back before lunch.</p></div></article>
<section id="comments">
 <div class="remark" id="r1"><cite class="remark-name"><a href="/people/ann">ann</a></cite>
  <span class="remark-when">2. März 2024, 10:15</span><div class="remark-text"><p>Lovely route, we did it last spring with the dog.</p></div></div>
 <div class="remark" id="r2"><cite class="remark-name"><a href="/people/bob">bob</a></cite>
  <span class="remark-when">3 mars 2024 à 09h00</span><div class="remark-text"><p>Is the path by the mill still closed after the floods?</p></div></div>
 <div class="remark" id="r3"><cite class="remark-name"><a href="/people/cy">cy</a></cite>
  <span class="remark-when">March 4, 2024 7:30 pm</span><div class="remark-text"><p>It opened again last week, and the bridge is new too.</p></div></div>
</section></body></html>`

// TestExtractPageMinesComments: where the knowledge base's comment
// records find nothing, ExtractPage mines the comment section: each
// comment with its author, date (in three languages) and text, answering
// the post. The section is named by its id, or by a part of a compound
// class that a theme or a plugin writes.
func TestExtractPageMinesComments(t *testing.T) {
	for _, section := range []string{`<section id="comments">`, `<section class="post-comments-wrapper">`} {
		t.Run(section, func(t *testing.T) {
			extractThemedPost(t, strings.Replace(themedPost, `<section id="comments">`, section, 1))
		})
	}
}

// extractThemedPost checks the post and comments ExtractPage finds on a
// variant of themedPost.
func extractThemedPost(t *testing.T, page string) {
	doc, err := vdoc.New("http://blog.example/2024/03/spring-walk/", nil, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	det := NewDetector(builtinKB(t), nil).Detect(doc)
	if det.Type == nil || det.Type.ID != "wordpress" || det.Level == nil || det.Level.Name != "post" {
		t.Fatalf("detected %v level %v", det.Type, det.Level)
	}
	objs, _, learned := det.Type.ExtractPage(det.Level, doc, nil)
	if learned == nil {
		t.Error("no extraction learnt for the site's next pages")
	}
	var post *Object
	var comments []Object
	for i, o := range objs {
		switch o.Kind {
		case BlogPost:
			post = &objs[i]
		case Comment:
			comments = append(comments, o)
		}
	}
	if post == nil {
		t.Fatalf("no blog post among %+v", objs)
	}
	want := []struct{ author, date, text string }{
		{"ann", "2024-03-02T10:15:00Z", "Lovely route, we did it last spring with the dog."},
		{"bob", "2024-03-03T09:00:00Z", "Is the path by the mill still closed after the floods?"},
		{"cy", "2024-03-04T19:30:00Z", "It opened again last week, and the bridge is new too."},
	}
	if len(comments) != len(want) {
		t.Fatalf("%d comments, want %d: %+v", len(comments), len(want), comments)
	}
	for i, w := range want {
		c := comments[i]
		wd, _ := time.Parse(time.RFC3339, w.date)
		if c.Author != w.author || !c.Date.Equal(wd) || c.Content != w.text {
			t.Errorf("comment %d: %q %v %q; want %q %v %q", i+1, c.Author, c.Date, c.Content, w.author, wd, w.text)
		}
		if c.ReplyTo != post.IRI || c.IRI == post.IRI || !strings.HasPrefix(c.IRI, post.IRI+"#") {
			t.Errorf("comment %d: IRI %q answers %q; the post is %q", i+1, c.IRI, c.ReplyTo, post.IRI)
		}
	}
}

// TestThreadNeedsNamedAuthors: a thread's posts need two authors named by
// a name; a count or a measure in the author's place ("20℃", "112
// ratings") names no one.
func TestThreadNeedsNamedAuthors(t *testing.T) {
	day := time.Date(2020, 12, 22, 0, 0, 0, 0, time.UTC)
	post := func(author string) Object { return Object{Author: author, Date: day, Content: "some words of a post"} }
	for _, c := range []struct {
		authors []string
		want    bool
	}{
		{[]string{"anna", "3dfan"}, true},
		{[]string{"20℃", "Héctor J. Cruz"}, false},
		{[]string{"", "Michael Humpa"}, false},
		{[]string{"112 Nutzerwertungen", "Michael Humpa", ""}, false},
		{[]string{"anna", "bob", "", "", ""}, true},
	} {
		var objs []Object
		for _, a := range c.authors {
			objs = append(objs, post(a))
		}
		if got := Thread(objs); got != c.want {
			t.Errorf("Thread(authors %q) = %v, want %v", c.authors, got, c.want)
		}
	}
}

// themedThread is a phpBB thread of a theme that places the author and
// the date outside the "p.author" line the entry reads them from.
const themedThread = `<!DOCTYPE html><html><head><title>Boat trailer</title></head>
<body id="phpbb"><div id="page-body">
 <div class="post bg2" id="p11"><div class="inner"><div class="postbody">
  <div class="byline"><a href="./memberlist.php?mode=viewprofile&amp;u=2">ann</a> <time datetime="2024-05-01T08:00:00Z">1 May 2024</time></div>
  <div class="content">Which trailer carries a small sailing boat best on rough roads?</div></div></div></div>
 <div class="post bg1" id="p12"><div class="inner"><div class="postbody">
  <div class="byline"><a href="./memberlist.php?mode=viewprofile&amp;u=3">bob</a> <time datetime="2024-05-02T09:30:00Z">2 May 2024</time></div>
  <div class="content">A galvanised one with rollers, and check the bearings every season.</div></div></div></div>
 <div class="post bg2" id="p13"><div class="inner"><div class="postbody">
  <div class="byline"><a href="./memberlist.php?mode=viewprofile&amp;u=2">ann</a> <time datetime="2024-05-03T18:45:00Z">3 May 2024</time></div>
  <div class="content">Thanks, the rollers made launching much easier this weekend.</div></div></div></div>
</div></body></html>`

// TestExtractPageFillsFields: where an entry's records are found but
// its author and date selectors match nothing (a theme it does not
// know), ExtractPage fills them from the mined records of the same text
// and keeps the mined extraction for the site's next pages, which it
// fills from alone.
func TestExtractPageFillsFields(t *testing.T) {
	doc, err := vdoc.New("http://boats.example/viewtopic.php?t=7", nil, []byte(themedThread))
	if err != nil {
		t.Fatal(err)
	}
	det := NewDetector(builtinKB(t), nil).Detect(doc)
	if det.Type == nil || det.Type.ID != "phpbb" || det.Level == nil || det.Level.Name != "thread" {
		t.Fatalf("detected %v level %v", det.Type, det.Level)
	}
	if objs, _ := det.Type.Extract(det.Level, doc); len(objs) != 3 || objs[0].Author != "" || !objs[0].Date.IsZero() {
		t.Fatalf("the entry alone: %+v, want 3 posts without author and date", objs)
	}
	want := []struct{ author, date string }{{"ann", "2024-05-01T08:00:00Z"}, {"bob", "2024-05-02T09:30:00Z"}, {"ann", "2024-05-03T18:45:00Z"}}
	check := func(objs []Object) {
		t.Helper()
		if len(objs) != len(want) {
			t.Fatalf("%d posts, want %d: %+v", len(objs), len(want), objs)
		}
		for i, w := range want {
			if o := objs[i]; o.Author != w.author || o.Date.UTC().Format(time.RFC3339) != w.date || !strings.Contains(o.AuthorURL, "u=") {
				t.Errorf("post %d: author %q (%s) date %v, want %s %s", i, o.Author, o.AuthorURL, o.Date, w.author, w.date)
			}
		}
	}
	objs, _, learned := det.Type.ExtractPage(det.Level, doc, nil)
	check(objs)
	if learned == nil || learned.Object != ForumPost {
		t.Fatalf("learned %+v, want the mined forum-post extraction", learned)
	}
	again, _, kept := det.Type.ExtractPage(det.Level, doc, learned)
	check(again)
	if kept != learned {
		t.Error("the site's learned extraction was not reused")
	}
}
