package importer_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mneme-archive/mneme/crawler/warc/warctest"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/social/campaign"
	"github.com/mneme-archive/mneme/social/importer"
	"github.com/mneme-archive/mneme/social/platform"
	"github.com/mneme-archive/mneme/social/socialrdf"
	"github.com/mneme-archive/mneme/sparql"
)

// runImport imports the files as the campaign id of a new data folder.
func runImport(t testing.TB, id string, pagePosts int, files ...string) (st *graph.Store, l campaign.Layout, status campaign.Status, closeStore func()) {
	t.Helper()
	return runImportWith(t, id, &importer.Importer{PagePosts: pagePosts}, files...)
}

// runImportWith is runImport with the import platform im.
func runImportWith(t testing.TB, id string, im *importer.Importer, files ...string) (st *graph.Store, l campaign.Layout, status campaign.Status, closeStore func()) {
	t.Helper()
	l = campaign.Layout{Data: t.TempDir()}
	spec := fmt.Sprintf("id: %s\npairs:\n", id)
	for _, f := range files {
		abs, _ := filepath.Abs(f)
		spec += fmt.Sprintf("  - {platform: import, kind: list, query: %q}\n", abs)
	}
	s, err := campaign.Parse([]byte(spec), id)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Create(s); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(l.Store(), 0o755)
	// As mneme social opens it for a campaign run in its own process.
	st, err = graph.Open(l.Store(), graph.OpenOptions{CacheBytes: graph.BulkCacheBytes})
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	closeStore = func() { once.Do(func() { st.Close() }) }
	t.Cleanup(closeStore)
	r := &campaign.Runner{Layout: l, Spec: s, Store: st, Platforms: map[string]platform.Platform{importer.Name: im}}
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return st, l, r.Status(), closeStore
}

