package twitter

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/social/internal/fakeapi"
	"github.com/mneme-archive/mneme/social/platform"
	"github.com/mneme-archive/mneme/social/ratelimit"
)

const token = "AAAAAAAAAAAAAAAAAAAAAFake%2Bbearer%3Dtoken-Q9x"

func testEnv(base string, tr http.RoundTripper, log *bytes.Buffer) platform.Env {
	env := platform.Env{
		HTTP:        &http.Client{Transport: tr, Timeout: 10 * time.Second},
		Credentials: map[string]string{"bearer": token},
		Base:        base,
	}
	if log != nil {
		env.Log = slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return env
}

func run(t testing.TB, p platform.Platform, env platform.Env, q platform.Query, cur []byte) ([]platform.Post, []platform.Query, []byte, int) {
	t.Helper()
	var posts []platform.Post
	var more []platform.Query
	for pages := 1; pages < 500; pages++ {
		page, err := p.Fetch(context.Background(), env, q, cur)
		if err != nil {
			t.Fatalf("%v page %d: %v", q, pages, err)
		}
		posts = append(posts, page.Posts...)
		more = append(more, page.More...)
		cur = page.Cursor
		if page.Done {
			return posts, more, cur, pages
		}
	}
	t.Fatal("no end of pass after 500 pages")
	return nil, nil, nil, 0
}

// check compares the posts of a query with the tweets the service holds
// for it: each matching tweet once, text, author and date exact; other
// posts only as the retweeted or quoted tweets those embed.
func check(t *testing.T, posts []platform.Post, want map[string]*fakeTweet, all map[string]*fakeTweet) {
	t.Helper()
	embedded := map[string]bool{}
	for _, tw := range want {
		for _, e := range embeds(tw) {
			embedded[strconv.FormatInt(e.ID, 10)] = true
		}
	}
	got := map[string]bool{}
	for _, p := range posts {
		tw := all[p.ID]
		if tw == nil {
			t.Fatalf("post %s is not on the service", p.ID)
		}
		if want[p.ID] == nil && !embedded[p.ID] {
			t.Fatalf("post %s (%q) does not match the query", p.ID, p.Text)
		}
		if got[p.ID] && !embedded[p.ID] {
			t.Fatalf("post %s returned twice", p.ID)
		}
		got[p.ID] = true
		text := tw.Text
		if tw.Retweet != nil {
			text = ""
			if p.Reposts != PostURL(tw.Retweet.User.Screen, strconv.FormatInt(tw.Retweet.ID, 10)) {
				t.Fatalf("retweet %s: reposts %q", p.ID, p.Reposts)
			}
		}
		uid := strconv.FormatInt(tw.User.ID, 10)
		if p.Text != text || p.Author.URL != AccountURL(tw.User.Screen, uid) || p.Author.ID != uid || p.Author.Handle != tw.User.Screen ||
			p.Author.Name != tw.User.Name || !p.Created.Equal(tw.Created) || p.URL != PostURL(tw.User.Screen, p.ID) || p.Lang != tw.Lang {
			t.Fatalf("post %s: %q by %s @%s (%q) at %v lang %s; want %q by %s @%s (%q) at %v lang %s", p.ID,
				p.Text, p.Author.URL, p.Author.Handle, p.Author.Name, p.Created, p.Lang,
				text, AccountURL(tw.User.Screen, uid), tw.User.Screen, tw.User.Name, tw.Created, tw.Lang)
		}
		if tw.Retweet != nil {
			continue
		}
		if c := p.Counts; c == nil || c.Likes != tw.ID%13 || c.Reposts != tw.ID%5 || c.Replies != -1 {
			t.Fatalf("post %s: counts %+v", p.ID, c)
		}
		if !slices.Equal(p.Hashtags, tw.Tags) || !slices.Equal(p.Links, tw.Links) || !slices.Equal(p.Media, tw.Media) {
			t.Fatalf("post %s: tags %v links %v media %v; want %v %v %v", p.ID, p.Hashtags, p.Links, p.Media, tw.Tags, tw.Links, tw.Media)
		}
		for i, m := range tw.Mentions {
			if i >= len(p.Mentions) || p.Mentions[i] != AccountURL(m.Screen, "") {
				t.Fatalf("post %s: mentions %v", p.ID, p.Mentions)
			}
		}
		if (tw.ReplyTo != nil) != (p.ReplyTo != "") || (tw.Quote != nil) != (p.Quotes != "") {
			t.Fatalf("post %s: reply to %q, quotes %q", p.ID, p.ReplyTo, p.Quotes)
		}
	}
	for id := range want {
		if !got[id] {
			t.Fatalf("%d of %d matching tweets returned; %s missing", len(got), len(want), id)
		}
	}
}

// The acceptance campaign: a keyword and a hashtag over several pages each,
// through the rate limiter, against a service that announces a limit per
// endpoint and throttles with 429 + Retry-After now and then.
func TestCampaignCollectsEverything(t *testing.T) {
	s := newService(t, 700, 1, 5, 9)
	s.token = token
	var log bytes.Buffer
	reg := &ratelimit.Registry{Options: func(p string) ratelimit.Options {
		o := ratelimit.ForPlatform(p)
		o.Slack = 20 * time.Millisecond
		return o
	}}
	env := testEnv(s.URL, reg.For(Name, map[string]string{"bearer": token}).Transport(nil), &log)
	p := &Platform{PageSize: 25}
	queries := []platform.Query{{Kind: platform.ByKeyword, Text: "solar"}, {Kind: platform.ByHashtag, Text: "climate"}}
	all := s.matching(func(*fakeTweet) bool { return true })
	cursors := make([][]byte, len(queries))
	var more []platform.Query
	for i, q := range queries {
		term := q.Text
		if q.Kind == platform.ByHashtag {
			term = "#" + term
		}
		posts, m, cur, pages := run(t, p, env, q, nil)
		if pages < 5 {
			t.Fatalf("%v: %d pages, the test needs at least 5", q, pages)
		}
		check(t, posts, s.matching(searchMatch(term)), all)
		cursors[i] = cur
		more = append(more, m...)
	}
	st := s.stats()
	if st.Over != 0 || st.Early != 0 || st.Throttled == 0 {
		t.Fatalf("service counts %+v: want none over the limit or early, and a 429 waited out", st)
	}

	// The strategy's queries: authors, threads, lookups of quoted tweets.
	kinds := map[platform.QueryKind]int{}
	for _, m := range more {
		kinds[m.Kind]++
	}
	if kinds[platform.ByAccount] == 0 || kinds[platform.ByThread] == 0 || kinds[platform.ByPost] == 0 {
		t.Fatalf("more queries by kind %v", kinds)
	}

	// The next pass: only what is new.
	cut := s.nextID
	s.add(150)
	all = s.matching(func(*fakeTweet) bool { return true })
	for i, q := range queries {
		term := q.Text
		if q.Kind == platform.ByHashtag {
			term = "#" + term
		}
		posts, _, _, _ := run(t, p, env, q, cursors[i])
		check(t, posts, s.matching(func(tw *fakeTweet) bool { return tw.ID >= cut && searchMatch(term)(tw) }), all)
	}
	if strings.Contains(log.String(), token) || strings.Contains(log.String(), "Fake") {
		t.Fatal("the token is in the log")
	}
}

// The strategy's other queries: an author's timeline, a thread (up the
// reply chain and the answers), a lookup.
func TestStrategy(t *testing.T) {
	s := newService(t, 300, 2, 0, 0)
	s.token = token
	env := testEnv(s.URL, http.DefaultTransport, nil)
	p := &Platform{}
	user := s.users[3]
	posts, _, _, _ := run(t, p, env, platform.Query{Kind: platform.ByAccount, Text: "@" + user.Screen}, nil)
	want := s.matching(func(tw *fakeTweet) bool { return tw.User == user })
	check(t, posts, want, s.matching(func(*fakeTweet) bool { return true }))

	var reply *fakeTweet
	for _, tw := range s.tweets {
		if tw.ReplyTo != nil && tw.ReplyTo.ReplyTo != nil {
			reply = tw
		}
	}
	page, err := p.Fetch(context.Background(), env, platform.Query{Kind: platform.ByThread, Text: "https://twitter.com/x/status/" + strconv.FormatInt(reply.ID, 10)}, nil)
	if err != nil || !page.Done {
		t.Fatal(err)
	}
	ids := map[int64]bool{}
	for _, p := range page.Posts {
		id, _ := strconv.ParseInt(p.ID, 10, 64)
		ids[id] = true
	}
	for a := reply; a != nil; a = a.ReplyTo {
		if !ids[a.ID] {
			t.Fatalf("thread of %d misses ancestor %d", reply.ID, a.ID)
		}
	}
	for _, tw := range s.tweets {
		if tw.ReplyTo == reply && !ids[tw.ID] {
			t.Fatalf("thread of %d misses answer %d", reply.ID, tw.ID)
		}
	}

	page, err = p.Fetch(context.Background(), env, platform.Query{Kind: platform.ByPost, Text: strconv.FormatInt(s.tweets[5].ID, 10) + ", " + strconv.FormatInt(s.tweets[9].ID, 10)}, nil)
	if err != nil || len(page.Posts) < 2 {
		t.Fatalf("lookup: %v, %d posts", err, len(page.Posts))
	}
}

// A service that answers in compatibility mode (text cut short, the whole
// tweet in extended_tweet): the same posts.
func TestExtendedTweet(t *testing.T) {
	s := newService(t, 200, 4, 0, 0)
	s.token, s.compat = token, true
	env := testEnv(s.URL, http.DefaultTransport, nil)
	user := s.users[5]
	posts, _, _, _ := run(t, &Platform{}, env, platform.Query{Kind: platform.ByAccount, Text: user.Screen}, nil)
	long := 0
	for _, p := range posts {
		if len([]rune(p.Text)) > 140 {
			long++
		}
	}
	if long == 0 {
		t.Fatal("no long tweet in the test")
	}
	check(t, posts, s.matching(func(tw *fakeTweet) bool { return tw.User == user }), s.matching(func(*fakeTweet) bool { return true }))
}

// Bad answers: each a clear error naming the platform, the request and the
// status, never the token; the next Fetch works.
func TestBadInput(t *testing.T) {
	s := newService(t, 60, 3, 0, 0)
	s.token = token
	var log bytes.Buffer
	env := testEnv(s.URL, http.DefaultTransport, &log)
	p := &Platform{}
	q := platform.Query{Kind: platform.ByKeyword, Text: "solar"}
	want := map[fakeapi.Fault][]string{
		fakeapi.Malformed: {"200 OK", "invalid character"},
		fakeapi.HTML:      {"200 OK", "text/html, not JSON"},
		fakeapi.Truncated: {"200 OK", "unexpected EOF"},
		fakeapi.Status401: {"401 Unauthorized", "89 The access token is invalid"},
		fakeapi.Status403: {"403 Forbidden"},
		fakeapi.Status404: {"404 Not Found", "34 Record not found"},
		fakeapi.EchoAuth:  {"401 Unauthorized", "[redacted]"},
	}
	fakeapi.CheckFaults(t, p, env, q, s.setFault, "twitter: GET "+s.URL+"/1.1/search/tweets.json?", want,
		[]string{token, "Fake"}, func(page platform.Page) bool { return len(page.Posts) > 0 })
	// A wrong token is the service's 401.
	env.Credentials = map[string]string{"bearer": "wrong-token-value"}
	if _, err := p.Fetch(context.Background(), env, q, nil); err == nil || !strings.Contains(err.Error(), "401 Unauthorized: twitter: 89 Invalid or expired token.") {
		t.Fatalf("wrong token: %v", err)
	}
	if strings.Contains(log.String(), token) {
		t.Fatal("the token is in the log")
	}
}

// The library takes no context: the Fetch's reaches the request all the
// same, and a cancelled campaign sends nothing.
func TestContext(t *testing.T) {
	s := newService(t, 20, 5, 0, 0)
	s.token = token
	env := testEnv(s.URL, http.DefaultTransport, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := (&Platform{}).Fetch(ctx, env, platform.Query{Kind: platform.ByKeyword, Text: "x"}, nil)
	if !errors.Is(err, context.Canceled) || s.stats().Requests != 0 {
		t.Fatalf("cancelled Fetch: %v, %d requests", err, s.stats().Requests)
	}
}

// Without Env.Base the library's own host is asked: the rewrite leaves it.
func TestRewrite(t *testing.T) {
	var got string
	rt := &rewrite{ctx: context.Background(), next: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		got = r.URL.String()
		return &http.Response{StatusCode: 200, Body: http.NoBody, Request: r}, nil
	})}
	req, _ := http.NewRequest("GET", "https://api.twitter.com/1.1/search/tweets.json?q=x", nil)
	if _, err := rt.RoundTrip(req); err != nil || got != "https://api.twitter.com/1.1/search/tweets.json?q=x" {
		t.Fatalf("%v %s", err, got)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
