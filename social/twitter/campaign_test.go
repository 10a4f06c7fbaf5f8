package twitter

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/mneme-archive/mneme/social/internal/campaigntest"
)

// A two-pair campaign through the runner against the loopback service:
// every matching tweet is a post of the campaign's graph (retweets without
// text, the retweeted and quoted tweets they embed as posts of their own),
// text, author and date exact; the limits kept and a 429 waited out; the
// WARC files valid and the token in none of the data folder's files.
func TestCampaignThroughRunner(t *testing.T) {
	s := newService(t, 300, 12, 6, 7)
	s.token = token
	spec := fmt.Sprintf(`id: twitter-e2e
platforms: {twitter: {base: "%s"}}
pairs:
  - {platform: twitter, kind: keyword, query: solar}
  - {platform: twitter, kind: hashtag, query: climate}
`, s.URL)
	posts, status := campaigntest.Run(t, spec, &Platform{PageSize: 15}, []string{"MNEME_SOCIAL_TWITTER_BEARER=" + token}, token)
	want := s.matching(func(tw *fakeTweet) bool { return searchMatch("solar")(tw) || searchMatch("#climate")(tw) })
	expect := map[string]*fakeTweet{}
	for _, tw := range want {
		expect[PostURL(tw.User.Screen, strconv.FormatInt(tw.ID, 10))] = tw
		for _, e := range embeds(tw) {
			expect[PostURL(e.User.Screen, strconv.FormatInt(e.ID, 10))] = e
		}
	}
	if len(posts) != len(expect) || status.State != "done" {
		t.Fatalf("%d posts in the graph, the service holds %d (%d matching); status %+v", len(posts), len(expect), len(want), status)
	}
	for iri, tw := range expect {
		p, ok := posts[iri]
		if !ok {
			t.Fatalf("tweet %d is not in the graph", tw.ID)
		}
		text := tw.Text
		if tw.Retweet != nil {
			text = ""
		}
		if p.Text != text || !p.Created.Equal(tw.Created) || p.Author != AccountURL(tw.User.Screen, "") {
			t.Fatalf("tweet %d stored as %q by %s at %v; want %q at %v", tw.ID, p.Text, p.Author, p.Created, text, tw.Created)
		}
	}
	if st := s.stats(); st.Over != 0 || st.Early != 0 || st.Throttled == 0 {
		t.Fatalf("service counts %+v: want none over the limit or early, and a 429 waited out", st)
	}
}
