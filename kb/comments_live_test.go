package kb

import (
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/internal/testenv"
)

// TestWordPressCommentsGeneric extracts the comments of the real
// WordPress's most commented posts by the crawl's extraction
// (ExtractPage), under each of the installation's themes (a classic
// theme and two block themes lay comments out differently), twice: with
// the whole knowledge base, and with the specific entries switched off
// (the fingerprints name WordPress, the generic blog type mines the
// comments). Every comment of the database whose text the page shows
// must be extracted with its author, date and text: 95 % of them per
// theme and knowledge base.
func TestWordPressCommentsGeneric(t *testing.T) {
	if testing.Short() {
		t.Skip("three theme switches of the real WordPress")
	}
	fp := loadFingerprints(t)
	dets := []struct {
		name string
		det  *Detector
	}{{"whole KB", NewDetector(builtinKB(t), fp)}, {"generic only", NewDetector(&KB{}, fp)}}
	for _, theme := range []string{"twentytwentyone", "twentytwentytwo", "twentytwentythree"} {
		t.Run(theme, func(t *testing.T) {
			testenv.CMS(t, wpBase, theme)
			posts := testenv.WordPressQuery(t, "SELECT ID FROM wp_posts WHERE post_type='post' AND post_status='publish' ORDER BY comment_count DESC, ID LIMIT 3")
			for _, dt := range dets {
				gold, found, right := 0, 0, 0
				for _, r := range posts {
					u := wpBase + "/?p=" + r[0]
					doc := fetch(t, u)
					d := dt.det.Detect(doc)
					if d.Type == nil || d.Level == nil {
						t.Fatalf("%s: %s: no type detected", dt.name, u)
					}
					objs, _, _ := d.Type.ExtractPage(d.Level, doc, nil)
					page := strings.Join(strings.Fields(Text(doc.Root)), " ")
					got := map[string]Object{}
					for _, o := range objs {
						if o.Kind == Comment {
							got[o.Content] = o
						}
					}
					for _, c := range testenv.WordPressQuery(t, "SELECT comment_author, comment_date_gmt, comment_content FROM wp_comments "+
						"WHERE comment_approved = '1' AND comment_post_ID = "+r[0]) {
						text := strings.Join(strings.Fields(stripTags(c[2])), " ")
						if text == "" || !strings.Contains(page, text) {
							continue // on another comment page
						}
						gold++
						o, ok := got[text]
						if !ok {
							t.Logf("%s: %s: comment not extracted: %.60q", dt.name, u, text)
							continue
						}
						found++
						want, _ := time.Parse(time.DateTime, c[1])
						if o.Author == c[0] && (o.Date.Equal(want) || sameMinuteLocal(o.Date, want)) {
							right++
						} else {
							t.Logf("%s: %s: comment %.30q: author %q date %v, want %q %v", dt.name, u, text, o.Author, o.Date, c[0], want)
						}
					}
				}
				t.Logf("%s, %s: %d comments shown, %d extracted, %d with author and date right", theme, dt.name, gold, found, right)
				if gold == 0 || 20*right < 19*gold {
					t.Errorf("%s, %s: %d of %d comments right, want 95 %%", theme, dt.name, right, gold)
				}
			}
		})
	}
}

// sameMinuteLocal accepts a date a theme prints in the site's time zone
// without naming it: the same minute, whole hours apart.
func sameMinuteLocal(got, want time.Time) bool {
	d := got.Sub(want)
	return d%time.Hour == 0 && d.Abs() <= 14*time.Hour && !got.IsZero()
}
