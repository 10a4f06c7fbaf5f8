package campaign

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/warc/warctest"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/social/feed"
	"github.com/mneme-archive/mneme/social/importer"
	"github.com/mneme-archive/mneme/social/platform"
	"github.com/mneme-archive/mneme/social/socialrdf"
	"github.com/mneme-archive/mneme/social/socialtest"
)

const token = "tok-4f9a-SECRET-b7c1"

// setup creates the campaign of spec in a data folder and returns a
// runner for it, its store open.
func setup(t *testing.T, data string, spec string, environ []string) (*Runner, Layout) {
	t.Helper()
	l := Layout{Data: data}
	s, err := Parse([]byte(spec), "spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(l.Spec(s.ID)); os.IsNotExist(err) {
		if err := l.Create(s); err != nil {
			t.Fatal(err)
		}
	}
	return runner(t, l, s.ID, environ), l
}

func runner(t testing.TB, l Layout, id string, environ []string) *Runner {
	r, err := openRunner(l, id, environ)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Store.Close() })
	return r
}

// openRunner opens the data folder's store and returns a runner of the
// campaign id with the feeds platform and the import platform (pages of
// importPagePosts posts, stored importGroupPosts at a time).
func openRunner(l Layout, id string, environ []string) (*Runner, error) {
	s, err := l.LoadSpec(id)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(l.Store(), 0o755); err != nil {
		return nil, err
	}
	secrets, err := LoadSecrets(l.Secrets(), environ)
	if err != nil {
		return nil, err
	}
	st, err := graph.Open(l.Store(), graph.OpenOptions{})
	if err != nil {
		return nil, err
	}
	return &Runner{Layout: l, Spec: s, Store: st, Platforms: map[string]platform.Platform{feed.Name: feed.New(),
		importer.Name: &importer.Importer{PagePosts: importPagePosts, GroupPosts: importGroupPosts}}, Secrets: secrets}, nil
}

func query(t testing.TB, st *graph.Store, q string) [][]rdf.Term {
	t.Helper()
	rows, err := selectRows(context.Background(), st, q)
	if err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	return rows
}

// checkPosts compares the posts of the campaign's graph with the feed's
// entries, and counts each post's observations.
func checkPosts(t testing.TB, st *graph.Store, id string, f *socialtest.Feed, wantObs int) {
	t.Helper()
	rows := query(t, st, fmt.Sprintf(`SELECT ?post ?title ?text ?created ?name (COUNT(DISTINCT ?obs) AS ?n) WHERE { GRAPH <%s> {
  ?post a <%s> ; <%s> ?title ; <%s> ?text ; <%s> ?created ; <%s> ?acc .
  ?acc <%s> ?name .
  ?obs <%s> ?post } } GROUP BY ?post ?title ?text ?created ?name`, socialrdf.CampaignIRI(id), ontology.SIOCPost,
		ontology.DCTermsTitle, ontology.SIOCContent, ontology.DCTermsCreated, ontology.SIOCHasCreator, ontology.FOAFName, ontology.ObservationOf))
	got := map[string][]rdf.Term{}
	for _, r := range rows {
		if got[r[0].Value] != nil {
			t.Errorf("post %s has two descriptions", r[0].Value)
		}
		got[r[0].Value] = r
	}
	if len(got) != f.Items {
		t.Errorf("%d posts stored, the server holds %d", len(got), f.Items)
	}
	for i := 0; i < f.Items; i++ {
		r := got[f.PostURL(i)]
		if r == nil {
			t.Errorf("entry %d (%s) missing", i, f.PostURL(i))
			continue
		}
		created := socialtest.Base.Add(time.Duration(i) * time.Minute).Format("2006-01-02T15:04:05.000Z")
		if r[1].Value != socialtest.Title(i) || r[2].Value != socialtest.Text(i)+" more" || r[3].Value != created || r[4].Value != socialtest.Author(i) {
			t.Errorf("entry %d stored as %q / %q / %q / %q", i, r[1].Value, r[2].Value, r[3].Value, r[4].Value)
		}
		if r[5].Value != fmt.Sprint(wantObs) {
			t.Errorf("entry %d: %s observations, want %d", i, r[5].Value, wantObs)
		}
	}
}