func rows(t testing.TB, st *graph.Store, q string) [][]rdf.Term {
	t.Helper()
	snap := st.Snapshot()
	defer snap.Close()
	var out [][]rdf.Term
	err := sparql.Each(context.Background(), snap, q, func(row []rdf.Term) error {
		out = append(out, append([]rdf.Term(nil), row...))
		return nil
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	return out
}

// TestImportShapes imports v1.1 tweets, a v2 page, a flattened v2 tweet
// and bad lines, two lines a page.
func TestImportShapes(t *testing.T) {
	st, l, status, _ := runImport(t, "shapes", 2, "testdata/mixed.jsonl")
	if status.State != campaign.Done {
		t.Fatalf("status %+v", status)
	}
	g := socialrdf.CampaignIRI("shapes")
	got := rows(t, st, fmt.Sprintf(`SELECT ?post ?text ?created ?handle WHERE { GRAPH <%s> {
  ?post a <%s> ; <%s> ?created ; <%s> ?acc . OPTIONAL { ?post <%s> ?text } OPTIONAL { ?acc <%s> ?handle } } } ORDER BY ?created`,
		g, ontology.SchemaSocialMediaPosting, ontology.DCTermsCreated, ontology.SIOCHasCreator, ontology.SIOCContent, ontology.SIOCName))
	want := [][4]string{
		{"https://twitter.com/TwitterAPI/status/1050118621198921728", "To make room for more expression, we will now count all emojis as equal #emoji https://t.co/abc", "2018-10-10T20:19:24.000Z", "TwitterAPI"},
		{"https://twitter.com/fan99/status/1050300000000000001", "RT @TwitterAPI: To make room for more expression", "2018-10-11T08:00:00.000Z", "fan99"},
		{"https://twitter.com/TwitterDev/status/1460323737035677698", "Introducing a new era for the Twitter Developer Platform! #TwitterAPI https://t.co/xyz", "2021-11-15T19:08:05.000Z", "TwitterDev"},
		{"https://twitter.com/jack/status/1460323737035677699", "@TwitterDev congrats", "2021-11-15T19:10:00.000Z", "jack"},
		{"https://twitter.com/flat/status/1460400000000000000", "a flattened tweet quoting #TwitterAPI", "2021-11-16T10:00:00.000Z", "flat"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d posts, want %d: %v", len(got), len(want), got)
	}
	for i, w := range want {
		for j := range w {
			if got[i][j].Value != w[j] {
				t.Errorf("post %d field %d = %q, want %q", i, j, got[i][j].Value, w[j])
			}
		}
	}
	// Links, hashtags, the repost, the reply, the quote, the counts.
	checks := map[string]string{
		fmt.Sprintf(`ASK { GRAPH <%s> { <https://twitter.com/TwitterAPI/status/1050118621198921728> <%s> <https://blog.twitter.com/emoji> ; <%s> ?t . ?t <%s> "emoji" } }`, g, ontology.SIOCLinksTo, ontology.SIOCTopic, ontology.RDFSLabel):                                     "link and hashtag",
		fmt.Sprintf(`ASK { GRAPH <%s> { <https://twitter.com/fan99/status/1050300000000000001> a <%s> ; <%s> <https://twitter.com/TwitterAPI/status/1050118621198921728> } }`, g, ontology.ASAnnounce, ontology.ASObject):                                                        "retweet",
		fmt.Sprintf(`ASK { GRAPH <%s> { <https://twitter.com/jack/status/1460323737035677699> <%s> <https://twitter.com/i/web/status/1460323737035677698> ; <%s> <https://twitter.com/TwitterDev> } }`, g, ontology.SIOCReplyOf, ontology.SchemaMentions):                        "reply and mention",
		fmt.Sprintf(`ASK { GRAPH <%s> { <https://twitter.com/flat/status/1460400000000000000> <%s> <https://twitter.com/i/web/status/1460323737035677698> } }`, g, ontology.SchemaSharedContent):                                                                                 "quote",
		fmt.Sprintf(`ASK { GRAPH <%s> { ?o <%s> <https://twitter.com/TwitterDev/status/1460323737035677698> ; <%s> 50 ; <%s> 8 ; <%s> 2 ; <%s> ?rec } }`, g, ontology.ObservationOf, ontology.LikeCount, ontology.RepostCount, ontology.ReplyCount, ontology.ProvWasDerivedFrom): "counts",
		fmt.Sprintf(`ASK { GRAPH <%s> { ?o <%s> <https://twitter.com/TwitterDev> ; <%s> 513958 ; <%s> 3635 } }`, g, ontology.ObservationOf, ontology.FollowerCount, ontology.PostCount):                                                                                          "account counts",
	}
	for q, what := range checks {
		pq, err := sparql.Prepare(q, sparql.Options{})
		if err != nil {
			t.Fatal(err)
		}
		snap := st.Snapshot()
		res, err := pq.Exec(context.Background(), snap)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Boolean() {
			t.Errorf("%s not stored: %s", what, q)
		}
		res.Close()
		snap.Close()
	}
	log, _ := os.ReadFile(l.Log("shapes"))
	for _, line := range []string{`"line":5`, `"line":6`, `"line":8`} {
		if !bytes.Contains(log, []byte(line)) || !bytes.Contains(log, []byte("line skipped")) {
			t.Errorf("the log names no bad %s:\n%s", line, log)
		}
	}
	files, _ := filepath.Glob(filepath.Join(l.WARCs("shapes"), "*.warc.gz"))
	warctest.Check(t, files...)
	n := 0
	for _, f := range files {
		n += len(warctest.Index(t, f))
	}
	if n != 7 {
		t.Errorf("%d indexed records, want the 7 non-empty lines", n)
	}
	if !strings.Contains(string(log), `"msg":"page"`) {
		t.Error("no page in the log")
	}
}

// TestImportTwiceOneResource imports the same collection twice, as two
// files of one campaign: each post and account is one resource with its
// statements once, and each sighting an observation of its own.
func TestImportTwiceOneResource(t *testing.T) {
	src, err := os.ReadFile("testdata/mixed.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(t.TempDir(), "again.jsonl")
	if err := os.WriteFile(again, src, 0o644); err != nil {
		t.Fatal(err)
	}
	st, _, status, _ := runImport(t, "twice", 2, "testdata/mixed.jsonl", again)
	if status.State != campaign.Done {
		t.Fatalf("status %+v", status)
	}
	g := socialrdf.CampaignIRI("twice")
	posts := rows(t, st, fmt.Sprintf(`SELECT ?post (COUNT(DISTINCT ?text) AS ?texts) (COUNT(DISTINCT ?id) AS ?ids) (COUNT(DISTINCT ?o) AS ?obs) WHERE { GRAPH <%s> {
  ?post a <%s> ; <%s> ?id ; <%s> ?text . ?o <%s> ?post } } GROUP BY ?post`,
		g, ontology.SchemaSocialMediaPosting, ontology.DCTermsIdentifier, ontology.SIOCContent, ontology.ObservationOf))
	if len(posts) != 5 {
		t.Fatalf("%d posts, want 5: %v", len(posts), posts)
	}
	for _, p := range posts {
		if p[1].Value != "1" || p[2].Value != "1" || p[3].Value != "2" {
			t.Errorf("%s: %s texts, %s ids, %s observations; want 1, 1, 2", p[0].Value, p[1].Value, p[2].Value, p[3].Value)
		}
	}
	acc := rows(t, st, fmt.Sprintf(`SELECT ?name ?o WHERE { GRAPH <%s> { <https://twitter.com/TwitterDev> <%s> ?name . ?o <%s> <https://twitter.com/TwitterDev> ; <%s> ?n } }`,
		g, ontology.SIOCName, ontology.ObservationOf, ontology.FollowerCount))
	if len(acc) != 2 || acc[0][0].Value != "TwitterDev" {
		t.Errorf("TwitterDev: %v, want its one name in two observations with counts", acc)
	}
}

// TestImportBadStatementLeftOut: in an import whose page is resolved in
// several chunks, a post whose text is not valid UTF-8 (a byte the JSON
// decoder passes on) keeps its other statements; the one statement is
// left out with a warning in the campaign log, and every post is stored.
func TestImportBadStatementLeftOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tweets.jsonl")
	generate(t, path, 1000)
	bad := `{"data":[{"id":"1700000000000000001","text":"broken ` + "\xff" + ` text","created_at":"2026-03-15T10:00:00.000Z","author_id":"1001",` +
		`"entities":{"urls":[{"url":"https://t.co/bad","expanded_url":"https://example.org/x"}]}}],` +
		`"includes":{"users":[{"id":"1001","username":"user1","name":"User 1"}]}}` + "\n"
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(bad); err != nil {
		t.Fatal(err)
	}
	f.Close()
	st, l, status, _ := runImport(t, "bad", 0, path)
	if status.State != campaign.Done || status.Posts != 1001 {
		t.Fatalf("state %s, %d posts; want done, 1001", status.State, status.Posts)
	}
	n := rows(t, st, `SELECT (COUNT(?p) AS ?n) WHERE { GRAPH ?g { ?p a <`+ontology.SIOCPost+`> } }`)
	if len(n) != 1 || n[0][0].Value != "1001" {
		t.Fatalf("posts stored: %v, want 1001", n)
	}
	got := rows(t, st, `SELECT ?l ?c WHERE { GRAPH ?g { <https://twitter.com/user1/status/1700000000000000001> <`+
		ontology.SIOCLinksTo+`> ?l OPTIONAL { <https://twitter.com/user1/status/1700000000000000001> <`+ontology.SIOCContent+`> ?c } } }`)
	if len(got) != 1 || got[0][0].Value != "https://example.org/x" || !got[0][1].IsZero() {
		t.Fatalf("the broken post's link and content: %v", got)
	}
	log, err := os.ReadFile(l.Log("bad"))
	if err != nil {
		t.Fatal(err)
	}
	if c := strings.Count(string(log), "statement left out"); c != 1 {
		t.Fatalf("%d warnings of a statement left out in the log, want 1:\n%s", c, log)
	}
}
