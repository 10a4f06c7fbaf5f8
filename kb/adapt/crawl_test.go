package adapt

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/aah"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// crawlAAH runs a real crawl of seed with the application-aware helper
// on k into the data folder's store, adapting through sess when it is
// not nil, and returns the objects of the crawl's graph by page URL.
func crawlAAH(t *testing.T, data, id string, st *graph.Store, k *kb.KB, seed string, sess *Session) map[string][]kb.Object {
	t.Helper()
	var logBuf bytes.Buffer
	opts := aah.Options{Log: &logBuf}
	if sess != nil {
		sess.Log = &logBuf
		opts.Observe = sess.ObserveResult
	}
	h := aah.New(kb.NewDetector(k, nil), opts)
	s := spec.Default()
	s.ID, s.Output, s.Seeds = id, data, []string{seed}
	s.UserAgent = "mneme-test/1.0 (+https://github.com/mneme-archive/mneme)"
	s.Politeness.Off = true
	c, err := crawler.New(s, crawler.Deps{Store: st, Analyzer: h, Log: &logBuf})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := c.Run(ctx); err != nil {
		t.Fatalf("crawl %s: %v\n%s", id, err, logBuf.String())
	}
	t.Logf("crawl %s:\n%s", id, grepLines(logBuf.String(), "aah:", "adapt:"))
	objs, err := Known(context.Background(), st.Snapshot(), crawlrdf.CrawlIRI(id))
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

func grepLines(s string, prefixes ...string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(line, p) {
				out = append(out, line)
			}
		}
	}
	return strings.Join(out, "\n")
}

