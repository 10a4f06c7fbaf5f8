package socialrdf

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/social/platform"
	"github.com/mneme-archive/mneme/sparql"
)

func selectAll(t *testing.T, st *graph.Store, q string) [][]string {
	t.Helper()
	snap := st.Snapshot()
	defer snap.Close()
	var out [][]string
	err := sparql.Each(context.Background(), snap, q, func(terms []rdf.Term) error {
		var row []string
		for _, v := range terms {
			row = append(row, v.Value)
		}
		out = append(out, row)
		return nil
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	return out
}

// TestSightings: a post seen three times — as first posted, edited, then
// deleted — is one resource with three observations carrying the counts
// and texts of their time; an account seen twice has two observations.
func TestSightings(t *testing.T) {
	st, err := graph.Open(t.TempDir(), graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	w := NewWriter("c1", func(s string) string { return s })
	created := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	author := platform.Account{Platform: "mastodon", ID: "1", URL: "https://m.example/@ana", Handle: "ana", Name: "Ana", Followers: 10, Following: 2, Posts: 30}
	p := platform.Post{Platform: "mastodon", ID: "99", URL: "https://m.example/@ana/99", Text: "first words", Lang: "en", Created: created,
		Author: author, Hashtags: []string{"Flood"}, Links: []string{"https://news.example/a"}, Counts: &platform.Counts{Likes: 1, Reposts: 0, Replies: -1}}
	var quads []rdf.Quad
	at := created.Add(time.Hour)
	quads = w.Post(quads, &p, Sighting{Record: "urn:uuid:00000000-0000-0000-0000-000000000001", At: at, Query: "flood"})
	quads = w.Account(quads, &author, Sighting{Record: "urn:uuid:00000000-0000-0000-0000-000000000001", At: at})
	edited := p
	edited.Text, edited.Edited, edited.Counts = "second words", created.Add(90*time.Minute), &platform.Counts{Likes: 5, Reposts: 2, Replies: 1}
	quads = w.Post(quads, &edited, Sighting{Record: "urn:uuid:00000000-0000-0000-0000-000000000002", At: at.Add(time.Hour)})
	author.Followers = 12
	quads = w.Account(quads, &author, Sighting{Record: "urn:uuid:00000000-0000-0000-0000-000000000002", At: at.Add(time.Hour)})
	gone := platform.Post{Platform: "mastodon", ID: "99", URL: "https://m.example/@ana/99", Deleted: true, Author: author}
	quads = w.Post(quads, &gone, Sighting{Record: "urn:uuid:00000000-0000-0000-0000-000000000003", At: at.Add(2 * time.Hour)})
	b := st.NewBatch()
	for _, q := range quads {
		b.Add(q)
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	g := CampaignIRI("c1")
	obs := selectAll(t, st, fmt.Sprintf(`SELECT ?o ?time ?likes ?text WHERE { GRAPH <%s> {
  ?o <%s> <https://m.example/@ana/99> ; <%s> ?time . OPTIONAL { ?o <%s> ?likes } OPTIONAL { ?o <%s> ?text } } } ORDER BY ?time`,
		g, ontology.ObservationOf, ontology.ProvGeneratedAtTime, ontology.LikeCount, ontology.SIOCContent))
	if len(obs) != 3 || obs[0][2] != "1" || obs[1][2] != "5" || obs[2][2] != "" || obs[1][3] != "second words" || obs[0][3] != "" {
		t.Errorf("observations %v", obs)
	}
	post := selectAll(t, st, fmt.Sprintf(`SELECT ?text ?modified ?deleted WHERE { GRAPH <%s> {
  <https://m.example/@ana/99> a <%s>, <%s> ; <%s> ?text ; <%s> ?modified ; <%s> ?deleted } }`,
		g, ontology.SchemaSocialMediaPosting, ontology.ASTombstone, ontology.SIOCContent, ontology.DCTermsModified, ontology.ASDeleted))
	if len(post) != 1 || post[0][0] != "first words" || post[0][1] != "2026-03-14T11:30:00.000Z" || post[0][2] != "2026-03-14T13:00:00.000Z" {
		t.Errorf("post %v", post)
	}
	followers := selectAll(t, st, fmt.Sprintf(`SELECT ?n WHERE { GRAPH <%s> { ?o <%s> <https://m.example/@ana> ; <%s> ?n ; <%s> ?t } } ORDER BY ?t`,
		g, ontology.ObservationOf, ontology.FollowerCount, ontology.ProvGeneratedAtTime))
	if fmt.Sprint(followers) != "[[10] [12]]" {
		t.Errorf("follower counts %v, want 10 then 12", followers)
	}
	tags := selectAll(t, st, fmt.Sprintf(`SELECT ?label WHERE { GRAPH <%s> { <https://m.example/@ana/99> <%s> ?t . ?t a <%s> ; <%s> ?label } }`,
		g, ontology.SIOCTopic, ontology.SIOCTTag, ontology.RDFSLabel))
	if fmt.Sprint(tags) != "[[flood]]" {
		t.Errorf("tags %v", tags)
	}
}

// TestDateTimeAsFormat: DateTime writes what time.Format writes in its
// layout, for times in any zone, years out of four digits and fractions
// that round up included.
func TestDateTimeAsFormat(t *testing.T) {
	zone := time.FixedZone("x", -(9*3600 + 30*60))
	times := []time.Time{
		time.Date(2026, 3, 14, 0, 0, 0, 0, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(2000, 1, 1, 0, 0, 0, 1_000_000, zone),
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 6, 1, 12, 0, 0, 0, time.UTC),
		{},
	}
	for i := int64(0); i < 2000; i++ {
		times = append(times, time.Unix(i*7_777_777_777-100_000_000_000, i*123_456_789%1e9).In(zone))
	}
	for _, tm := range times {
		want := tm.UTC().Format("2006-01-02T15:04:05.000Z07:00")
		if got := DateTime(tm); got.Value != want || got.Datatype != rdf.XSDDateTime {
			t.Fatalf("DateTime(%v) = %q (%s), want %q", tm, got.Value, got.Datatype, want)
		}
	}
}

// TestAccountStatedAsAccount: a writer told what it stated of accounts
// before (AccountStated) writes what one looking every description up
// (Account) writes, through generations begun, names changed, accounts
// whose IRIs clean to the same, descriptions forgotten or not remembered,
// and a Stated of another account or another time passed.
func TestAccountStatedAsAccount(t *testing.T) {
	clean := func(s string) string { return strings.ReplaceAll(s, "secret", "REDACTED") }
	for _, max := range []int{0, 1, 3, 8, 1000} { // 0: none remembered
		plain, told := NewWriter("c", clean), NewWriter("c", clean)
		if max > 0 {
			plain.Remember(max)
			told.Remember(max)
		}
		rng := rand.New(rand.NewPCG(uint64(max), 7))
		stated := map[string]Stated{}
		var got, want []rdf.Quad
		at := time.Date(2026, 3, 14, 0, 0, 0, 0, time.UTC)
		for i := range 20000 {
			n := rng.IntN(12)
			a := platform.Account{Platform: "twitter", ID: strconv.Itoa(n), URL: "https://twitter.com/u" + strconv.Itoa(n),
				Handle: "u" + strconv.Itoa(n), Name: "U" + strconv.Itoa(n), Followers: -1, Following: -1, Posts: -1}
			switch rng.IntN(10) {
			case 0:
				a.Name += " renamed"
			case 1:
				a.URL = "https://twitter.com/secret" + strconv.Itoa(rng.IntN(3))
			case 4:
				a.URL = "https://twitter.com/REDACTED" + strconv.Itoa(rng.IntN(3)) // the same once cleaned
			case 2:
				a.Followers, a.Following, a.Posts = rng.Int64N(100), -1, rng.Int64N(100)
			case 3:
				a.URL = ""
			}
			s := Sighting{Record: "urn:uuid:" + strconv.Itoa(i/10), At: at.Add(time.Duration(i) * time.Second)}
			key := AccountIRI(&a)
			if rng.IntN(20) == 0 {
				key = "https://twitter.com/u" + strconv.Itoa(rng.IntN(12)) // another's
			}
			want = plain.Account(want[:0], &a, s)
			var st Stated
			got, st = told.AccountStated(got[:0], &a, s, stated[key])
			if rng.IntN(2) == 0 { // else the one before, gone stale, comes again
				stated[AccountIRI(&a)] = st
			}
			if !slices.Equal(got, want) {
				t.Fatalf("max %d, account %d (%+v): AccountStated wrote\n%v\nAccount\n%v", max, i, a, got, want)
			}
			switch rng.IntN(50) {
			case 0:
				plain.Forget()
				told.Forget()
			case 1:
				p := platform.Post{Platform: "twitter", ID: strconv.Itoa(i), Hashtags: []string{"t" + strconv.Itoa(rng.IntN(5))}}
				want, got = plain.Post(want[:0], &p, s), told.Post(got[:0], &p, s)
				if !slices.Equal(got, want) {
					t.Fatalf("max %d, post %d: the writers differ", max, i)
				}
			}
		}
	}
}
