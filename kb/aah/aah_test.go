package aah_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/internal/synthweb"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/aah"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// TestDemoSites crawls the synthetic blog (WordPress markup), forum
// (phpBB) and wiki (MediaWiki) of package synthweb, with their traps,
// and a site of no known application: each site's application is named,
// no trap or duplicate view is fetched on the known ones, the unknown one
// is crawled with its every link, and posts, comments, forum posts and
// wiki articles are stored, derived from their captures.
func TestDemoSites(t *testing.T) {
	d, err := synthweb.StartDemo()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<html><body><a href="/tag/news/">news</a> <a href="/about">about</a></body></html>`)
		case "/tag/news/", "/about":
			fmt.Fprint(w, `<html><body><p>plain page</p></body></html>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(plain.Close)

	c := crawlWithAAH(t, 3*time.Minute, append(d.Seeds(), plain.URL+"/")...)
	t.Logf("AAH crawl of the demo: %d requests, %d HTML pages, %.1f s", c.requests, len(c.pages), c.took.Seconds())
	apps := map[string]string{}
	for _, s := range sitesOf(t, c.helper) {
		apps[strings.TrimSuffix(s.Root, "/")] = s.App
		t.Logf("site %s: %q, %d pages (%d of a known level), %d objects", s.Root, s.App, s.Pages, s.Leveled, s.Objects)
	}
	for base, want := range map[string]string{d.Blog: "wordpress", d.Forum: "phpbb", d.Wiki: "mediawiki", plain.URL: ""} {
		if apps[base] != want {
			t.Errorf("%s: application %q, want %q", base, apps[base], want)
		}
	}
	traps := []string{"/events/month/", "/tag/", "/author/", "oldid=", "action=", "printable=", "diff=", "Special:RecentChanges",
		"search.php", "ucp.php", "posting.php", "memberlist.php"}
	fetched := map[string]bool{}
	for _, e := range c.log {
		fetched[e.URI] = true
		if strings.HasPrefix(e.URI, plain.URL) {
			continue
		}
		for _, trap := range traps {
			if strings.Contains(e.URI, trap) {
				t.Errorf("fetched %s (%q)", e.URI, trap)
			}
		}
	}
	for _, p := range []string{"/", "/tag/news/", "/about"} {
		if !fetched[plain.URL+p] {
			t.Errorf("unknown application: %s not fetched with the generic extractor", plain.URL+p)
		}
	}

	g := readGraph(t, c.store, c.id)
	counts := map[string]int{}
	for _, class := range []string{ontology.SIOCTBlogPost, ontology.SIOCTComment, ontology.SchemaDiscussionForumPosting, ontology.SIOCTWikiArticle} {
		for _, s := range g.typed(class) {
			counts[class]++
			capt := g.one(s, ontology.ProvWasDerivedFrom)
			if g.one(capt, ontology.URL) == "" || g.one(capt, ontology.Application) == "" || g.one(capt, ontology.PageLevel) == "" {
				t.Errorf("%s derived from %q, not a capture with its application and level", s, capt)
			}
			if class != ontology.SIOCTComment && g.one(s, ontology.DCTermsTitle) == "" {
				t.Errorf("%s (%s) has no title", s, class)
			}
		}
		if counts[class] == 0 {
			t.Errorf("no %s stored", class)
		}
	}
	replies := 0
	for _, s := range g.typed(ontology.SIOCTComment) {
		if to := g.one(s, ontology.SIOCReplyOf); to != "" {
			replies++
			if g[to] == nil {
				t.Errorf("comment %s replies to %s, which is not stored", s, to)
			}
		}
	}
	t.Logf("stored: %v; %d comments with sioc:reply_of", counts, replies)
	if replies == 0 {
		t.Error("no comment has sioc:reply_of")
	}
	if got := g.one(aah.SiteIRI(d.Blog+"/"), ontology.Application); got != aah.AppIRI("wordpress") {
		t.Errorf("site %s/: mneme:application %q, want %s", d.Blog, got, aah.AppIRI("wordpress"))
	}
}

// htmlPage is a crawler.Page of HTML fetched from u.
func htmlPage(t *testing.T, u, body string) crawler.Page {
	t.Helper()
	cu, err := canon.New(canon.Options{}).Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return crawler.Page{URL: cu, MediaType: "text/html", Header: http.Header{}, Body: []byte(body)}
}

func hrefs(ls []extract.Outlink) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.URL.Href)
	}
	return out
}

