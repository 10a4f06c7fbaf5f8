package kb

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// forumShapes are thread templates of engines nobody described: each a
// page around the posts and a post (%[1]d its number, %[2]s author,
// %[3]s date, %[4]s text), with tables, divs or lists, the author before
// or after the text.
var forumShapes = []struct{ name, page, post string }{
	{"table, author left", `<table class="forum">%s</table>`,
		`<tr><td class="left"><a href="/profile.php?id=%[1]d">%[2]s</a><br>Posts: 12</td><td class="right"><div class="when">%[3]s</div><div>%[4]s</div></td></tr>`},
	{"divs, author after text", `<div id="thread">%s</div>`,
		`<div class="entry"><div class="body">%[4]s</div><div class="sig">— <a href="/users/%[2]s">%[2]s</a>, <span>%[3]s</span></div></div>`},
	{"list, header line", `<ul class="msgs">%s</ul>`,
		`<li class="msg"><p class="head"><b class="nick">%[2]s</b> wrote on %[3]s:</p><p>%[4]s</p></li>`},
	{"dl pairs in divs", `<section>%s</section>`,
		`<div class="row"><dl><dt><a href="/member/%[1]d">%[2]s</a></dt><dd><time>%[3]s</time></dd></dl><blockquote class="txt">%[4]s</blockquote></div>`},
	{"profile panel with labels, text classed", `<div id="posts">%s</div>`,
		`<div class="clearfix" id="p%[1]d"><div class="profile"><div class="user-profile-tag">Username</div><div><a class="username" href="/memberlist.php?u=%[1]d">%[2]s</a></div>` +
			`<div>Posts</div><div>7416</div><div>Location</div><div>somewhere far away from here, by the sea</div></div>` +
			`<div class="postbody"><div class="when">%[3]s</div><div class="content">%[4]s</div></div></div>`},
	{"table rows a post, a cell spanning them", `<table>%s</table>`,
		`<tr><td rowspan="3"><p><a href="index.php?user_profile=%[1]d">%[2]s</a></p><p>%[3]s</p></td><td><strong>Pump valve leaks</strong></td></tr>` +
			`<tr><td class="msg">%[4]s</td></tr><tr><td><a href="index.php?reply=%[1]d">Reply</a></td></tr>`},
	// Authors by evidence other than a profile-like path or class; a
	// short text that differs from post to post ("Rank 1") stands
	// first, where a name without evidence would be sought.
	{"schema.org Person in microdata", `<main>%s</main>`,
		`<article class="x"><span class="k">Rank %[1]d</span><section class="y" itemscope itemtype="https://schema.org/Person"><img class="z" src="/a.png"><span itemprop="name">%[2]s</span><span>Level 3</span></section>` +
			`<span class="w">%[3]s</span><div class="v">%[4]s</div></article>`},
	{"profile link by ?u=", `<div class="q">%s</div>`,
		`<div class="r"><span class="k">Rank %[1]d</span> <a href="/index.php?u=%[1]d">%[2]s</a> · <span class="s">%[3]s</span><p class="t">%[4]s</p></div>`},
	{"rel=author", `<div class="q">%s</div>`,
		`<div class="r"><span class="k">Rank %[1]d</span> <a rel="author" href="https://elsewhere.example/%[2]s">%[2]s</a> <span class="s">%[3]s</span><p class="t">%[4]s</p></div>`},
	{"plain name, no evidence but its place", `<div class="q">%s</div>`,
		`<div class="r"><div class="a"><strong>%[2]s</strong></div><div class="b">Member</div><div class="c">%[3]s</div><div class="d">%[4]s</div></div>`},
}

// TestMineForumShapes mines generated threads of every shape with dates
// in several languages and formats (absolute, relative to the capture
// time): every post with its author, date and text, and the generic
// forum type named by the page's records.
func TestMineForumShapes(t *testing.T) {
	capture := time.Date(2024, 5, 20, 12, 0, 0, 0, time.UTC)
	posts := []struct {
		author, date, text string
		want               time.Time
	}{
		{"ann", "Mon Apr 08, 2024 8:48 pm", "Has anyone fitted the new valve to the old pump? Mine leaks at the joint.", time.Date(2024, 4, 8, 20, 48, 0, 0, time.UTC)},
		{"bob", "09.04.2024, 07:15", "Yes, you need the thicker gasket, the thin one never seals properly.", time.Date(2024, 4, 9, 7, 15, 0, 0, time.UTC)},
		{"cy", "3 days ago", "Thanks both, the thicker gasket did it and it has been dry all week.", capture.AddDate(0, 0, -3)},
		{"dee", "yesterday at 10:20", "Good to hear. Remember to tighten it again after the first month.", time.Date(2024, 5, 19, 10, 20, 0, 0, time.UTC)},
	}
	for _, sh := range forumShapes {
		t.Run(sh.name, func(t *testing.T) {
			var b strings.Builder
			for i, p := range posts {
				b.WriteString(fmt.Sprintf(sh.post, i+1, p.author, p.date, p.text))
			}
			page := `<html><head><title>Pump valve leaks</title></head><body><h1>Pump valve leaks</h1>` + fmt.Sprintf(sh.page, b.String()) + `</body></html>`
			h := http.Header{"Date": {capture.Format(http.TimeFormat)}}
			doc, err := vdoc.New("http://pumps.example/t/42", h, []byte(page))
			if err != nil {
				t.Fatal(err)
			}
			det, got := NewDetector(&KB{}, nil).PageObjects(doc)
			if det.Category() != "forum" {
				t.Errorf("category %q, want forum", det.Category())
			}
			if len(got) != len(posts) {
				t.Fatalf("%d posts, want %d: %+v", len(got), len(posts), got)
			}
			for i, w := range posts {
				g := got[i]
				if g.Author != w.author || !g.Date.Equal(w.want) || g.Content != w.text {
					t.Errorf("post %d: %q %v %q; want %q %v %q", i+1, g.Author, g.Date, g.Content, w.author, w.want, w.text)
				}
			}
		})
	}
}
