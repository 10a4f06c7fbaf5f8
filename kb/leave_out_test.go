package kb

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// TestLeaveOneEngineOut judges each engine the knowledge base describes as
// if it had never been seen: its specific entry is taken out of the
// knowledge base (the others stay, with every webappanalyzer fingerprint)
// before its pages are detected and its annotated threads extracted by
// the crawl's extraction (PageObjects). This is the long tail as a crawl
// meets it: other engines' entries may claim the pages (a wrong
// category), and posts come from the category's generic type. It
// requires the generic-only acceptance figures (category for ≥ 90 % of
// pages; posts with text F1 ≥ 0.85, author and date right for ≥ 85 %).
func TestLeaveOneEngineOut(t *testing.T) {
	dir, pages := loadLabels(t)
	k := builtinKB(t)
	fp := loadFingerprints(t)
	byEngine := map[string][]labelledPage{}
	for _, p := range pages {
		if k.Type(p.cms) != nil {
			byEngine[p.cms] = append(byEngine[p.cms], p)
		}
	}
	engines := make([]string, 0, len(byEngine))
	for e := range byEngine {
		engines = append(engines, e)
	}
	slices.Sort(engines)
	// byRecords counts the category as the crawl knows it: a page of no
	// named application is a forum's when its records are a thread's.
	var right, total, byRecords int
	sum := &threadScore{}
	for _, e := range engines {
		without := &KB{}
		for _, typ := range k.Types {
			if typ.ID != e {
				without.Types = append(without.Types, typ)
			}
		}
		det := NewDetector(without, fp)
		want := k.Type(e).Category
		r, rr := 0, 0
		var wrong []string
		for _, p := range byEngine[e] {
			doc := pageDoc(t, dir, p)
			if d := det.Detect(doc); d.Category() == want {
				r++
			} else {
				wrong = append(wrong, p.sha+" got "+d.Category()+" ("+d.App()+")")
			}
			if d, _ := det.PageObjects(doc); d.Category() == want {
				rr++
			}
		}
		right += r
		byRecords += rr
		total += len(byEngine[e])
		line := ""
		s := scoreThreadsBy(t, func(p labelledPage) string {
			if p.cms != e {
				return ""
			}
			return e
		}, func(doc *vdoc.Doc) []Object {
			_, objs := det.PageObjects(doc)
			return objs
		})[e]
		if s != nil {
			withUser := s.posts - s.noUser
			line = fmt.Sprintf(", threads: %d gold posts, %d extracted, text F1 %.3f, author %d/%d, date %d/%d",
				s.posts, s.extracted, s.f1/float64(s.posts), s.author, withUser, s.date, s.posts)
			sum.posts += s.posts
			sum.extracted += s.extracted
			sum.author += s.author
			sum.date += s.date
			sum.noUser += s.noUser
			sum.f1 += s.f1
		}
		t.Logf("%-10s without its entry: category %d/%d (%d with records)%s %v", e, r, len(byEngine[e]), rr, line, wrong)
	}
	withUser := sum.posts - sum.noUser
	f, a, d := sum.f1/float64(sum.posts), float64(sum.author)/float64(withUser), float64(sum.date)/float64(sum.posts)
	t.Logf("leave one engine out: category %d/%d = %.1f%% (%d with a thread's records naming a forum); forum posts %d gold, %d extracted, text F1 %.3f, author %.1f%% of %d, date %.1f%%",
		right, total, 100*float64(right)/float64(total), byRecords, sum.posts, sum.extracted, f, 100*a, withUser, 100*d)
	if float64(right) < 0.9*float64(total) {
		t.Errorf("category detected for %.1f%% of pages < 90%%", 100*float64(right)/float64(total))
	}
	if f < 0.85 || a < 0.85 || d < 0.85 {
		t.Errorf("posts below 0.85: text F1 %.3f, author %.3f, date %.3f", f, a, d)
	}
}
