package feed_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/social/campaign"
	"github.com/mneme-archive/mneme/social/feed"
	"github.com/mneme-archive/mneme/social/platform"
	"github.com/mneme-archive/mneme/social/socialrdf"
	"github.com/mneme-archive/mneme/sparql"
)

// items returns the distinct identities (link, else id) of the entries
// of the feed document at u, read independently of gofeed.
func items(t *testing.T, u string) map[string]bool {
	t.Helper()
	body, _ := testenv.Get(t, u)
	out := map[string]bool{}
	d := xml.NewDecoder(bytes.NewReader(body))
	var inItem bool
	var link, id, cur string
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			switch name := tk.Name.Local; {
			case name == "item" || name == "entry":
				inItem, link, id = true, "", ""
			case inItem && name == "link":
				for _, a := range tk.Attr {
					if a.Name.Local == "href" && link == "" {
						link = a.Value
					}
				}
				cur = "link"
			case inItem && (name == "guid" || name == "id"):
				cur = "id"
			default:
				cur = ""
			}
		case xml.CharData:
			s := strings.TrimSpace(string(tk))
			if inItem && s != "" && cur == "link" && link == "" {
				link = s
			} else if inItem && s != "" && cur == "id" && id == "" {
				id = s
			}
		case xml.EndElement:
			if tk.Name.Local == "item" || tk.Name.Local == "entry" {
				inItem = false
				if link != "" {
					out[link] = true
				} else {
					out[id] = true
				}
			}
			cur = ""
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s has no entries", u)
	}
	return out
}

// runTwice runs a two-pass campaign of the feeds and returns its store.
func runTwice(t *testing.T, id string, feeds ...string) (*graph.Store, campaign.Layout, campaign.Status) {
	t.Helper()
	l := campaign.Layout{Data: t.TempDir()}
	spec := fmt.Sprintf("id: %s\nschedule: {every: 1ms, passes: 2}\npairs:\n", id)
	for _, f := range feeds {
		spec += fmt.Sprintf("  - {platform: feed, kind: list, query: %q}\n", f)
	}
	s, err := campaign.Parse([]byte(spec), id)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Create(s); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(l.Store(), 0o755)
	st, err := graph.Open(l.Store(), graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := &campaign.Runner{Layout: l, Spec: s, Store: st, Platforms: map[string]platform.Platform{feed.Name: feed.New()}}
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	status := r.Status()
	if status.State != campaign.Done || status.Pass != 2 {
		t.Fatalf("status %+v", status)
	}
	for _, p := range status.Pairs {
		if p.Errors > 0 {
			t.Errorf("%s: %d errors, last %s", p.Query, p.Errors, p.LastError)
		}
	}
	return st, l, status
}

func count(t *testing.T, st *graph.Store, q string) map[string]int {
	t.Helper()
	snap := st.Snapshot()
	defer snap.Close()
	out := map[string]int{}
	err := sparql.Each(context.Background(), snap, q, func(row []rdf.Term) error {
		var n int
		fmt.Sscan(row[1].Value, &n)
		out[row[0].Value] = n
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkStored: the posts of the campaign's graph are exactly want, each
// seen once although the campaign ran two passes.
func checkStored(t *testing.T, st *graph.Store, id string, want map[string]bool) {
	t.Helper()
	got := count(t, st, fmt.Sprintf(`SELECT ?p (COUNT(?o) AS ?n) WHERE { GRAPH <%s> { ?p a <%s> . ?o <%s> ?p } } GROUP BY ?p`,
		socialrdf.CampaignIRI(id), ontology.SIOCPost, ontology.ObservationOf))
	for u := range want {
		if got[u] != 1 {
			t.Errorf("entry %s: %d observations, want 1", u, got[u])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d posts stored, the feeds hold %d", len(got), len(want))
	}
}

// conditional checks that the second pass asked each feed conditionally
// and was told "not modified".
func conditional(t *testing.T, l campaign.Layout, id string, feeds int) {
	t.Helper()
	log, err := os.ReadFile(l.Log(id))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(log, []byte(`"status":304`)); n != feeds {
		t.Errorf("%d responses 304 Not Modified in the second pass, want %d", n, feeds)
	}
}

// TestWordPressFeeds: the posts feed (paged through every published
// post), the site's comments feed and one post's comments feed.
func TestWordPressFeeds(t *testing.T) {
	wp := testenv.CMS(t, testenv.WordPress, "")
	posts := testenv.WordPressQuery(t, "SELECT COUNT(*) FROM wp_posts WHERE post_type='post' AND post_status='publish'")[0][0]
	commented := testenv.WordPressQuery(t, "SELECT ID FROM wp_posts WHERE post_type='post' AND post_status='publish' AND comment_count>0 ORDER BY ID LIMIT 1")[0][0]
	commentFeeds := []string{wp + "/comments/feed/", wp + "/?p=" + commented + "&feed=rss2"}
	want := map[string]int{} // comment → in how many feeds
	for _, f := range commentFeeds {
		for u := range items(t, f) {
			want[u]++
		}
	}
	st, l, _ := runTwice(t, "wordpress", append([]string{wp + "/feed/"}, commentFeeds...)...)
	got := count(t, st, fmt.Sprintf(`SELECT ?p (COUNT(?o) AS ?n) WHERE { GRAPH <%s> { ?p a <%s> . ?o <%s> ?p } } GROUP BY ?p`,
		socialrdf.CampaignIRI("wordpress"), ontology.SIOCPost, ontology.ObservationOf))
	n := 0
	for p, obs := range got {
		switch {
		case !strings.Contains(p, "#comment-"):
			n++
			if obs != 1 {
				t.Errorf("post %s: %d observations, want 1", p, obs)
			}
		case obs != want[p]:
			t.Errorf("comment %s: %d observations, want %d (one per feed holding it)", p, obs, want[p])
		}
	}
	if fmt.Sprint(n) != posts {
		t.Errorf("%d posts stored, the database has %s published", n, posts)
	}
	for u := range want {
		if got[u] == 0 {
			t.Errorf("comment %s not stored", u)
		}
	}
	conditional(t, l, "wordpress", 3)
}

func TestMediaWikiRecentChanges(t *testing.T) {
	mw := testenv.CMS(t, testenv.MediaWiki, "")
	u := mw + "/api.php?action=feedrecentchanges&feedformat=atom&days=100000&limit=50"
	want := items(t, u)
	st, _, _ := runTwice(t, "mediawiki", u)
	checkStored(t, st, "mediawiki", want)
}

func TestDokuWikiFeed(t *testing.T) {
	dw := testenv.CMS(t, testenv.DokuWiki, "")
	want := items(t, dw+"/feed.php")
	st, l, _ := runTwice(t, "dokuwiki", dw+"/feed.php")
	checkStored(t, st, "dokuwiki", want)
	conditional(t, l, "dokuwiki", 1)
}
