package kb

import (
	"testing"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// TestUnknownEngines measures the crawl's extraction (PageObjects, the
// whole knowledge base and the webappanalyzer fingerprints) on the
// annotated threads of forum engines the knowledge base does not
// describe (label "unknown": custom engines), and requires posts with
// text F1 ≥ 0.75 and author and date right for ≥ 75 % of them.
func TestUnknownEngines(t *testing.T) {
	det := NewDetector(builtinKB(t), loadFingerprints(t))
	per := scoreThreads(t, func(doc *vdoc.Doc) []Object {
		_, objs := det.PageObjects(doc)
		var posts []Object
		for _, o := range objs {
			if o.Kind == ForumPost || o.Kind == Comment {
				posts = append(posts, o)
			}
		}
		return posts
	})
	s := per["unknown"]
	if s == nil || s.posts == 0 {
		t.Fatal("no annotated thread of an unknown engine")
	}
	f1, author, date := s.f1/float64(s.posts), float64(s.author)/float64(s.posts-s.noUser), float64(s.date)/float64(s.posts)
	t.Logf("unknown engines: %d gold posts, %d extracted, text F1 %.3f, author %.1f%%, date %.1f%%", s.posts, s.extracted, f1, 100*author, 100*date)
	if f1 < 0.75 || author < 0.75 || date < 0.75 {
		t.Errorf("unknown engines: F1 %.3f, author %.1f%%, date %.1f%%; want 0.75, 75 %%, 75 %%", f1, 100*author, 100*date)
	}
}
