package adapt

import (
	"context"
	"fmt"
	"html"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/vdoc"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// wpPost is a post as the WordPress database has it.
type wpPost struct{ title, author, date, content string }

func wpPosts(tb testing.TB) map[string]wpPost {
	out := map[string]wpPost{}
	for _, r := range testenv.WordPressQuery(tb, "SELECT p.ID, p.post_title, u.display_name, p.post_date_gmt, p.post_content FROM wp_posts p "+
		"JOIN wp_users u ON u.ID = p.post_author WHERE p.post_type = 'post' AND p.post_status = 'publish'") {
		out[r[0]] = wpPost{html.UnescapeString(r[1]), r[2], r[3], stripTags(r[4])}
	}
	return out
}

var (
	tagRE     = regexp.MustCompile(`<[^>]*>`)
	commentRE = regexp.MustCompile(`(?s)<!--.*?-->`)
	postIDRE  = regexp.MustCompile(`\bpostid-(\d+)\b`)
)

func stripTags(s string) string {
	return html.UnescapeString(tagRE.ReplaceAllString(commentRE.ReplaceAllString(s, " "), " "))
}

// wpScore extracts every post page with k and counts the posts whose
// title, author, date and text agree with the database.
func wpScore(t *testing.T, k *kb.KB, posts map[string]*vdoc.Doc, db map[string]wpPost) (right int, wrong []string) {
	t.Helper()
	tp := k.Type("wordpress")
	lv := tp.Level("post")
	for u, doc := range posts {
		if strings.Contains(u, "/comment-page-") {
			continue // a further page of a post's comments
		}
		m := postIDRE.FindStringSubmatch(fmt.Sprint(bodyClass(doc)))
		if m == nil {
			t.Fatalf("%s: no postid- body class", u)
		}
		want := db[m[1]]
		objs, _ := tp.Extract(lv, doc)
		var got kb.Object
		if len(objs) > 0 {
			got = objs[0]
		}
		switch {
		case got.Title != want.title:
			wrong = append(wrong, fmt.Sprintf("%s: title %q, want %q", u, got.Title, want.title))
		case got.Author != want.author:
			wrong = append(wrong, fmt.Sprintf("%s: author %q, want %q", u, got.Author, want.author))
		case got.Date.UTC().Format(time.DateTime) != want.date:
			wrong = append(wrong, fmt.Sprintf("%s: date %v, want %s", u, got.Date, want.date))
		case F1(got.Content, want.content) < 0.9:
			wrong = append(wrong, fmt.Sprintf("%s: content F1 %.2f", u, F1(got.Content, want.content)))
		default:
			right++
		}
	}
	slices.Sort(wrong)
	return right, wrong
}

func bodyClass(doc *vdoc.Doc) string {
	for _, b := range doc.Elements("body") {
		for _, a := range b.Attr {
			if a.Key == "class" {
				return a.Val
			}
		}
	}
	return ""
}

// storeObjects writes what k extracts from the pages into a store, in
// graph crawl, each object derived from a capture of its page, as a crawl
// with the AAH records them.
func storeObjects(t *testing.T, k *kb.KB, pages map[string]map[string]*vdoc.Doc, crawl string) *graph.Store {
	t.Helper()
	st, err := graph.Open(filepath.Join(t.TempDir(), "store"), graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	det := kb.NewDetector(k, nil)
	g := rdf.IRI(crawl)
	b := st.NewBatch()
	n := 0
	for _, level := range slices.Sorted(maps.Keys(pages)) {
		for _, u := range slices.Sorted(maps.Keys(pages[level])) {
			doc := pages[level][u]
			d := det.Detect(doc)
			if d.Level == nil || !d.Level.Terminal {
				continue
			}
			objs, _ := d.Type.Extract(d.Level, doc)
			n++
			capture := rdf.IRI(fmt.Sprintf("urn:test:capture:%d", n))
			b.Add(rdf.Quad{S: capture, P: rdf.IRI(rdf.RDFType), O: rdf.IRI(ontology.Capture), G: g})
			b.Add(rdf.Quad{S: capture, P: rdf.IRI(ontology.URL), O: rdf.IRI(u), G: g})
			for _, q := range kb.Quads(objs, capture, g) {
				b.Add(q)
			}
		}
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestWordPressRecrawl is the paper's second case on the real WordPress:
// crawl with twentytwentyone into a store, switch to twentytwentythree,
// and recrawl the stored pages: the KB (cut down to what the first crawl
// used, see restrict) fails on the new template, relearning from the
// stored objects finds the failed fields again, and with the learned
// patterns at least 95 % of the posts are extracted right (title,
// author, date, text against the database).
func TestWordPressRecrawl(t *testing.T) {
	base := testenv.CMS(t, testenv.WordPress, "")
	db := wpPosts(t)
	old := crawl(t, builtin(t), base+"/", 200)
	if len(old["post"]) < len(db) {
		t.Fatalf("first crawl reached %d post pages, the database has %d posts", len(old["post"]), len(db))
	}
	k := restrict(t, builtin(t), "wordpress", old)
	const crawlG = "urn:test:crawl:1"
	st := storeObjects(t, k, old, crawlG)
	known, err := Known(context.Background(), st.Snapshot(), crawlG)
	if err != nil {
		t.Fatal(err)
	}

	testenv.SwitchTheme(t, base, "twentytwentythree")
	det := kb.NewDetector(k, nil)
	posts := map[string]*vdoc.Doc{}
	var pages []Page
	for u := range old["post"] {
		doc := fetch(t, u)
		d := det.Detect(doc)
		if d.Level == nil || d.Level.Name != "post" {
			t.Fatalf("%s: not detected as a post page after the switch", u)
		}
		posts[u] = doc
		pages = append(pages, Page{Doc: doc, Known: known[u]})
	}
	before, _ := wpScore(t, k, posts, db)
	tp := k.Type("wordpress")
	findings, props := Relearn(tp, tp.Level("post"), pages, Options{Site: "127.0.0.1:8081"})
	requireChange(t, findings)
	learned, err := OpenLearned(LearnedPath(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := learned.Add(props...); err != nil {
		t.Fatal(err)
	}
	logProposals(t, learned.List())
	adapted, err := learned.Apply(k, "127.0.0.1:8081")
	if err != nil {
		t.Fatal(err)
	}
	right, wrong := wpScore(t, adapted, posts, db)
	checkAdapted(t, "WordPress twentytwentyone → twentytwentythree, recrawl (posts)", before, right, len(db), len(props), wrong)
}

// TestWordPressColdStart is the paper's first case on the real WordPress:
// a KB written for twentytwentyone (see restrict) meets a site already on
// twentytwentythree, with no earlier crawl to learn from. Relaxation
// finds the navigation from the index to the posts and the post fields
// again, and at least 95 % of the posts are extracted right.
func TestWordPressColdStart(t *testing.T) {
	base := testenv.CMS(t, testenv.WordPress, "")
	db := wpPosts(t)
	k := restrict(t, builtin(t), "wordpress", crawl(t, builtin(t), base+"/", 200))
	testenv.SwitchTheme(t, base, "twentytwentythree")

	site := "127.0.0.1:8081"
	learned, err := OpenLearned(LearnedPath(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	tp := k.Type("wordpress")
	// The index pages first: the KB's way from them to the posts fails.
	lists := crawl(t, k, base+"/", 20, "post")["list"]
	if len(lists) < 3 {
		t.Fatalf("%d index pages reached", len(lists))
	}
	nav := RelaxNavigation(k, tp, tp.Level("list"), slices.Collect(maps.Values(lists)), getDoc, Options{Site: site})
	if len(nav) == 0 {
		t.Fatal("no relaxed navigation from the index to the posts")
	}
	if _, err := learned.Add(nav...); err != nil {
		t.Fatal(err)
	}
	k2, err := learned.Apply(k, site)
	if err != nil {
		t.Fatal(err)
	}
	posts := crawl(t, k2, base+"/", 200)["post"]
	if len(posts) < len(db) {
		t.Fatalf("the relaxed navigation reached %d post pages of %d", len(posts), len(db))
	}
	before, _ := wpScore(t, k2, posts, db)
	tp2 := k2.Type("wordpress")
	fields := Relax(k2, tp2, tp2.Level("post"), slices.Collect(maps.Values(posts)), Options{Site: site})
	if _, err := learned.Add(fields...); err != nil {
		t.Fatal(err)
	}
	logProposals(t, learned.List())
	adapted, err := learned.Apply(k, site)
	if err != nil {
		t.Fatal(err)
	}
	right, wrong := wpScore(t, adapted, posts, db)
	checkAdapted(t, "WordPress cold start on twentytwentythree with a twentytwentyone KB (posts)", before, right, len(db), len(learned.List()), wrong)
}

// TestWordPressLevelRelax relaxes a level detection pattern written for
// classic themes (a post page has an article of class type-post) on the
// post pages of twentytwentythree, which have none: the relaxed pattern
// must recognise the post pages and none of the index pages.
func TestWordPressLevelRelax(t *testing.T) {
	base := testenv.CMS(t, testenv.WordPress, "twentytwentythree")
	k := builtin(t)
	pages := crawl(t, k, base+"/", 40)
	posts, lists := slices.Collect(maps.Values(pages["post"])), slices.Collect(maps.Values(pages["list"]))
	if len(posts) < 5 || len(lists) < 3 {
		t.Fatalf("%d post and %d index pages reached", len(posts), len(lists))
	}
	classic := cloneType(k.Type("wordpress"))
	old, err := compile("//article[contains(@class, 'type-post')]")
	if err != nil {
		t.Fatal(err)
	}
	post := classic.Level("post")
	post.Detect = []*kb.Pattern{old}
	p, ok := RelaxLevel(k, classic, post, posts, lists, Options{Site: "127.0.0.1:8081"})
	if !ok {
		t.Fatal("no relaxed detection pattern for the post pages")
	}
	logProposals(t, []Proposal{p})
	pat, _ := compile(p.Pattern)
	for _, d := range posts {
		if !pat.MatchIndexed(d.Root, d) {
			t.Errorf("%s: the relaxed pattern misses a post page", d.URL)
		}
	}
	for _, d := range lists {
		if pat.MatchIndexed(d.Root, d) {
			t.Errorf("%s: the relaxed pattern matches an index page", d.URL)
		}
	}
}