func openStore(t *testing.T, data string) *graph.Store {
	t.Helper()
	st, err := crawler.Layout{Data: data}.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// wpStored counts the posts of the database stored right by a crawl:
// title, author, date and text of the blog post whose IRI is the post's
// permalink.
func wpStored(t *testing.T, objs map[string][]kb.Object) (right int, wrong []string) {
	rows := testenv.WordPressQuery(t, "SELECT p.post_name, p.post_title, u.display_name, p.post_date_gmt, p.post_content FROM wp_posts p "+
		"JOIN wp_users u ON u.ID = p.post_author WHERE p.post_type = 'post' AND p.post_status = 'publish'")
	byName := map[string]kb.Object{}
	for _, list := range objs {
		for _, o := range list {
			if o.Kind != kb.BlogPost {
				continue
			}
			parts := strings.Split(strings.TrimSuffix(o.IRI, "/"), "/")
			name := parts[len(parts)-1]
			// The first complete one: a post is stored once per page of
			// its comments.
			if prev, ok := byName[name]; !ok || prev.Author == "" || prev.Title == "" || prev.Date.IsZero() {
				byName[name] = o
			}
		}
	}
	for _, r := range rows {
		o, ok := byName[r[0]]
		switch {
		case !ok:
			wrong = append(wrong, r[0]+": not stored")
		case o.Title != stripTags(r[1]):
			wrong = append(wrong, r[0]+": title "+o.Title)
		case o.Author != r[2]:
			wrong = append(wrong, r[0]+": author "+o.Author)
		case o.Date.UTC().Format(time.DateTime) != r[3]:
			wrong = append(wrong, r[0]+": date "+o.Date.String())
		case F1(o.Content, stripTags(r[4])) < 0.9:
			wrong = append(wrong, r[0]+": content")
		default:
			right++
		}
	}
	return right, wrong
}

// TestWordPressCrawlAdapt runs the template change through real crawls
// with the application-aware helper: a crawl on twentytwentyone with a
// KB written for it (restrict), the switch to twentytwentythree, then a
// recrawl that relearns from the first crawl's graph, and a crawl from a
// cold start (its own data folder, no earlier crawl) that relaxes. Each
// must store at least 95 % of the posts right; the pages seen before
// enough failing pages were gathered keep the KB's failed extraction.
func TestWordPressCrawlAdapt(t *testing.T) {
	base := testenv.CMS(t, testenv.WordPress, "")
	k := restrict(t, builtin(t), "wordpress", crawl(t, builtin(t), base+"/", 200))
	data := t.TempDir()
	st := openStore(t, data)
	first := crawlAAH(t, data, "before", st, k, base+"/", nil)
	right, wrong := wpStored(t, first)
	t.Logf("AAH crawls, first crawl on twentytwentyone: %d/50 posts stored right", right)
	if right < 50 {
		t.Fatalf("the first crawl stored %d posts right: %q", right, wrong)
	}

	testenv.SwitchTheme(t, base, "twentytwentythree")
	learned, err := OpenLearned(LearnedPath(data))
	if err != nil {
		t.Fatal(err)
	}
	plain := crawlAAH(t, t.TempDir(), "plain", openStore(t, t.TempDir()), k, base+"/", nil)
	noAdapt, _ := wpStored(t, plain)
	recrawl := crawlAAH(t, data, "after", st, k, base+"/", &Session{KB: k, Known: first, Learned: learned})
	right, wrong = wpStored(t, recrawl)
	checkAdapted(t, "AAH crawls, recrawl on twentytwentythree (posts stored)", noAdapt, right, 50, len(learned.List()), wrong)

	cold := t.TempDir()
	coldLearned, err := OpenLearned(LearnedPath(cold))
	if err != nil {
		t.Fatal(err)
	}
	objs := crawlAAH(t, cold, "cold", openStore(t, cold), k, base+"/", &Session{KB: k, Learned: coldLearned})
	right, wrong = wpStored(t, objs)
	checkAdapted(t, "AAH crawls, cold start on twentytwentythree (posts stored)", noAdapt, right, 50, len(coldLearned.List()), wrong)
}

// mwStored counts the articles of the wiki stored right by a crawl:
// title, text and last modification of the wiki article of that title.
func mwStored(objs map[string][]kb.Object, api map[string]mwArticle) (right int, wrong []string) {
	byTitle := map[string]kb.Object{}
	for _, list := range objs {
		for _, o := range list {
			if o.Kind == kb.WikiArticle {
				byTitle[o.Title] = o
			}
		}
	}
	for title, want := range api {
		o, ok := byTitle[title]
		switch {
		case !ok:
			wrong = append(wrong, title+": not stored")
		case !sameInstant(o.Modified, want.modified):
			wrong = append(wrong, title+": modified "+o.Modified.String())
		case F1(o.Content, want.text) < 0.8:
			wrong = append(wrong, title+": content")
		default:
			right++
		}
	}
	return right, wrong
}

// TestMediaWikiCrawlAdapt is TestWordPressCrawlAdapt on the real
// MediaWiki, vector → monobook.
func TestMediaWikiCrawlAdapt(t *testing.T) {
	base := testenv.CMS(t, testenv.MediaWiki, "")
	api := mwArticles(t, base)
	k := restrict(t, builtin(t), "mediawiki", map[string]map[string]*vdoc.Doc{"article": mwCrawl(t, builtin(t), base)})
	data := t.TempDir()
	st := openStore(t, data)
	first := crawlAAH(t, data, "before", st, k, base+"/wiki/Main_Page", nil)
	right, wrong := mwStored(first, api)
	t.Logf("AAH crawls of the wiki, first crawl on vector: %d/%d articles stored right", right, len(api))
	if right*100 < len(api)*95 {
		t.Fatalf("the first crawl stored %d/%d articles right: %q", right, len(api), wrong)
	}

	testenv.SwitchTheme(t, base, "monobook")
	plain := crawlAAH(t, t.TempDir(), "plain", openStore(t, t.TempDir()), k, base+"/wiki/Main_Page", nil)
	noAdapt, _ := mwStored(plain, api)
	learned, err := OpenLearned(LearnedPath(data))
	if err != nil {
		t.Fatal(err)
	}
	recrawl := crawlAAH(t, data, "after", st, k, base+"/wiki/Main_Page", &Session{KB: k, Known: first, Learned: learned})
	right, wrong = mwStored(recrawl, api)
	checkAdapted(t, "AAH crawls of the wiki, recrawl on monobook (articles stored)", noAdapt, right, len(api), len(learned.List()), wrong)

	cold := t.TempDir()
	coldLearned, err := OpenLearned(LearnedPath(cold))
	if err != nil {
		t.Fatal(err)
	}
	objs := crawlAAH(t, cold, "cold", openStore(t, cold), k, base+"/wiki/Main_Page", &Session{KB: k, Learned: coldLearned})
	right, wrong = mwStored(objs, api)
	checkAdapted(t, "AAH crawls of the wiki, cold start on monobook (articles stored)", noAdapt, right, len(api), len(coldLearned.List()), wrong)
}