func TestCampaignCollectsPagedFeedTwice(t *testing.T) {
	f := socialtest.NewFeed(t, 57, 10, token)
	data := t.TempDir()
	r, l := setup(t, data, fmt.Sprintf(`id: paged
schedule: {every: 10ms, passes: 2}
pairs:
  - {platform: feed, kind: list, query: "%s"}
`, f.URL()), []string{"MNEME_SOCIAL_FEED_TOKEN=" + token})
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := r.Status()
	if s.State != Done || s.Pass != 2 {
		t.Errorf("status %+v", s)
	}
	// Pass 1: 6 documents; pass 2: one conditional request answered 304.
	if f.Requests.Load() != 7 || f.Conditional.Load() != 1 || s.Requests != 7 {
		t.Errorf("%d requests (%d conditional), status says %d; want 7 (1)", f.Requests.Load(), f.Conditional.Load(), s.Requests)
	}
	checkPosts(t, r.Store, "paged", f, 1)
	// Every request is a capture in the graph, linked to its WARC record.
	caps := query(t, r.Store, fmt.Sprintf(`SELECT ?c ?status WHERE { GRAPH <%s> { ?c a <%s> ; <%s> ?status ; <%s> ?file } }`,
		socialrdf.CampaignIRI("paged"), ontology.Capture, ontology.HTTPStatus, ontology.WARCFile))
	if len(caps) != 7 {
		t.Errorf("%d captures, want 7", len(caps))
	}
	derived := query(t, r.Store, fmt.Sprintf(`SELECT DISTINCT ?rec WHERE { GRAPH <%s> { ?post <%s> ?rec . ?rec a <%s> } }`,
		socialrdf.CampaignIRI("paged"), ontology.ProvWasDerivedFrom, ontology.Capture))
	if len(derived) != 6 {
		t.Errorf("posts derived from %d records, want the 6 documents", len(derived))
	}
	files, _ := filepath.Glob(filepath.Join(l.WARCs("paged"), "*.warc.gz"))
	warctest.Check(t, files...)
	socialtest.NoSecret(t, data, token)
	if st, _ := l.ReadState("paged"); st.State != Done {
		t.Errorf("state file says %+v", st)
	}
}

// TestCampaignBadInput: feeds that fail in every way each leave a clear
// error in the log, and the campaign collects the good feed regardless.
func TestCampaignBadInput(t *testing.T) {
	good := socialtest.NewFeed(t, 12, 5, "")
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/html":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<!doctype html><html><body><h1>Welcome</h1></body></html>")
		case "/text":
			fmt.Fprint(w, "this is not XML at all {")
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": `)
		case "/denied":
			http.Error(w, "no", http.StatusUnauthorized)
		case "/forbidden":
			http.Error(w, "no", http.StatusForbidden)
		case "/truncated":
			w.Header().Set("Content-Length", "5000")
			w.Write([]byte(`<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry>`))
			w.(http.Flusher).Flush()
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
		default:
			http.NotFound(w, r)
		}
	}))
	defer bad.Close()
	paths := []string{"/html", "/text", "/json", "/denied", "/forbidden", "/truncated", "/missing"}
	spec := "id: bad\noptions: {retry-errors: 1, retry-delay: 1ms}\npairs:\n"
	for _, p := range paths {
		spec += fmt.Sprintf("  - {platform: feed, kind: list, query: %q}\n", bad.URL+p)
	}
	spec += fmt.Sprintf("  - {platform: feed, kind: list, query: %q}\n  - {platform: feed, kind: hashtag, query: quake}\n", good.URL())
	r, l := setup(t, t.TempDir(), spec, nil)
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := r.Status()
	if s.State != Done {
		t.Errorf("state %s (%s)", s.State, s.Reason)
	}
	checkPosts(t, r.Store, "bad", good, 1)
	log, err := os.ReadFile(l.Log("bad"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"/html": "not a feed", "/text": "not a feed", "/json": "not a feed", "/denied": "401",
		"/forbidden": "403", "/truncated": "unexpected EOF", "/missing": "404"}
	for _, ps := range s.Pairs {
		for p, w := range want {
			if ps.Query == bad.URL+p {
				if ps.Errors != 2 || !strings.Contains(ps.LastError, w) || !strings.Contains(ps.LastError, bad.URL+p) {
					t.Errorf("%s: %d errors, last %q; want 2 saying %q and the URL", p, ps.Errors, ps.LastError, w)
				}
			}
		}
		if ps.Kind == "hashtag" && !strings.Contains(ps.LastError, "not supported") {
			t.Errorf("hashtag query on feeds: last error %q", ps.LastError)
		}
	}
	for p, w := range want {
		found := false
		for _, line := range strings.Split(string(log), "\n") {
			if strings.Contains(line, `"level":"ERROR"`) && strings.Contains(line, bad.URL+p) && strings.Contains(line, w) {
				found = true
			}
		}
		if !found {
			t.Errorf("campaign.log has no error line for %s saying %q", p, w)
		}
	}
}

