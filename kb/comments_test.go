package kb

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// commentShapes are comment lists as themes lay them out, each a
// template of one comment (%[1]d its number, %[2]s author, %[3]s date,
// %[4]s text, %[5]s the replies nested under it) and of the list around
// the comments: numbered by ids, by reply links alone, in tables, with
// the author after the text.
var commentShapes = []struct{ name, list, one string }{
	{"classic nested list", `<div id="comments"><h3 id="comments-title">3 replies</h3><ol class="commentlist">%s</ol></div>`,
		`<li class="comment" id="li-comment-%[1]d"><article id="comment-%[1]d" class="comment"><footer><div class="comment-author vcard"><cite class="fn">%[2]s</cite> <span class="says">says:</span></div><a href="#comment-%[1]d">%[3]s</a></footer><div class="comment-content"><p>%[4]s</p></div></article>%[5]s</li>`},
	{"reply links only", `<section class="talk"><h2>What readers say</h2>%s</section><form id="commentform" action="/wp-comments-post.php"><textarea name="comment"></textarea></form>`,
		`<div class="talk-item"><p class="talk-text">%[4]s</p><div class="talk-foot"><span class="talk-author">%[2]s</span> · <span>%[3]s</span> <a href="?replytocom=%[1]d#respond">Reply</a></div>%[5]s</div>`},
	{"table rows", `<table class="responses">%s</table>`,
		`<tr id="comment_%[1]d"><td><a href="/members/%[2]s">%[2]s</a><br>%[3]s</td><td>%[4]s</td></tr>%[5]s`},
}

// TestCommentsByEvidence mines comment lists of several shapes, none of
// which the knowledge base describes, on a post of a blog named only by
// its category: every comment, nested replies included, with its
// author, its date (absolute in two languages, relative to the capture
// time) and its text.
func TestCommentsByEvidence(t *testing.T) {
	type c struct {
		author, date, text string
		want               time.Time
	}
	capture := time.Date(2024, 5, 20, 12, 0, 0, 0, time.UTC)
	comments := []c{
		{"ann", "March 4, 2024 7:30 pm", "Lovely route, we did it last spring with the dog.", time.Date(2024, 3, 4, 19, 30, 0, 0, time.UTC)},
		{"bob", "3 days ago", "Is the path by the mill still closed after the floods?", capture.AddDate(0, 0, -3)},
		{"cy", "12. Mai 2024, 09:05", "It opened again last week, and the bridge is new too.", time.Date(2024, 5, 12, 9, 5, 0, 0, time.UTC)},
	}
	for _, sh := range commentShapes {
		t.Run(sh.name, func(t *testing.T) {
			var b strings.Builder
			for i, cm := range comments {
				nested := ""
				if i == 1 && strings.Contains(sh.one, "<li") {
					// the third comment answers the second, nested
					cm3 := comments[2]
					nested = `<ol class="children">` + fmt.Sprintf(sh.one, 103, cm3.author, cm3.date, cm3.text, "") + `</ol>`
				}
				if i == 2 && nested == "" && strings.Contains(sh.one, "<li") {
					continue
				}
				b.WriteString(fmt.Sprintf(sh.one, 101+i, cm.author, cm.date, cm.text, nested))
			}
			page := `<html><head><title>Spring walk</title></head><body><article class="post"><h1>Spring walk</h1>` +
				`<p>We walked along the river to the old mill and back before lunch, then home.</p></article>` +
				fmt.Sprintf(sh.list, b.String()) + `</body></html>`
			h := http.Header{"Date": {capture.Format(http.TimeFormat)}}
			doc, err := vdoc.New("http://blog.example/2024/03/spring-walk/", h, []byte(page))
			if err != nil {
				t.Fatal(err)
			}
			objs, _ := Generic("blog").extractGeneric(doc, nil)
			var got []Object
			for _, o := range objs {
				if o.Kind == Comment {
					got = append(got, o)
				}
			}
			if len(got) != len(comments) {
				t.Fatalf("%d comments, want %d: %+v", len(got), len(comments), got)
			}
			for i, w := range comments {
				g := got[i]
				if g.Author != w.author || !g.Date.Equal(w.want) || g.Content != w.text {
					t.Errorf("comment %d: %q %v %q; want %q %v %q", i+1, g.Author, g.Date, g.Content, w.author, w.want, w.text)
				}
			}
		})
	}
}

// numberedRE finds the comment numbers a WordPress page's raw markup
// carries (ids and reply links), independently of the DOM code that
// mines them.
var numberedRE = regexp.MustCompile(`id=["'](?:li-|div-)?comment-(\d+)["']|replytocom=(\d+)`)

// TestBlogCommentsAahPages measures, on the saved aah-pages labelled
// WordPress that number their comments, the comments the crawl's
// extraction (PageObjects, whole knowledge base) yields against the
// comment numbers in the raw markup, and how many have an author and a
// date; it requires 95 % of the numbered comments extracted.
func TestBlogCommentsAahPages(t *testing.T) {
	dir, pages := loadLabels(t)
	det := NewDetector(builtinKB(t), loadFingerprints(t))
	numbered, got, authored, dated := 0, 0, 0, 0
	for _, p := range pages {
		if p.cms != "wordpress" {
			continue
		}
		body, err := os.ReadFile(filepath.Join(dir, p.file))
		if err != nil {
			t.Fatal(err)
		}
		nums := map[string]bool{}
		for _, m := range numberedRE.FindAllStringSubmatch(string(body), -1) {
			nums[m[1]+m[2]] = true
		}
		if len(nums) == 0 {
			continue
		}
		_, objs := det.PageObjects(pageDoc(t, dir, p))
		n := 0
		for _, o := range objs {
			if o.Kind == Comment {
				n++
				if o.Author != "" {
					authored++
				}
				if !o.Date.IsZero() {
					dated++
				}
			}
		}
		if n < len(nums) {
			t.Logf("%s: %d numbered comments, %d extracted", p.sha, len(nums), n)
		}
		numbered += len(nums)
		got += min(n, len(nums))
	}
	t.Logf("WordPress pages of aah-pages: %d numbered comments, %d extracted, %d with an author, %d with a date", numbered, got, authored, dated)
	if numbered == 0 || 20*got < 19*numbered {
		t.Errorf("%d of %d numbered comments extracted, want 95 %%", got, numbered)
	}
}