// TestRedetect: a site's application is detected on its first page and
// kept while pages fit its levels; a page of the application that fits
// no level keeps its links but those the application avoids; a page
// that fits no level and is detected as another application makes the
// site change application, which is logged.
func TestRedetect(t *testing.T) {
	k, err := kb.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	h := aah.New(kb.NewDetector(k, nil), aah.Options{Log: &log})
	const wpHead = `<html><head><meta name="generator" content="WordPress 6.1"></head>`
	an, err := h.Analyze(htmlPage(t, "http://blog.test/", wpHead+`<body class="home blog">
		<article><h2 class="entry-title"><a href="/2024/01/a-post/">A post</a></h2></article>
		<a href="/tag/x/">tag</a> <a href="/2024/01/">January</a></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	follow := hrefs(an.Follow)
	if want := []string{"http://blog.test/2024/01/a-post/"}; !slices.Equal(follow, want) {
		t.Errorf("home page: follows %q, want %q (the KB's post links only)", follow, want)
	}
	if len(an.Links) != 3 {
		t.Errorf("home page: %d links recorded, want the page's 3", len(an.Links))
	}
	if an.Annotation != "app:wordpress/list" {
		t.Errorf("home page: annotation %q", an.Annotation)
	}

	// No level: the page's links, without those WordPress avoids.
	an, err = h.Analyze(htmlPage(t, "http://blog.test/odd/", wpHead+`<body>
		<a href="/tag/x/">tag</a> <a href="/2024/01/">January</a></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	follow = hrefs(an.Follow)
	if want := []string{"http://blog.test/2024/01/"}; !slices.Equal(follow, want) {
		t.Errorf("page of no level: follows %q, want %q", follow, want)
	}

	// The site now answers as a MediaWiki.
	an, err = h.Analyze(htmlPage(t, "http://blog.test/wiki/Main_Page", `<html><head><meta name="generator" content="MediaWiki 1.39.3"></head>
		<body class="mediawiki ltr ns-0 ns-subject page-Main_Page action-view"><h1 id="firstHeading">Main Page</h1>
		<div id="mw-content-text"><div class="mw-parser-output"><p>Welcome. <a href="/wiki/Other">Other</a>
		<a href="/index.php?title=Other&amp;action=history">history</a></p></div></div></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	if an.Annotation != "app:mediawiki/article" {
		t.Errorf("wiki page: annotation %q, want app:mediawiki/article", an.Annotation)
	}
	follow = hrefs(an.Follow)
	if want := []string{"http://blog.test/wiki/Other"}; !slices.Equal(follow, want) {
		t.Errorf("wiki page: follows %q, want %q", follow, want)
	}
	if !strings.Contains(log.String(), "changed from WordPress to MediaWiki") {
		t.Errorf("no change of application logged:\n%s", log.String())
	}
	sites := sitesOf(t, h)
	if len(sites) != 1 || sites[0].App != "mediawiki" || sites[0].Pages != 3 || sites[0].Leveled != 2 || sites[0].Objects != 1 {
		t.Errorf("sites: %+v, want one MediaWiki site of 3 pages, 2 of a known level, 1 object", sites)
	}

	// The wiki page's statements: the site's application, the page's
	// level, the article derived from the capture.
	capture, g := rdf.IRI("urn:uuid:capture"), rdf.IRI("urn:mneme:crawl:test")
	quads := an.Quads(capture, g)
	has := func(s rdf.Term, p string, o rdf.Term) bool {
		return slices.ContainsFunc(quads, func(q rdf.Quad) bool { return q.S == s && q.P.Value == p && q.O == o && q.G == g })
	}
	for _, c := range []struct {
		s    rdf.Term
		p    string
		o    rdf.Term
		what string
	}{
		{rdf.IRI(aah.SiteIRI("http://blog.test/")), ontology.Application, rdf.IRI(aah.AppIRI("mediawiki")), "the site's application"},
		{rdf.IRI(aah.SiteIRI("http://blog.test/")), rdf.RDFType, rdf.IRI(ontology.SIOCSite), "the site's type"},
		{capture, ontology.Application, rdf.IRI(aah.AppIRI("mediawiki")), "the capture's application"},
		{capture, ontology.PageLevel, rdf.String("article"), "the capture's level"},
		{rdf.IRI("http://blog.test/wiki/Main_Page"), ontology.ProvWasDerivedFrom, capture, "the article's capture"},
		{rdf.IRI("http://blog.test/wiki/Main_Page"), ontology.DCTermsTitle, rdf.String("Main Page"), "the article's title"},
		{rdf.IRI("http://blog.test/wiki/Main_Page"), ontology.SIOCHasContainer, rdf.IRI(aah.ContainerIRI("http://blog.test/", "wiki")), "the article's wiki"},
	} {
		if !has(c.s, c.p, c.o) {
			t.Errorf("no statement of %s: %s %s %s", c.what, c.s, c.p, c.o)
		}
	}
	// The site is typed apart from every page and object.
	types := map[rdf.Term][]string{}
	for _, q := range quads {
		if q.P.Value == rdf.RDFType {
			types[q.S] = append(types[q.S], q.O.Value)
		}
	}
	for s, ts := range types {
		if slices.Contains(ts, ontology.SIOCSite) && len(ts) > 1 {
			t.Errorf("%s is typed %q: a site and something else", s, ts)
		}
	}
}

// sitesOf returns h.Sites, failing t on an error.
func sitesOf(t *testing.T, h *aah.Helper) []aah.Site {
	t.Helper()
	sites, err := h.Sites()
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestSiteSpill analyzes pages of more sites than the helper keeps in
// RAM: the sites it spilled keep their application and counts (a page of
// one is not detected again, nor logged as a new site), Sites lists
// every site, and Close removes the spill.
func TestSiteSpill(t *testing.T) {
	k, err := kb.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	dir := t.TempDir()
	h := aah.New(kb.NewDetector(k, nil), aah.Options{Log: &log, MaxSites: 2, SpillDir: dir})
	page := func(host string) crawler.Page {
		return htmlPage(t, "http://"+host+"/", `<html><head><meta name="generator" content="WordPress 6.1"></head>
			<body class="home blog"><article><h2 class="entry-title"><a href="/a-post/">A post</a></h2></article></body></html>`)
	}
	hosts := []string{"a.test", "b.test", "c.test", "d.test", "e.test"}
	for round := range 2 {
		for _, host := range hosts[:len(hosts)-round] {
			an, err := h.Analyze(page(host))
			if err != nil {
				t.Fatal(err)
			}
			if an.Annotation != "app:wordpress/list" {
				t.Errorf("round %d, %s: annotation %q, want app:wordpress/list", round, host, an.Annotation)
			}
		}
	}
	if n := strings.Count(log.String(), "is WordPress"); n != len(hosts) {
		t.Errorf("%d sites logged as detected, want %d:\n%s", n, len(hosts), log.String())
	}
	sites := sitesOf(t, h)
	if len(sites) != len(hosts) {
		t.Fatalf("%d sites, want %d: %+v", len(sites), len(hosts), sites)
	}
	for i, s := range sites {
		pages := 2
		if i == len(hosts)-1 {
			pages = 1
		}
		if s.Root != "http://"+hosts[i]+"/" || s.App != "wordpress" || s.Type == nil || s.Pages != pages || s.Leveled != pages {
			t.Errorf("site %d: %+v, want %s as WordPress with %d pages of a known level", i, s, hosts[i], pages)
		}
	}
	spilled, err := os.ReadDir(dir)
	if err != nil || len(spilled) != 1 {
		t.Fatalf("spill directory: %v, %v; want one", spilled, err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left after Close: %v", left)
	}
}

// TestUnknownSiteDetectedOnFewerPages analyzes many pages of a site of no
// known application whose pages all carry a literal of a detection
// pattern (so that each could name one): past the first freeCandidates,
// only the pages whose count is a power of two are detected in full, so
// a WordPress page among them is recognised on the 64th, not the 41st.
func TestUnknownSiteDetectedOnFewerPages(t *testing.T) {
	k, err := kb.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	h := aah.New(kb.NewDetector(k, nil), aah.Options{Log: io.Discard})
	const wp = `<html><head><meta name="generator" content="WordPress 6.1"></head><body class="home blog">
		<article><h2 class="entry-title"><a href="/2024/01/a-post/">A post</a></h2></article></body></html>`
	// The page's head links one WordPress asset (a lone weak signal: no
	// application), which the literal prefilter cannot tell from more.
	const plain = `<html><head><title>phpbb, wp-content and mediawiki notes</title></head><body><p>notes</p></body></html>`
	analyze := func(i int, body string) string {
		t.Helper()
		an, err := h.Analyze(htmlPage(t, fmt.Sprintf("http://plain.test/%d", i), body))
		if err != nil {
			t.Fatal(err)
		}
		return an.Annotation
	}
	if a := analyze(0, plain); a != "" {
		t.Fatalf("a plain page is annotated %q: the test's page names an application", a)
	}
	// The first 3 pages are mined for a forum's records (probePages),
	// the next 40 are candidates.
	for i := 1; i < 43; i++ {
		analyze(i, plain)
	}
	sites := sitesOf(t, h)
	if len(sites) != 1 || sites[0].Candidates != 40 {
		t.Fatalf("sites %+v, want one whose pages after the 3 probed were 40 candidates", sites)
	}
	if a := analyze(43, wp); a != "" {
		t.Errorf("41st candidate page detected (%q): only powers of two past the first 8 are", a)
	}
	for i := 44; i < 66; i++ {
		analyze(i, plain)
	}
	if a := analyze(66, wp); !strings.HasPrefix(a, "app:wordpress") {
		t.Errorf("64th candidate page: annotation %q, want WordPress", a)
	}
}