// TestCampaignPauseStop pauses a running campaign, resumes it in the
// same process, then stops it.
func TestCampaignPauseStop(t *testing.T) {
	f := socialtest.NewFeed(t, 200, 5, "")
	f.Delay = 5 * time.Millisecond
	r, l := setup(t, t.TempDir(), fmt.Sprintf("id: steer\npairs:\n  - {platform: feed, kind: list, query: %q}\n", f.URL()), nil)
	done := make(chan error, 1)
	go func() { done <- r.Run(context.Background()) }()
	waitFor(t, func() bool { return r.Status().Requests >= 2 })
	r.Pause()
	waitFor(t, func() bool { st, _ := l.ReadState("steer"); return st.State == Paused })
	n := f.Requests.Load()
	// A paused campaign makes no request; Resume goes on where it was.
	r.Resume()
	waitFor(t, func() bool { return f.Requests.Load() > n+1 })
	r.Stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if st, _ := l.ReadState("steer"); st.State != Stopped {
		t.Errorf("state %+v, want stopped", st)
	}
	if s := r.Status(); s.Posts == 0 || s.Posts >= 200 {
		t.Errorf("%d posts: the stop should come mid-campaign", s.Posts)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 30s")
		}
	}
}

func TestSpecErrors(t *testing.T) {
	_, err := Parse([]byte("pairs:\n  - {platform: feed, kind: lst, query: x}\n  - {platform: feed, kind: list, query: ''}\nwindow: {since: yesterday}\nbudgt: {}\n"), "c.yaml")
	if err == nil || !strings.Contains(err.Error(), "c.yaml") || !strings.Contains(err.Error(), "budgt") {
		t.Fatalf("unknown field: %v", err)
	}
	_, err = Parse([]byte("pairs:\n  - {platform: feed, kind: lst, query: x}\n  - {platform: feed, kind: list, query: ''}\nwindow: {since: yesterday}\nplatforms: {mastodon: {base: 'https://u:p@m.example'}}\n"), "c.yaml")
	for _, want := range []string{"pairs[0].kind", "pairs[1].query", "window.since", "credentials go in the secrets file"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
	if strings.Contains(fmt.Sprint(err), "u:p@") {
		t.Errorf("the error repeats the credentials: %v", err)
	}
}

func TestSecrets(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "secrets.yaml")
	os.WriteFile(path, []byte("mastodon: {token: from-file}\nfeed: {username: u1}\n"), 0o644)
	if _, err := LoadSecrets(path, nil); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a world-readable secrets file: %v", err)
	}
	os.Chmod(path, 0o600)
	s, err := LoadSecrets(path, []string{"MNEME_SOCIAL_MASTODON_TOKEN=from-env", "MNEME_SOCIAL_TWITTER_BEARER_TOKEN=ck", "PATH=/bin"})
	if err != nil {
		t.Fatal(err)
	}
	if s["mastodon"]["token"] != "from-env" || s["feed"]["username"] != "u1" || s["twitter"]["bearer_token"] != "ck" || len(s) != 3 {
		t.Errorf("secrets %v", s)
	}
}
