package kb

import (
	"testing"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// labelCategory is the category an application label stands for: its
// knowledge-base type's, else the platforms' own.
func labelCategory(k *KB, label string) string {
	if t := k.Type(label); t != nil {
		return t.Category
	}
	switch label {
	case "blogger", "tumblr":
		return "blog"
	case "unknown":
		return ""
	}
	return "cms"
}

// TestGenericOnly switches the knowledge base's specific entries off:
// detection by the fingerprints alone, each technology taking its
// category's generic type, and extraction by the generic types (mining).
// It measures, on every saved page and on each half of the split by
// site, whether the category is detected, and on the annotated threads
// the mined posts; it requires the generic-only acceptance figures: the
// category for ≥ 90 % of pages, posts with text F1 ≥ 0.85 and author and
// date right for ≥ 85 %.
func TestGenericOnly(t *testing.T) {
	dir, pages := loadLabels(t)
	k := builtinKB(t)
	det := NewDetector(&KB{}, loadFingerprints(t))
	right, total := map[string]int{}, map[string]int{}
	var wrong []string
	// byRecords: the category as the crawl knows it, a page of no named
	// application being a forum's when its records are a thread's
	// (PageObjects).
	byRecords := 0
	for _, p := range pages {
		doc := pageDoc(t, dir, p)
		d := det.Detect(doc)
		want := labelCategory(k, p.cms)
		for _, h := range []string{"all", p.half()} {
			total[h]++
			if d.Category() == want {
				right[h]++
			}
		}
		if d.Category() != want {
			wrong = append(wrong, p.sha+" "+p.cms+": "+d.Category()+" ("+d.App()+")")
		}
		// A thread page of an unknown engine is a forum's.
		if p.level == "thread" {
			want = "forum"
		}
		if d, _ := det.PageObjects(doc); d.Category() == want {
			byRecords++
		} else {
			t.Log("category by records wrong:", p.sha, p.cms, p.level, d.Category())
		}
	}
	for _, w := range wrong {
		t.Log("category wrong:", w)
	}
	for _, h := range []string{"all", "tuning", "held-out"} {
		t.Logf("generic-only category, %s pages: %d/%d = %.1f%%", h, right[h], total[h], 100*float64(right[h])/float64(total[h]))
	}
	t.Logf("generic-only category with a thread's records naming a forum (PageObjects; the thread pages of unknown engines are a forum's): %d/%d = %.1f%%", byRecords, len(pages), 100*float64(byRecords)/float64(len(pages)))
	if float64(right["all"]) < 0.9*float64(total["all"]) {
		t.Errorf("category detected for %.1f%% of pages < 90%%", 100*float64(right["all"])/float64(total["all"]))
	}

	per := scoreThreadsBy(t, func(p labelledPage) string { return p.half() }, func(doc *vdoc.Doc) []Object {
		_, objs := det.PageObjects(doc)
		return objs
	})
	for _, h := range []string{"all", "tuning", "held-out"} {
		s := per[h]
		if s == nil {
			continue
		}
		withUser := s.posts - s.noUser
		t.Logf("generic-only posts, %s threads: %d gold posts, %d extracted, text F1 %.3f, author %.1f%% of %d, date %.1f%%",
			h, s.posts, s.extracted, s.f1/float64(s.posts), 100*float64(s.author)/float64(withUser), withUser, 100*float64(s.date)/float64(s.posts))
	}
	all := per["all"]
	f, a, d := all.f1/float64(all.posts), float64(all.author)/float64(all.posts-all.noUser), float64(all.date)/float64(all.posts)
	if f < 0.85 || a < 0.85 || d < 0.85 {
		t.Errorf("generic-only posts below 0.85: text F1 %.3f, author %.3f, date %.3f", f, a, d)
	}
}
