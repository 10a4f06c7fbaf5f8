package adapt

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// mwArticle is an article as the wiki's API has it.
type mwArticle struct {
	modified time.Time
	text     string
}

// mwArticles reads the title, last revision time and wikitext of every
// article of the main namespace.
func mwArticles(t *testing.T, base string) map[string]mwArticle {
	var all struct {
		Query struct {
			AllPages []struct{ Title string } `json:"allpages"`
		} `json:"query"`
	}
	testenv.GetJSON(t, base+"/api.php?action=query&list=allpages&apnamespace=0&aplimit=500&format=json", &all)
	out := map[string]mwArticle{}
	for _, p := range all.Query.AllPages {
		pg := testenv.MediaWikiPage(t, base, p.Title)
		out[p.Title] = mwArticle{pg.Modified, testenv.WikiText(pg.Wikitext)}
	}
	return out
}

// mwScore extracts every article page with k and counts those whose
// title, text (word F1 ≥ 0.8 against the wikitext) and last modification
// (to the minute) agree with the API.
func mwScore(t *testing.T, k *kb.KB, pages map[string]*vdoc.Doc, api map[string]mwArticle) (right int, wrong []string) {
	t.Helper()
	tp := k.Type("mediawiki")
	lv := tp.Level("article")
	for u, doc := range pages {
		objs, _ := tp.Extract(lv, doc)
		if len(objs) == 0 {
			wrong = append(wrong, u+": nothing extracted")
			continue
		}
		o := objs[0]
		want, ok := api[o.Title]
		switch {
		case !ok:
			wrong = append(wrong, fmt.Sprintf("%s: title %q is no article", u, o.Title))
		case !sameInstant(o.Modified, want.modified):
			wrong = append(wrong, fmt.Sprintf("%s: modified %v, want %v", u, o.Modified, want.modified))
		case F1(o.Content, want.text) < 0.8:
			wrong = append(wrong, fmt.Sprintf("%s: content F1 %.2f", u, F1(o.Content, want.text)))
		default:
			right++
		}
	}
	slices.Sort(wrong)
	return right, wrong
}

// mwCrawl fetches the article pages that Special:AllPages lists, as the
// KB's navigation gives them.
func mwCrawl(t *testing.T, k *kb.KB, base string) map[string]*vdoc.Doc {
	t.Helper()
	pages := crawl(t, k, base+"/wiki/Special:AllPages", 200, "special")["article"]
	for u := range pages {
		if strings.Contains(u, "Special:") {
			delete(pages, u)
		}
	}
	return pages
}

// TestMediaWikiRecrawl: crawl the real MediaWiki with vector into a
// store, switch to monobook, recrawl the stored pages and relearn; at
// least 95 % of the articles must then be right (title, text, last
// modification).
func TestMediaWikiRecrawl(t *testing.T) {
	base := testenv.CMS(t, testenv.MediaWiki, "")
	api := mwArticles(t, base)
	old := mwCrawl(t, builtin(t), base)
	if len(old)*100 < len(api)*95 {
		t.Fatalf("first crawl reached %d of %d articles", len(old), len(api))
	}
	k := restrict(t, builtin(t), "mediawiki", map[string]map[string]*vdoc.Doc{"article": old})
	const crawlG = "urn:test:crawl:mw"
	st := storeObjects(t, k, map[string]map[string]*vdoc.Doc{"article": old}, crawlG)
	known, err := Known(context.Background(), st.Snapshot(), crawlG)
	if err != nil {
		t.Fatal(err)
	}

	testenv.SwitchTheme(t, base, "monobook")
	pages := map[string]*vdoc.Doc{}
	var samples []Page
	for u := range old {
		doc := fetch(t, u)
		pages[u] = doc
		samples = append(samples, Page{Doc: doc, Known: known[u]})
	}
	before, _ := mwScore(t, k, pages, api)
	tp := k.Type("mediawiki")
	findings, props := Relearn(tp, tp.Level("article"), samples, Options{Site: "127.0.0.1:8082"})
	requireChange(t, findings)
	logProposals(t, props)
	adapted, err := Apply(k, props, "127.0.0.1:8082")
	if err != nil {
		t.Fatal(err)
	}
	right, wrong := mwScore(t, adapted, pages, api)
	checkAdapted(t, "MediaWiki vector → monobook, recrawl (articles)", before, right, len(pages), len(props), wrong)
}

// TestMediaWikiColdStart: a KB written for vector meets a wiki already on
// monobook, with no earlier crawl; relaxation must bring at least 95 % of
// the articles right.
func TestMediaWikiColdStart(t *testing.T) {
	base := testenv.CMS(t, testenv.MediaWiki, "")
	api := mwArticles(t, base)
	k := restrict(t, builtin(t), "mediawiki", map[string]map[string]*vdoc.Doc{"article": mwCrawl(t, builtin(t), base)})
	testenv.SwitchTheme(t, base, "monobook")
	pages := mwCrawl(t, k, base)
	if len(pages)*100 < len(api)*95 {
		t.Fatalf("crawl on monobook reached %d of %d articles", len(pages), len(api))
	}
	before, _ := mwScore(t, k, pages, api)
	tp := k.Type("mediawiki")
	props := Relax(k, tp, tp.Level("article"), slices.Collect(maps.Values(pages)), Options{Site: "127.0.0.1:8082"})
	logProposals(t, props)
	adapted, err := Apply(k, props, "127.0.0.1:8082")
	if err != nil {
		t.Fatal(err)
	}
	right, wrong := mwScore(t, adapted, pages, api)
	checkAdapted(t, "MediaWiki cold start on monobook with a vector KB (articles)", before, right, len(pages), len(props), wrong)
}
