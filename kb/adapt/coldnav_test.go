package adapt

import (
	"context"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/kb"
)

// TestColdStartNavigationBlog crawls the synthetic blog (48 posts) from
// a cold start with a KB whose links from list pages to posts match
// nothing there: relaxation must learn a navigation that leads to the
// posts, not to a sidebar's links (recent posts and comments, the same on
// every page), so that at least 95 % of the posts are stored.
func TestColdStartNavigationBlog(t *testing.T) {
	k := withWordPress(t, func(wp *kb.Type) {
		wp.Level("list").Navigate[0].Select = []*kb.Pattern{mustCompile(t, "//main//li[contains(@class, 'post-item')]/a/@href")}
	})
	before := blogPosts(t, crawlBlog(t, k, false))
	bc := crawlBlog(t, k, true)
	var nav []string
	for _, p := range bc.learned(ActionNavigate) {
		nav = append(nav, p.Pattern)
	}
	t.Logf("navigation learned: %q", nav)
	if len(nav) == 0 {
		t.Errorf("no navigation learned:\n%s", grepLines(bc.log, "adapt:"))
	}
	for _, p := range nav {
		if namesChrome(p) || strings.Contains(p, "section") {
			t.Errorf("learned a sidebar's links as navigation: %s", p)
		}
	}
	checkAdapted(t, "AAH crawls of the synthetic blog, cold start with the list's post links broken (posts stored)",
		before, blogPosts(t, bc), 48, len(bc.learned("")), nil)
}

// blogPosts counts the blog posts with a title a crawl of the synthetic
// blog stored.
func blogPosts(t *testing.T, bc *blogCrawl) int {
	t.Helper()
	objs, err := Known(context.Background(), bc.store.Snapshot(), crawlrdf.CrawlIRI(bc.id))
	if err != nil {
		t.Fatal(err)
	}
	posts := map[string]bool{}
	for _, list := range objs {
		for _, o := range list {
			if o.Kind == kb.BlogPost && o.Title != "" {
				posts[o.IRI] = true
			}
		}
	}
	return len(posts)
}
