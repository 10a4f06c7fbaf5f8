package adapt

import (
	"context"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/kb"
)

// TestLevelRelaxInCrawl crawls the synthetic blog with a KB whose post
// level detection matches none of its post pages: the pages navigation
// led to as posts come with no level, and once three of them have, the
// session relaxes the level's detection (checked against the index pages
// seen), so that the later post pages are recognised, annotated and
// their posts extracted.
func TestLevelRelaxInCrawl(t *testing.T) {
	k := withWordPress(t, func(wp *kb.Type) {
		wp.Level("post").Detect = []*kb.Pattern{mustCompile(t, "//body[contains(@class, 'single-entry')]")}
	})
	bc := crawlBlog(t, k)
	var detect []Proposal
	for _, st := range bc.sess.sites {
		for _, p := range st.learned {
			if p.Action == ActionDetect {
				detect = append(detect, p)
			}
		}
	}
	if len(detect) != 1 || detect[0].Level != "post" || len(detect[0].Pages) < 3 {
		t.Fatalf("learned level detections %+v, want one for post, checked on at least 3 pages", detect)
	}
	t.Logf("learned post detection %q on %d of %d pages", detect[0].Pattern, len(detect[0].Pages), detect[0].Checked)
	annotated := strings.Count(bc.crawlLog(t), " app:wordpress/post")
	objs, err := Known(context.Background(), bc.store.Snapshot(), crawlrdf.CrawlIRI(bc.id))
	if err != nil {
		t.Fatal(err)
	}
	posts := 0
	for _, list := range objs {
		for _, o := range list {
			if o.Kind == kb.BlogPost && o.Title != "" {
				posts++
			}
		}
	}
	t.Logf("%d post pages annotated, %d posts stored", annotated, posts)
	if annotated < 40 || posts < 40 {
		t.Errorf("%d post pages annotated and %d posts stored after the relaxation, want at least 40 of the 48", annotated, posts)
	}
}
