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
// the post.
func TestExtractPageMinesComments(t *testing.T) {
	doc, err := vdoc.New("http://blog.example/2024/03/spring-walk/", nil, []byte(themedPost))
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
