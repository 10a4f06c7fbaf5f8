package aah_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/ontology"
)

// get returns the body of a 200 response to u.
func get(t *testing.T, u string) []byte {
	t.Helper()
	body, _ := testenv.Get(t, u)
	return body
}

// articleCoverage checks that the crawl's pages hold ≥ 98 % of the word
// 2-grams of the wiki's own rendering of its articles, logs it, and
// returns the line of figures for scripts/bench-aah.sh, less the count of
// articles stored.
func articleCoverage(t *testing.T, c *aahCrawl, site string, articles map[string][]byte) string {
	t.Helper()
	want, got := map[string]bool{}, map[string]bool{}
	for name, body := range articles {
		p, err := parsePage("http://wiki.invalid/"+url.PathEscape(name), body)
		if err != nil {
			t.Fatal(err)
		}
		bigrams(want, p.blocks, nil)
	}
	for _, p := range c.pages {
		bigrams(got, p.blocks, nil)
	}
	cov, missing := coverage(want, got)
	t.Logf("AAH crawl: %d requests, %d HTML pages, %.1f s; article 2-grams: %.2f %% of %d (%d articles); missing e.g. %q",
		c.requests, len(c.pages), c.took.Seconds(), 100*cov, len(want), len(articles), missing)
	if cov < 0.98 {
		t.Errorf("AAH covers %.2f %% of the article 2-grams, want ≥ 98 %%", 100*cov)
	}
	for _, s := range sitesOf(t, c.helper) {
		t.Logf("site %s: %s, %d pages (%d of a known level), %d objects", s.Root, s.Name, s.Pages, s.Leveled, s.Objects)
	}
	return fmt.Sprintf("figures: site=%s aah_requests=%d aah_s=%.1f bigrams=%.2f bigrams_of=%d", site, c.requests, c.took.Seconds(), 100*cov, len(want))
}

// storedArticles returns the wiki articles of the crawl's graph by IRI,
// each checked to derive from a capture.
func storedArticles(t *testing.T, c *aahCrawl) map[string]string {
	t.Helper()
	g := readGraph(t, c.store, c.id)
	out := map[string]string{}
	for _, a := range g.typed(ontology.SIOCTWikiArticle) {
		out[a] = g.one(a, ontology.DCTermsTitle)
		capt := g.one(a, ontology.ProvWasDerivedFrom)
		if g.one(capt, ontology.URL) == "" {
			t.Errorf("article %s derived from %q, not a capture of the crawl", a, capt)
		}
	}
	return out
}

// TestMediaWikiAAH crawls the real MediaWiki with the helper: the crawl
// ends (wget's does not, lost in histories and diffs), covers ≥ 98 % of
// the 2-grams of the articles as the wiki's API renders them, and stores
// every article as an object with its title.
func TestMediaWikiAAH(t *testing.T) {
	base := testenv.MediaWiki
	testenv.CMS(t, base, "")
	var list struct {
		Query struct {
			AllPages []struct{ Title string } `json:"allpages"`
		} `json:"query"`
	}
	if err := json.Unmarshal(get(t, base+"/api.php?action=query&list=allpages&apnamespace=0&aplimit=500&format=json"), &list); err != nil {
		t.Fatal(err)
	}
	articles := map[string][]byte{}
	for _, p := range list.Query.AllPages {
		var parsed struct {
			Parse struct {
				Text struct {
					HTML string `json:"*"`
				} `json:"text"`
			} `json:"parse"`
		}
		if err := json.Unmarshal(get(t, base+"/api.php?action=parse&prop=text&format=json&page="+url.QueryEscape(p.Title)), &parsed); err != nil {
			t.Fatal(err)
		}
		articles[p.Title] = []byte(parsed.Parse.Text.HTML)
	}

	c := crawlWithAAH(t, 5*time.Minute, base+"/wiki/Main_Page")
	figures := articleCoverage(t, c, "MediaWiki", articles)
	stored := storedArticles(t, c)
	for title := range articles {
		iri := base + "/wiki/" + strings.ReplaceAll(url.PathEscape(strings.ReplaceAll(title, " ", "_")), "%3A", ":")
		if got, ok := stored[iri]; !ok {
			t.Errorf("article %q (%s) not stored", title, iri)
		} else if got != title {
			t.Errorf("article %s: title %q, want %q", iri, got, title)
		}
	}
	t.Logf("articles stored: %d; the wiki has %d", len(stored), len(articles))
	t.Logf("%s pages=%d/%d", figures, len(stored), len(articles))
	if len(stored) != len(articles) {
		t.Errorf("%d articles stored, the wiki has %d", len(stored), len(articles))
	}
}

// TestDokuWikiAAH crawls the real DokuWiki with the helper: the crawl
// ends, covers ≥ 98 % of the 2-grams of the pages as DokuWiki exports
// them (do=export_xhtmlbody) and stores every page as an object. The
// pages are those of its data directory.
func TestDokuWikiAAH(t *testing.T) {
	base := testenv.DokuWiki
	testenv.CMS(t, base, "")
	const dir = "/var/lib/dokuwiki/data/pages"
	var ids []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".txt") {
			return err
		}
		rel, _ := filepath.Rel(dir, strings.TrimSuffix(path, ".txt"))
		ids = append(ids, strings.ReplaceAll(filepath.ToSlash(rel), "/", ":"))
		return nil
	})
	if os.IsNotExist(err) || os.IsPermission(err) {
		t.Skipf("DokuWiki's pages are not readable here (%v): run bash ../shared/cms/setup-cms.sh", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	articles := map[string][]byte{}
	for _, id := range ids {
		articles[id] = get(t, base+"/doku.php?do=export_xhtmlbody&id="+url.QueryEscape(id))
	}

	c := crawlWithAAH(t, 5*time.Minute, base+"/doku.php")
	figures := articleCoverage(t, c, "DokuWiki", articles)
	stored := storedArticles(t, c)
	var iris []string
	for iri := range stored {
		iris = append(iris, iri)
	}
	for _, id := range ids {
		iri := base + "/doku.php?id=" + id
		if id == "start" {
			iri = base + "/" // DokuWiki's canonical URL of its start page
		}
		if !slices.Contains(iris, iri) {
			t.Errorf("page %s not stored (stored: %d pages)", id, len(stored))
		}
	}
	t.Logf("pages stored: %d; the wiki has %d", len(stored), len(ids))
	t.Logf("%s pages=%d/%d", figures, len(stored), len(ids))
	if len(stored) != len(ids) {
		t.Errorf("%d pages stored, the wiki has %d", len(stored), len(ids))
	}
}
