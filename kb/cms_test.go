package kb

import (
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/kb/vdoc"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// The real CMSs of ../shared/cms/setup-cms.sh (CI runs it before the
// tests: .ci/install-cms.sh). Each test skips, saying so, when its site
// does not answer.
const (
	wpBase = testenv.WordPress
	mwBase = testenv.MediaWiki
	dwBase = testenv.DokuWiki
)

var client = &http.Client{Timeout: 20 * time.Second}

// fetch GETs u and returns its virtual document.
func fetch(t *testing.T, u string) *vdoc.Doc {
	t.Helper()
	resp, err := client.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", u, resp.Status)
	}
	d, err := vdoc.New(resp.Request.URL.String(), resp.Header, body)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// detectAt fetches u and requires type typ and level level.
func detectAt(t *testing.T, det *Detector, u, typ, level string) (*vdoc.Doc, *Detection) {
	t.Helper()
	doc := fetch(t, u)
	d := det.Detect(doc)
	if d.App() != typ || d.Level == nil || d.Level.Name != level {
		lv := "<none>"
		if d.Level != nil {
			lv = d.Level.Name
		}
		t.Fatalf("%s: detected %q level %s, want %s level %s", u, d.App(), lv, typ, level)
	}
	return doc, d
}

// forbidden are URL parts of pages the WordPress and MediaWiki entries
// must never lead to: archives that repeat posts, feeds, logins, search,
// edit, history, diffs and special pages.
var forbidden = []string{"/tag/", "/author/", "/category/", "/feed/", "wp-login.php", "/wp-admin/", "?s=",
	"replytocom=", "action=edit", "action=history", "action=info", "diff=", "oldid=", "Special:", "title=Special",
	"printable=", "UserLogin", "do=edit", "do=revisions", "do=login", "rev="}

// listings are the special pages the MediaWiki entry follows to find every
// article: the list of special pages and the list of all pages.
var listings = []string{"Special:SpecialPages", "Special:AllPages"}

func checkLinks(t *testing.T, from string, links []Link) {
	t.Helper()
	for _, l := range links {
		if slices.ContainsFunc(listings, func(s string) bool { return strings.HasSuffix(l.URL, "/"+s) }) {
			continue
		}
		for _, f := range forbidden {
			if strings.Contains(l.URL, f) {
				t.Errorf("%s: link %s (to %s, by %s) contains %q", from, l.URL, l.Target, l.Pattern, f)
			}
		}
	}
}

func linksTo(links []Link, target string) []string {
	var out []string
	for _, l := range links {
		if l.Target == target {
			out = append(out, l.URL)
		}
	}
	return out
}

// TestWordPressLive crawls the real WordPress site as the KB says: index
// and pagination, then posts, whose extracted post and comments (author,
// date, text, reply_of threading, over every comment page) must agree
// with the database.
func TestWordPressLive(t *testing.T) {
	testenv.CMS(t, wpBase, "")
	det := NewDetector(builtinKB(t), nil)
	perPage, _ := strconv.Atoi(testenv.WordPressQuery(t, "SELECT option_value FROM wp_options WHERE option_name='posts_per_page'")[0][0])

	idx, d := detectAt(t, det, wpBase+"/", "wordpress", "list")
	links, fails := d.Type.Navigate(d.Level, idx)
	if len(fails) > 0 {
		t.Errorf("index: navigation failures %+v", fails)
	}
	checkLinks(t, "index", links)
	posts := linksTo(links, "post")
	if len(posts) != perPage {
		t.Errorf("index: %d post links, want %d (posts_per_page): %q", len(posts), perPage, posts)
	}
	next := linksTo(links, "list")
	if !slices.Contains(next, wpBase+"/page/2/") {
		t.Fatalf("index: no link to /page/2/ among %q", next)
	}
	p2, d2 := detectAt(t, det, wpBase+"/page/2/", "wordpress", "list")
	links2, _ := d2.Type.Navigate(d2.Level, p2)
	checkLinks(t, "page 2", links2)
	posts2 := linksTo(links2, "post")
	if len(posts2) != perPage {
		t.Errorf("page 2: %d post links, want %d", len(posts2), perPage)
	}
	for _, p := range posts2 {
		if slices.Contains(posts, p) {
			t.Errorf("page 2 repeats %s from page 1", p)
		}
	}

	// The newest posts, and the posts with the most comments (threaded,
	// over several comment pages).
	sample := posts
	for _, r := range testenv.WordPressQuery(t, "SELECT ID FROM wp_posts WHERE post_type='post' AND post_status='publish' ORDER BY comment_count DESC, ID LIMIT 2") {
		sample = append(sample, wpBase+"/?p="+r[0])
	}
	for _, u := range sample {
		checkWordPressPost(t, det, u)
	}
}

// checkWordPressPost compares what the KB extracts from a post and its
// comment pages with the database.
func checkWordPressPost(t *testing.T, det *Detector, u string) {
	doc, d := detectAt(t, det, u, "wordpress", "post")
	m := regexp.MustCompile(`\bpostid-(\d+)\b`).FindStringSubmatch(fetchBodyClass(doc))
	if m == nil {
		t.Fatalf("%s: no postid- body class", u)
	}
	id := m[1]
	row := testenv.WordPressQuery(t, "SELECT p.post_title, u.display_name, p.post_date_gmt, p.post_content FROM wp_posts p "+
		"JOIN wp_users u ON u.ID = p.post_author WHERE p.ID = "+id)[0]
	objs, fails := d.Type.Extract(d.Level, doc)
	for _, f := range fails {
		if f.Action != "records" || f.Level != "post" {
			t.Errorf("%s: extraction failure %+v", u, f)
		}
	}
	if len(objs) == 0 || objs[0].Kind != BlogPost {
		t.Fatalf("%s: no blog post extracted", u)
	}
	post := objs[0]
	if post.Title != html.UnescapeString(row[0]) {
		t.Errorf("%s: title %q, want %q", u, post.Title, row[0])
	}
	if post.Author != row[1] {
		t.Errorf("%s: author %q, want %q", u, post.Author, row[1])
	}
	if got := post.Date.UTC().Format(time.DateTime); got != row[2] {
		t.Errorf("%s: date %s, want %s (post_date_gmt)", u, got, row[2])
	}
	if f := f1(post.Content, stripTags(row[3])); f < 0.9 {
		t.Errorf("%s: content F1 %.2f against post_content", u, f)
	}
	terms := func(tax string) []string {
		var out []string
		for _, r := range testenv.WordPressQuery(t, "SELECT t.name FROM wp_terms t JOIN wp_term_taxonomy x ON x.term_id = t.term_id "+
			"JOIN wp_term_relationships r ON r.term_taxonomy_id = x.term_taxonomy_id WHERE r.object_id = "+id+
			" AND x.taxonomy = '"+tax+"'") {
			out = append(out, html.UnescapeString(r[0]))
		}
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		tax string
		got []string
	}{{"post_tag", post.Tags}, {"category", post.Categories}} {
		got := slices.Sorted(slices.Values(c.got))
		if want := terms(c.tax); !slices.Equal(got, want) {
			t.Errorf("%s: %s %q, want %q", u, c.tax, got, want)
		}
	}

	type dbComment struct{ parent, author, date, content string }
	want := map[string]dbComment{}
	for _, r := range testenv.WordPressQuery(t, "SELECT comment_ID, comment_parent, comment_author, comment_date_gmt, comment_content "+
		"FROM wp_comments WHERE comment_approved = '1' AND comment_post_ID = "+id) {
		want["comment-"+r[0]] = dbComment{r[1], r[2], r[3], r[4]}
	}
	seen := map[string]bool{}
	pages := []string{doc.URL.String()}
	for i := 0; i < len(pages); i++ {
		pdoc := doc
		if i > 0 {
			pdoc, d = detectAt(t, det, pages[i], "wordpress", "post")
		}
		objs, _ := d.Type.Extract(d.Level, pdoc)
		for _, o := range objs[1:] {
			if o.Kind != Comment {
				t.Errorf("%s: object %s of kind %s after the post", pages[i], o.IRI, o.Kind)
				continue
			}
			w, ok := want[o.ID]
			if !ok {
				t.Errorf("%s: comment %q not in the database", pages[i], o.ID)
				continue
			}
			seen[o.ID] = true
			if o.Author != w.author {
				t.Errorf("%s %s: author %q, want %q", pages[i], o.ID, o.Author, w.author)
			}
			if got := o.Date.UTC().Format(time.DateTime); got != w.date {
				t.Errorf("%s %s: date %s, want %s", pages[i], o.ID, got, w.date)
			}
			if f := f1(o.Content, stripTags(w.content)); f < 0.9 {
				t.Errorf("%s %s: content F1 %.2f", pages[i], o.ID, f)
			}
			wantReply := post.IRI
			if w.parent != "0" {
				wantReply = "#comment-" + w.parent
			}
			if !strings.HasSuffix(o.ReplyTo, wantReply) {
				t.Errorf("%s %s: reply_of %q, want …%s", pages[i], o.ID, o.ReplyTo, wantReply)
			}
		}
		links, _ := d.Type.Navigate(d.Level, pdoc)
		checkLinks(t, pages[i], links)
		for _, l := range linksTo(links, "post") {
			if strings.Contains(l, "/comment-page-") && !slices.Contains(pages, l) {
				pages = append(pages, l)
			}
		}
	}
	for cid := range want {
		if !seen[cid] {
			t.Errorf("%s: comment %s of the database not extracted from its %d comment pages", u, cid, len(pages))
		}
	}
	if len(want) > 10 && len(pages) < 2 {
		t.Errorf("%s: %d comments but no comment page followed", u, len(want))
	}
	t.Logf("%s: post %s, %d comments over %d pages", u, id, len(seen), len(pages))
}

func fetchBodyClass(doc *vdoc.Doc) string {
	for _, b := range doc.Elements("body") {
		return attr(b, "class")
	}
	return ""
}

var tagRE = regexp.MustCompile(`<[^>]*>`)

// stripTags turns stored post HTML (with block comments) into its text.
func stripTags(s string) string {
	return html.UnescapeString(tagRE.ReplaceAllString(regexp.MustCompile(`(?s)<!--.*?-->`).ReplaceAllString(s, " "), " "))
}

// TestWordPressQuads maps a real post with threaded comments to RDF and
// checks the ontology terms and the reply_of links.
func TestWordPressQuads(t *testing.T) {
	testenv.CMS(t, wpBase, "")
	det := NewDetector(builtinKB(t), nil)
	id := testenv.WordPressQuery(t, "SELECT comment_post_ID FROM wp_comments WHERE comment_parent <> 0 AND comment_approved = '1' ORDER BY comment_ID LIMIT 1")[0][0]
	doc, d := detectAt(t, det, wpBase+"/?p="+id, "wordpress", "post")
	objs, _ := d.Type.Extract(d.Level, doc)
	g := rdf.IRI("urn:test:graph")
	quads := Quads(objs, rdf.IRI("urn:test:capture"), g)
	has := func(s rdf.Term, p string, o rdf.Term) bool {
		return slices.ContainsFunc(quads, func(q rdf.Quad) bool { return q.S == s && q.P.Value == p && q.O == o && q.G == g })
	}
	post := rdf.IRI(objs[0].IRI)
	for _, class := range []string{ontology.SIOCPost, ontology.SIOCTBlogPost, ontology.SchemaBlogPosting} {
		if !has(post, rdf.RDFType, rdf.IRI(class)) {
			t.Errorf("post %s lacks rdf:type %s", post.Value, class)
		}
	}
	if !has(post, ontology.DCTermsTitle, rdf.String(objs[0].Title)) {
		t.Errorf("post lacks dcterms:title %q", objs[0].Title)
	}
	nested := 0
	for _, o := range objs[1:] {
		c := rdf.IRI(o.IRI)
		if !has(c, rdf.RDFType, rdf.IRI(ontology.SIOCTComment)) {
			t.Errorf("comment %s lacks rdf:type sioct:Comment", c.Value)
		}
		if !has(c, ontology.SIOCReplyOf, rdf.IRI(o.ReplyTo)) {
			t.Errorf("comment %s lacks sioc:reply_of %s", c.Value, o.ReplyTo)
		}
		if o.ReplyTo != post.Value {
			nested++
		}
		if !has(c, ontology.DCTermsCreated, rdf.Literal(o.Date.Format(time.RFC3339), rdf.XSDDateTime)) {
			t.Errorf("comment %s lacks dcterms:created", c.Value)
		}
	}
	if nested == 0 {
		t.Errorf("no comment replies to another comment on post %s", id)
	}
	for _, q := range quads {
		if err := q.Validate(); err != nil {
			t.Errorf("invalid quad %v: %v", q, err)
		}
	}
}

// TestMediaWikiLive checks MediaWiki detection, navigation (no history,
// diff, edit, login or special links) and article extraction against the
// wiki's API.
func TestMediaWikiLive(t *testing.T) {
	testenv.CMS(t, mwBase, "")
	det := NewDetector(builtinKB(t), nil)
	var api struct {
		Query struct {
			AllPages []struct{ Title string } `json:"allpages"`
		} `json:"query"`
	}
	testenv.GetJSON(t, mwBase+"/api.php?action=query&list=allpages&apnamespace=0&aplimit=8&format=json", &api)
	if len(api.Query.AllPages) == 0 {
		t.Fatal("the wiki has no articles")
	}
	for _, p := range append([]struct{ Title string }{{"Main Page"}}, api.Query.AllPages...) {
		u := mwBase + "/wiki/" + url.PathEscape(strings.ReplaceAll(p.Title, " ", "_"))
		doc, d := detectAt(t, det, u, "mediawiki", "article")
		links, _ := d.Type.Navigate(d.Level, doc)
		checkLinks(t, u, links)
		objs, fails := d.Type.Extract(d.Level, doc)
		if len(fails) > 0 {
			t.Errorf("%s: extraction failures %+v", u, fails)
		}
		if len(objs) != 1 || objs[0].Kind != WikiArticle {
			t.Fatalf("%s: %d objects extracted, want one wiki article", u, len(objs))
		}
		a := objs[0]
		if a.Title != p.Title {
			t.Errorf("%s: title %q, want %q", u, a.Title, p.Title)
		}
		pg := testenv.MediaWikiPage(t, mwBase, p.Title)
		if !a.Modified.Equal(pg.Modified.Truncate(time.Minute)) {
			t.Errorf("%s: modified %s, want %s (last revision, to the minute)", u, a.Modified, pg.Modified)
		}
		if f := f1(a.Content, testenv.WikiText(pg.Wikitext)); f < 0.8 {
			t.Errorf("%s: content F1 %.2f against the wikitext", u, f)
		}
		if got := slices.Sorted(slices.Values(a.Categories)); !slices.Equal(got, pg.Categories) {
			t.Errorf("%s: categories %q, want %q", u, got, pg.Categories)
		}
	}
}

// TestDokuWikiLive checks DokuWiki detection, navigation and page
// extraction on the real wiki.
func TestDokuWikiLive(t *testing.T) {
	testenv.CMS(t, dwBase, "")
	det := NewDetector(builtinKB(t), nil)
	doc := fetch(t, dwBase+"/doku.php")
	d := det.Detect(doc)
	if d.App() != "dokuwiki" || d.Level == nil {
		t.Fatalf("start page: detected %q", d.App())
	}
	links, _ := d.Type.Navigate(d.Level, doc)
	checkLinks(t, "start", links)
	if len(links) == 0 {
		t.Fatal("start page: no links to follow")
	}
	n := 0
	for _, l := range links {
		if n == 5 {
			break
		}
		pdoc := fetch(t, l.URL)
		pd := det.Detect(pdoc)
		if pd.App() != "dokuwiki" || pd.Level == nil || !pd.Level.Terminal {
			continue
		}
		n++
		objs, fails := pd.Type.Extract(pd.Level, pdoc)
		if len(fails) > 0 {
			t.Errorf("%s: extraction failures %+v", l.URL, fails)
		}
		if len(objs) == 0 || objs[0].Title == "" || len(tokens(objs[0].Content)) < 5 {
			t.Errorf("%s: no page with title and text extracted: %+v", l.URL, objs)
		}
	}
	if n == 0 {
		t.Error("no wiki page reached from the start page")
	}
}
