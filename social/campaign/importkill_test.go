package campaign

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/warc/warctest"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/social/socialrdf"
)

// importPagePosts is the import platform's page in these tests: small,
// so that an import of a few thousand tweets commits many pages.
const importPagePosts = 60

// importGroupPosts is how many posts of the import the runner stores in
// one step of the store's bulk loader in these tests: three pages, so
// that a kill can come between a group's pages.
const importGroupPosts = 180

// writeTweets writes n tweets as API v2 pages of 20 a line, with their
// authors in includes.users, and returns the file's path.
func writeTweets(t *testing.T, n int) string {
	path := filepath.Join(t.TempDir(), "tweets.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := 0; i < n; i += 20 {
		var data, users []map[string]any
		for k := i; k < min(i+20, n); k++ {
			uid := strconv.Itoa(k % 37)
			data = append(data, map[string]any{"id": strconv.Itoa(9_000_000 + k), "text": fmt.Sprintf("tweet %d #kill%d", k, k%7),
				"author_id": uid, "created_at": time.Date(2026, 1, 1, 0, 0, k, 0, time.UTC).Format(time.RFC3339),
				"entities": map[string]any{"hashtags": []map[string]any{{"tag": "kill" + strconv.Itoa(k%7)}}}})
			users = append(users, map[string]any{"id": uid, "username": "u" + uid, "name": "U " + uid,
				"public_metrics": map[string]int{"followers_count": k, "following_count": 1, "tweet_count": k}})
		}
		line, _ := json.Marshal(map[string]any{"data": data, "includes": map[string]any{"users": users}})
		w.Write(append(line, '\n'))
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestImportSurvivesKill9 kills an import's process three times at random
// points after it committed some pages, resumes it each time, and lets it
// finish: every tweet is stored once, with its text, and one observation
// (from the record committed with it), and the WARC files pass the
// verifier.
func TestImportSurvivesKill9(t *testing.T) {
	const n = 1200
	file := writeTweets(t, n)
	data := t.TempDir()
	l := Layout{Data: data}
	spec, err := Parse([]byte(fmt.Sprintf("id: imported\npairs:\n  - {platform: import, kind: list, query: %q}\n", file)), "spec")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Create(spec); err != nil {
		t.Fatal(err)
	}
	start := killThrice(t, l, "imported", n, 5*time.Millisecond)
	if err := start().Wait(); err != nil {
		t.Fatalf("the resumed import failed: %v", err)
	}
	r := runner(t, l, "imported", nil)
	if st, _ := l.ReadState("imported"); st.State != Done {
		t.Errorf("state %+v", st)
	}
	rows := query(t, r.Store, fmt.Sprintf(`SELECT ?id ?text (COUNT(?o) AS ?obs) WHERE { GRAPH <%s> {
  ?p <%s> ?id ; <%s> ?text . ?o <%s> ?p } } GROUP BY ?id ?text`, socialrdf.CampaignIRI("imported"),
		ontology.DCTermsIdentifier, ontology.SIOCContent, ontology.ObservationOf))
	seen := map[int]bool{}
	for _, row := range rows {
		k, _ := strconv.Atoi(row[0].Value)
		k -= 9_000_000
		if want := fmt.Sprintf("tweet %d #kill%d", k, k%7); row[1].Value != want {
			t.Errorf("tweet %s: text %q, want %q", row[0].Value, row[1].Value, want)
		}
		if row[2].Value != "1" {
			t.Errorf("tweet %s: %s observations, want 1", row[0].Value, row[2].Value)
		}
		if seen[k] || k < 0 || k >= n {
			t.Errorf("tweet %s twice or unknown", row[0].Value)
		}
		seen[k] = true
	}
	if len(seen) != n {
		t.Errorf("%d tweets stored, want %d", len(seen), n)
	}
	files, _ := filepath.Glob(filepath.Join(l.WARCs("imported"), "*.warc.gz"))
	warctest.Check(t, files...)
}
