package bluesky

import (
	"fmt"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/social/internal/campaigntest"
)

// A two-pair campaign through the runner against the loopback Jetstream:
// every matching post is a post of the campaign's graph, text, author and
// date exact; the events in WARC resource records, the files valid, and the
// token in none of the data folder's files.
func TestCampaignThroughRunner(t *testing.T) {
	s := newNetwork(t, 300, 13, nil)
	since := time.UnixMicro(s.times[0]).Add(-time.Second).UTC().Format(time.RFC3339Nano)
	spec := fmt.Sprintf(`id: bluesky-e2e
window: {since: "%s"}
platforms: {bluesky: {base: "%s"}}
pairs:
  - {platform: bluesky, kind: keyword, query: solar}
  - {platform: bluesky, kind: hashtag, query: climate}
`, since, s.base())
	posts, status := campaigntest.Run(t, spec, &Platform{PageSize: 15, Idle: 300 * time.Millisecond},
		[]string{"MNEME_SOCIAL_BLUESKY_TOKEN=" + token}, token)
	want := s.matching(func(p *fakePost) bool { return hasWord("solar")(p) || hasTag("climate")(p) })
	if len(posts) != len(want) || status.State != "done" {
		t.Fatalf("%d posts in the graph, the network holds %d; status %+v", len(posts), len(want), status)
	}
	for _, fp := range want {
		p, ok := posts[PostURL(fp.Actor.DID, fp.RKey)]
		if !ok {
			t.Fatalf("post %s is not in the graph", fp.uri())
		}
		if p.Text != fp.Text || !p.Created.Equal(fp.Created) || p.Author != ProfileURL(fp.Actor.DID) {
			t.Fatalf("post %s stored as %q by %s at %v; want %q at %v", fp.uri(), p.Text, p.Author, p.Created, fp.Text, fp.Created)
		}
	}
}
