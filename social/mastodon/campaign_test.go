package mastodon

import (
	"fmt"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/social/internal/campaigntest"
	"github.com/mneme-archive/mneme/social/internal/fakeapi"
)

// A two-pair campaign through the runner against the loopback instance:
// every matching status is one post of the campaign's graph (the server's
// count is the SPARQL count), text, author and date exact; the rate limit
// kept and a 429 waited out; the WARC files valid and the token in none of
// the data folder's files.
func TestCampaignThroughRunner(t *testing.T) {
	gate := &fakeapi.Gate{Style: fakeapi.Mastodon, Limit: 8, Window: time.Second, ThrottleEvery: 9, RetryAfter: 1}
	s := newInstance(t, 300, 11, gate)
	s.token = token
	spec := fmt.Sprintf(`id: mastodon-e2e
platforms: {mastodon: {base: "%s"}}
pairs:
  - {platform: mastodon, kind: hashtag, query: climate}
  - {platform: mastodon, kind: keyword, query: solar}
`, s.URL)
	posts, status := campaigntest.Run(t, spec, &Platform{PageSize: 10}, []string{"MNEME_SOCIAL_MASTODON_TOKEN=" + token}, token)
	want := s.matching(func(st *fakeStatus) bool { return hasTag("climate")(st) || hasWord("solar")(st) })
	if len(posts) != len(want) || status.State != "done" {
		t.Fatalf("%d posts in the graph, the server holds %d; status %+v", len(posts), len(want), status)
	}
	for _, st := range want {
		p, ok := posts[s.statusURI(st)]
		if !ok {
			t.Fatalf("status %s is not in the graph", st.ID)
		}
		if p.Text != st.Text || !p.Created.Equal(st.Created) || p.Author != s.accountURL(st.Account) {
			t.Fatalf("status %s stored as %q by %s at %v; want %q by %s at %v", st.ID, p.Text, p.Author, p.Created,
				st.Text, s.accountURL(st.Account), st.Created)
		}
	}
	if g := gate.Stats(); g.Over != 0 || g.Early != 0 || g.Throttled == 0 {
		t.Fatalf("server counts %+v: want none over the limit or early, and a 429 waited out", g)
	}
}
