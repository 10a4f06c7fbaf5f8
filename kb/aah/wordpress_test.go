package aah_test

import (
	"html"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/ontology"
)

// wget is the outcome of wget --recursive on a site.
type wget struct {
	requests int
	pages    []page
	took     time.Duration
}

// runWget mirrors base with wget --recursive, as scripts/bench-crawl.sh
// does, and reads back its HTML pages.
func runWget(t *testing.T, base string) *wget {
	t.Helper()
	if _, err := exec.LookPath("wget"); err != nil {
		t.Skip("wget is not installed (apt-get install wget)")
	}
	dir := t.TempDir()
	cmd := exec.Command("wget", "--recursive", "--level=inf", "--no-parent", "--no-verbose", "-e", "robots=off",
		"-o", "wget.log", base+"/")
	cmd.Dir = dir
	start := time.Now()
	err := cmd.Run()
	w := &wget{took: time.Since(start)}
	// Exit status 8: some response was an error (xmlrpc.php answers 405).
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 8) {
		t.Fatalf("wget: %v", err)
	}
	logText, err := os.ReadFile(filepath.Join(dir, "wget.log"))
	if err != nil {
		t.Fatal(err)
	}
	// -nv writes a line with " URL:" per response saved and an ERROR line
	// per error response.
	for _, line := range strings.Split(string(logText), "\n") {
		if strings.Contains(line, " URL:") || strings.Contains(line, " ERROR ") {
			w.requests++
		}
	}
	root := filepath.Join(dir, strings.TrimPrefix(base, "http://"))
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		// wget keeps no media types: an HTML page is one that starts as
		// one (oEmbed XML quotes HTML further in).
		head := strings.ToLower(strings.TrimSpace(string(body[:min(len(body), 512)])))
		if !strings.HasPrefix(head, "<!doctype html") && !strings.HasPrefix(head, "<html") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		u := base + "/" + strings.TrimSuffix(filepath.ToSlash(rel), "index.html")
		p, err := parsePage(u, body)
		if err != nil {
			return err
		}
		w.pages = append(w.pages, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestWordPressAAH is the acceptance test on the real WordPress site
// (twentytwentyone): the application-aware crawl makes at least 7× fewer
// requests than wget --recursive in the same run, covers ≥ 98 % of the
// word 2-grams of wget's pages (blocks on half the pages or more left
// out as boilerplate) and ≥ 99 % of their external links, and stores
// every post and comment exactly as the database has them, threading
// included.
func TestWordPressAAH(t *testing.T) {
	base := testenv.WordPress
	testenv.CMS(t, base, "")
	wpPosts := testenv.WordPressQuery(t, "SELECT p.ID, p.post_title, u.display_name, p.post_date_gmt, p.post_content, p.post_name, p.post_date "+
		"FROM wp_posts p JOIN wp_users u ON u.ID = p.post_author WHERE p.post_type = 'post' AND p.post_status = 'publish'")
	wpComments := testenv.WordPressQuery(t, "SELECT comment_ID, comment_parent, comment_post_ID, comment_author, comment_date_gmt, comment_content "+
		"FROM wp_comments WHERE comment_approved = '1'")

	w := runWget(t, base)
	c := crawlWithAAH(t, 5*time.Minute, base+"/")
	t.Logf("wget --recursive: %d requests, %d HTML pages, %.1f s", w.requests, len(w.pages), w.took.Seconds())
	t.Logf("AAH crawl: %d requests, %d HTML pages, %.1f s", c.requests, len(c.pages), c.took.Seconds())
	for _, s := range sitesOf(t, c.helper) {
		t.Logf("site %s: %s, %d pages (%d of a known level), %d objects", s.Root, s.Name, s.Pages, s.Leveled, s.Objects)
	}
	ratio := float64(w.requests) / float64(c.requests)
	t.Logf("requests wget / AAH: %.1f×", ratio)
	if ratio < 7 {
		t.Errorf("AAH made %d requests, wget %d: %.1f× fewer, want ≥ 7×", c.requests, w.requests, ratio)
	}

	bp := boilerplate(w.pages)
	want, got := map[string]bool{}, map[string]bool{}
	for _, p := range w.pages {
		bigrams(want, p.blocks, bp)
	}
	for _, p := range c.pages {
		bigrams(got, p.blocks, bp)
	}
	cov, missing := coverage(want, got)
	t.Logf("2-grams: %.2f %% of wget's %d distinct (%d boilerplate blocks left out); missing e.g. %q", 100*cov, len(want), len(bp), missing)
	if cov < 0.98 {
		t.Errorf("AAH covers %.2f %% of wget's 2-grams, want ≥ 98 %%", 100*cov)
	}
	host := strings.TrimPrefix(base, "http://")
	extCov, extMissing := coverage(external(w.pages, host), external(c.pages, host))
	t.Logf("external links: %.2f %% of wget's %d; missing e.g. %q", 100*extCov, len(external(w.pages, host)), extMissing)
	if extCov < 0.99 {
		t.Errorf("AAH covers %.2f %% of wget's external links, want ≥ 99 %%", 100*extCov)
	}

	posts, comments := checkWordPressObjects(t, c, base, wpPosts, wpComments)
	// One line for scripts/bench-aah.sh.
	t.Logf("figures: site=WordPress wget_requests=%d wget_s=%.1f aah_requests=%d aah_s=%.1f ratio=%.1f bigrams=%.2f bigrams_of=%d external=%.2f external_of=%d posts=%d/%d comments=%d/%d",
		w.requests, w.took.Seconds(), c.requests, c.took.Seconds(), ratio, 100*cov, len(want), 100*extCov,
		len(external(w.pages, host)), posts, len(wpPosts), comments, len(wpComments))
}

// checkWordPressObjects compares the posts and comments in the crawl's
// graph with the database rows: exact title, author, date (GMT) and text
// (whitespace collapsed), and each comment's sioc:reply_of. It returns
// how many posts and comments were exact in every respect.
func checkWordPressObjects(t *testing.T, c *aahCrawl, base string, posts, comments [][]string) (exactPosts, exactComments int) {
	g := readGraph(t, c.store, c.id)
	perm := testenv.WordPressQuery(t, "SELECT option_value FROM wp_options WHERE option_name = 'permalink_structure'")[0][0]
	postIRI := map[string]string{} // post ID → permalink
	for _, p := range posts {
		d, err := time.Parse(time.DateTime, p[6])
		if err != nil {
			t.Fatal(err)
		}
		postIRI[p[0]] = base + strings.NewReplacer("%year%", d.Format("2006"), "%monthnum%", d.Format("01"),
			"%day%", d.Format("02"), "%postname%", p[5], "%post_id%", p[0]).Replace(perm)
	}
	captures := map[string]bool{}
	for subj, ps := range g {
		if len(ps[ontology.URL]) > 0 && len(ps[ontology.WARCRecordID]) > 0 {
			captures[subj] = true
		}
	}
	// single returns the one value of a property, failing on none or on
	// several (two captures that disagree).
	single := func(subj, pred string) string {
		vs := g[subj][pred]
		var distinct []string
		for _, v := range vs {
			if !slices.Contains(distinct, v.Value) {
				distinct = append(distinct, v.Value)
			}
		}
		if len(distinct) != 1 {
			t.Errorf("%s: %d values of %s: %q", subj, len(distinct), pred, distinct)
			return ""
		}
		return distinct[0]
	}
	author := func(subj string) string { return single(single(subj, ontology.SIOCHasCreator), ontology.SIOCName) }
	created := func(subj string) string {
		d, err := time.Parse(time.RFC3339, single(subj, ontology.DCTermsCreated))
		if err != nil {
			t.Errorf("%s: dcterms:created: %v", subj, err)
		}
		return d.UTC().Format(time.DateTime)
	}
	derived := func(subj string) {
		for _, capt := range g[subj][ontology.ProvWasDerivedFrom] {
			if !captures[capt.Value] {
				t.Errorf("%s derived from %s, not a capture of the crawl", subj, capt.Value)
			}
		}
		if len(g[subj][ontology.ProvWasDerivedFrom]) == 0 {
			t.Errorf("%s: no prov:wasDerivedFrom", subj)
		}
	}

	stored := g.typed(ontology.SIOCTBlogPost)
	exact := 0
	for _, p := range posts {
		iri := postIRI[p[0]]
		if !slices.Contains(stored, iri) {
			t.Errorf("post %s (%s) not in the store", p[0], iri)
			continue
		}
		derived(iri)
		ok := check(t, iri, "title", single(iri, ontology.DCTermsTitle), html.UnescapeString(p[1])) &&
			check(t, iri, "author", author(iri), p[2]) &&
			check(t, iri, "date", created(iri), p[3]) &&
			check(t, iri, "text", collapse(single(iri, ontology.SIOCContent)), collapse(stripTags(p[4])))
		if ok {
			exact++
		}
	}
	if len(stored) != len(posts) {
		t.Errorf("%d blog posts in the store, the database has %d", len(stored), len(posts))
	}

	byID := map[string]string{} // "comment-N" → IRI
	for _, s := range g.typed(ontology.SIOCTComment) {
		byID[single(s, ontology.DCTermsIdentifier)] = s
	}
	exactC, threaded := 0, 0
	for _, cm := range comments {
		iri, ok := byID["comment-"+cm[0]]
		if !ok {
			t.Errorf("comment %s of post %s not in the store", cm[0], cm[2])
			continue
		}
		derived(iri)
		wantReply := postIRI[cm[2]]
		if cm[1] != "0" {
			wantReply = byID["comment-"+cm[1]]
			threaded++
		}
		ok = check(t, iri, "author", author(iri), cm[3]) &&
			check(t, iri, "date", created(iri), cm[4]) &&
			check(t, iri, "text", collapse(single(iri, ontology.SIOCContent)), collapse(stripTags(cm[5]))) &&
			check(t, iri, "sioc:reply_of", single(iri, ontology.SIOCReplyOf), wantReply)
		if ok {
			exactC++
		}
	}
	if len(byID) != len(comments) {
		t.Errorf("%d comments in the store, the database has %d approved", len(byID), len(comments))
	}
	t.Logf("posts exact: %d of %d; comments exact (author, date, text, reply_of): %d of %d, %d of them replies to comments",
		exact, len(posts), exactC, len(comments), threaded)
	return exact, exactC
}

func check(t *testing.T, subj, what, got, want string) bool {
	t.Helper()
	if got == want {
		return true
	}
	// Long texts: show where they part.
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(i-40, 0)
	t.Errorf("%s: %s differs from the database at byte %d: %q, database %q", subj, what, i, got[from:min(len(got), i+60)], want[from:min(len(want), i+60)])
	return false
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

var (
	blockRE   = regexp.MustCompile(`(?i)</?(p|h[1-6]|li|ul|ol|div|blockquote|figure|figcaption|pre|table|tr|td|th|br|hr)\b[^>]*>`)
	tagRE     = regexp.MustCompile(`<[^>]*>`)
	commentRE = regexp.MustCompile(`(?s)<!--.*?-->`)
)

// stripTags turns stored post HTML (with block comments) into its text:
// block tags part words, inline tags (links, emphasis) do not.
func stripTags(s string) string {
	s = blockRE.ReplaceAllString(commentRE.ReplaceAllString(s, " "), " ")
	return html.UnescapeString(tagRE.ReplaceAllString(s, ""))
}
