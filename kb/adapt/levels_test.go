package adapt

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/kb"
)

// TestLevelRelaxInCrawl crawls the synthetic blog with a KB whose post
// level detection matches none of its post pages: the pages navigation
// led to as posts come with no level, and once three of them have, the
// session relaxes the level's detection (checked against the pages of
// the other levels seen), so that every post page analyzed after that is
// recognised (annotated in crawl.log) and its post extracted.
func TestLevelRelaxInCrawl(t *testing.T) {
	k := withWordPress(t, func(wp *kb.Type) {
		wp.Level("post").Detect = []*kb.Pattern{mustCompile(t, "//body[contains(@class, 'single-entry')]")}
	})
	bc := crawlBlog(t, k, true)
	detect := bc.learned(ActionDetect)
	if len(detect) != 1 || detect[0].Level != "post" || len(detect[0].Pages) < 3 {
		t.Fatalf("learned level detections %+v, want one for post, checked on at least 3 pages", detect)
	}
	t.Logf("learned post detection %q on %d of %d pages", detect[0].Pattern, len(detect[0].Pages), detect[0].Checked)

	permalink := regexp.MustCompile(`^http://[^/]+/\d{4}/\d\d/\d\d/[^/?#]+/$`)
	var annotated, plain []string
	for _, line := range strings.Split(bc.crawlLog(t), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || f[1] != "200" || !permalink.MatchString(f[3]) || strings.Contains(line, crawler.AnnotSample) {
			continue
		}
		if strings.Contains(line, " app:wordpress/post") {
			annotated = append(annotated, f[3])
		} else {
			plain = append(plain, f[3])
		}
	}
	objs, err := Known(context.Background(), bc.store.Snapshot(), crawlrdf.CrawlIRI(bc.id))
	if err != nil {
		t.Fatal(err)
	}
	posts := 0
	for _, u := range annotated {
		if slices.ContainsFunc(objs[u], func(o kb.Object) bool { return o.Kind == kb.BlogPost && o.Title != "" }) {
			posts++
		}
	}
	t.Logf("post pages: %d recognised (%d with their post stored), %d not: %q", len(annotated), posts, len(plain), plain)
	if len(annotated) < 20 || len(plain) > 3 || posts != len(annotated) {
		t.Errorf("%d post pages recognised, %d with their post stored, %d not recognised; want all but the (at most 3) pages learned from, each with its post", len(annotated), posts, len(plain))
	}
}
