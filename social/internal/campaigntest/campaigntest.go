// Package campaigntest runs a campaign through the real runner, for the
// platforms' end-to-end tests: a data folder, the spec, the secrets from
// the environment, the Pebble store; and reads back the posts its graph
// holds.
package campaigntest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/warc/warctest"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/social/campaign"
	"github.com/mneme-archive/mneme/social/platform"
	"github.com/mneme-archive/mneme/social/socialrdf"
	"github.com/mneme-archive/mneme/social/socialtest"
	"github.com/mneme-archive/mneme/sparql"
)

// Post is a post as the campaign's graph holds it.
type Post struct {
	IRI, Text, Author string // Author: the account's IRI
	Created           time.Time
}

// Run creates the campaign of spec in a new data folder, runs it with p
// and the credentials of environ (MNEME_SOCIAL_<PLATFORM>_<KEY>=value)
// until it is done, checks its WARC files with the independent verifier
// and that no credential value is anywhere in the data folder, and
// returns its posts by IRI and its status.
func Run(t testing.TB, spec string, p platform.Platform, environ []string, secrets ...string) (map[string]Post, campaign.Status) {
	t.Helper()
	data := t.TempDir()
	l := campaign.Layout{Data: data}
	s, err := campaign.Parse([]byte(spec), "spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Create(s); err != nil {
		t.Fatal(err)
	}
	sec, err := campaign.LoadSecrets(l.Secrets(), environ)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(l.Store(), 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := graph.Open(l.Store(), graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := &campaign.Runner{Layout: l, Spec: s, Store: st, Platforms: map[string]platform.Platform{p.Name(): p}, Secrets: sec}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := r.Run(ctx); err != nil {
		t.Fatal(err)
	}
	status := r.Status()
	posts := readPosts(t, st, s.ID)
	warcs, _ := filepath.Glob(filepath.Join(l.WARCs(s.ID), "*.warc.gz"))
	warctest.Check(t, warcs...)
	socialtest.NoSecret(t, data, secrets...)
	return posts, status
}

func readPosts(t testing.TB, st *graph.Store, id string) map[string]Post {
	t.Helper()
	q := fmt.Sprintf(`SELECT ?p ?text ?created ?acc WHERE { GRAPH <%s> {
  ?p a <%s> ; <%s> ?created ; <%s> ?acc .
  OPTIONAL { { ?p <%s> ?text } UNION { ?obs <%s> ?p ; <%s> ?text } } } }`,
		socialrdf.CampaignIRI(id), ontology.SIOCPost, ontology.DCTermsCreated, ontology.SIOCHasCreator,
		ontology.SIOCContent, ontology.ObservationOf, ontology.SIOCContent)
	snap := st.Snapshot()
	defer snap.Close()
	out := map[string]Post{}
	err := sparql.Each(context.Background(), snap, q, func(row []rdf.Term) error {
		created, err := time.Parse(time.RFC3339Nano, row[2].Value)
		if err != nil {
			t.Fatalf("post %s: created %q: %v", row[0].Value, row[2].Value, err)
		}
		p := Post{IRI: row[0].Value, Created: created, Author: row[3].Value}
		if len(row) > 1 && row[1].Value != "" {
			p.Text = row[1].Value
		}
		if old, ok := out[p.IRI]; ok && old.Text != "" && old.Text != p.Text {
			t.Fatalf("post %s has two texts: %q and %q", p.IRI, old.Text, p.Text)
		}
		out[p.IRI] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
