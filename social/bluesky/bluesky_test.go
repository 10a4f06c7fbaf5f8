package bluesky

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/social/internal/fakeapi"
	"github.com/mneme-archive/mneme/social/platform"
	"github.com/mneme-archive/mneme/social/ratelimit"
)

const token = "eyJhbGciOiJFUzI1NksifQ.fake-access-jwt.sig"

// warc stands for the runner's WARC writer: what Env.Record was given.
type warc struct {
	mu      sync.Mutex
	records map[string][]byte
}

func (w *warc) record(uri, ct string, body []byte) (string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	id := fmt.Sprintf("urn:uuid:rec-%d", len(w.records))
	w.records[id] = append([]byte(nil), body...)
	return id, nil
}

func testEnv(s *network, tr http.RoundTripper, log *bytes.Buffer) (platform.Env, *warc) {
	w := &warc{records: map[string][]byte{}}
	env := platform.Env{
		HTTP:        &http.Client{Transport: tr, Timeout: 10 * time.Second},
		Credentials: map[string]string{"token": token},
		Base:        s.base(),
		Record:      w.record,
	}
	if log != nil {
		env.Log = slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return env, w
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

// checkPost compares a post with the one the network holds.
func checkPost(t *testing.T, p platform.Post, fp *fakePost) {
	t.Helper()
	if p.Text != fp.Text || p.Author.ID != fp.Actor.DID || p.Author.URL != ProfileURL(fp.Actor.DID) ||
		!p.Created.Equal(fp.Created) || p.URL != PostURL(fp.Actor.DID, fp.RKey) || p.Lang != fp.Lang {
		t.Fatalf("post %s: %q by %s at %v (%s, %s); want %q by %s at %v (%s)", p.ID, p.Text, p.Author.ID, p.Created, p.URL, p.Lang,
			fp.Text, fp.Actor.DID, fp.Created, fp.Lang)
	}
	if !slices.Equal(p.Hashtags, fp.Tags) || !slices.Equal(p.Links, fp.Links) || len(p.Media) != len(fp.Images) {
		t.Fatalf("post %s: tags %v links %v media %v; want %v %v %v", p.ID, p.Hashtags, p.Links, p.Media, fp.Tags, fp.Links, fp.Images)
	}
	for i, m := range fp.Mentions {
		if i >= len(p.Mentions) || p.Mentions[i] != ProfileURL(m.DID) {
			t.Fatalf("post %s: mentions %v", p.ID, p.Mentions)
		}
	}
	if (fp.ReplyTo == nil && p.ReplyTo != "") || (fp.ReplyTo != nil && p.ReplyTo != PostURL(fp.ReplyTo.Actor.DID, fp.ReplyTo.RKey)) {
		t.Fatalf("post %s: reply to %q", p.ID, p.ReplyTo)
	}
	if (fp.Quote == nil && p.Quotes != "") || (fp.Quote != nil && p.Quotes != PostURL(fp.Quote.Actor.DID, fp.Quote.RKey)) {
		t.Fatalf("post %s: quotes %q", p.ID, p.Quotes)
	}
}

// check compares the posts of a stream query with the posts the network
// holds for it: the same set, each once, recorded raw.
func check(t *testing.T, posts []platform.Post, want map[string]*fakePost, w *warc) {
	t.Helper()
	got := map[string]bool{}
	for _, p := range posts {
		if got[p.ID] {
			t.Fatalf("post %s returned twice", p.ID)
		}
		got[p.ID] = true
		fp := want[p.ID]
		if fp == nil {
			t.Fatalf("post %s (%q) does not match", p.ID, p.Text)
		}
		checkPost(t, p, fp)
		if w != nil && !bytes.Equal(w.records[p.Source], fp.raw) {
			t.Fatalf("post %s: source %s does not hold the event as received", p.ID, p.Source)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d posts returned, the network holds %d", len(got), len(want))
	}
	handles := 0
	for _, p := range posts {
		if h := p.Author.Handle; h != "" {
			if h != want[p.ID].Actor.Handle {
				t.Fatalf("post %s: handle %q, want %q", p.ID, h, want[p.ID].Actor.Handle)
			}
			handles++
		}
	}
	if handles == 0 && len(posts) > 20 {
		t.Fatal("no handle taken from the identity events")
	}
}

func hasWord(w string) func(*fakePost) bool {
	return func(p *fakePost) bool { return strings.Contains(strings.ToLower(p.Text), w) }
}

func hasTag(tag string) func(*fakePost) bool {
	return func(p *fakePost) bool { return slices.Contains(p.Tags, tag) }
}

// The acceptance campaign: a keyword and a hashtag from the stream over
// several pages each, then the posts they answer and quote looked up over
// XRPC, through the rate limiter, against an AppView that announces a
// limit and throttles with 429 + Retry-After now and then.
func TestCampaignCollectsEverything(t *testing.T) {
	gate := &fakeapi.Gate{Style: fakeapi.Bluesky, Limit: 5, Window: time.Second, ThrottleEvery: 7, RetryAfter: 1}
	s := newNetwork(t, 400, 1, gate)
	s.garbage = true
	var log bytes.Buffer
	lim := ratelimit.NewLimiter(ratelimit.Options{Slack: 20 * time.Millisecond})
	env, w := testEnv(s, lim.Transport(nil), &log)
	p := &Platform{PageSize: 15, Idle: 300 * time.Millisecond}
	since := time.UnixMicro(s.times[0]).Add(-time.Second)
	queries := []struct {
		q    platform.Query
		want func(*fakePost) bool
	}{
		{platform.Query{Kind: platform.ByKeyword, Text: "solar", Since: since}, hasWord("solar")},
		{platform.Query{Kind: platform.ByHashtag, Text: "#Climate", Since: since}, hasTag("climate")},
	}
	var lookups []platform.Query
	cursors := make([][]byte, len(queries))
	for i, c := range queries {
		posts, more, cur, pages := run(t, p, env, c.q, nil)
		if pages < 5 {
			t.Fatalf("%v: %d pages, the test needs at least 5", c.q, pages)
		}
		check(t, posts, s.matching(c.want), w)
		cursors[i] = cur
		for _, m := range more {
			if m.Kind == platform.ByPost || m.Kind == platform.ByThread {
				lookups = append(lookups, m)
			}
		}
	}
	if len(lookups) < 8 {
		t.Fatalf("%d lookups of answered and quoted posts", len(lookups))
	}
	lookups = lookups[:8]
	all := s.matching(func(*fakePost) bool { return true })
	for _, q := range lookups {
		page, err := p.Fetch(context.Background(), env, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{}
		if q.Kind == platform.ByPost {
			for _, u := range strings.Fields(q.Text) {
				want[u] = true
			}
		} else {
			var add func(*fakePost, int)
			add = func(fp *fakePost, depth int) {
				want[fp.uri()] = true
				for _, c := range s.replies(fp) {
					if depth < 10 {
						add(c, depth+1)
					}
				}
			}
			add(all[q.Text], 0)
		}
		if len(page.Posts) != len(want) {
			t.Fatalf("%s %s: %d posts, want %d", q.Kind, q.Text, len(page.Posts), len(want))
		}
		for _, lp := range page.Posts {
			fp := all[lp.ID]
			if !want[lp.ID] {
				t.Fatalf("%s %s: post %s", q.Kind, q.Text, lp.ID)
			}
			checkPost(t, lp, fp)
			if c := lp.Counts; c == nil || c.Likes != 1 || c.Replies != int64(len(s.replies(fp))) || c.Reposts != 0 {
				t.Fatalf("lookup %s: counts %+v", lp.ID, c)
			}
			if lp.Author.Handle != fp.Actor.Handle || lp.Author.Name != fp.Actor.Name {
				t.Fatalf("lookup %s: author %+v", lp.ID, lp.Author)
			}
		}
	}
	st := gate.Stats()
	if st.Over != 0 || st.Early != 0 || st.Throttled == 0 {
		t.Fatalf("AppView counts %+v: want none over the limit or early, and a 429 waited out", st)
	}

	// The next pass: only what is new.
	last := s.posts[len(s.posts)-1].TimeUS
	s.add(60)
	for i, c := range queries {
		posts, _, _, _ := run(t, p, env, c.q, cursors[i])
		check(t, posts, s.matching(func(fp *fakePost) bool { return fp.TimeUS > last && c.want(fp) }), w)
	}
	if strings.Contains(log.String(), token) {
		t.Fatal("the token is in the log")
	}
}

// A connection that drops every few events: the Fetch connects again from
// its cursor, losing and repeating nothing.
func TestReconnectsFromCursor(t *testing.T) {
	s := newNetwork(t, 150, 2, nil)
	s.dropAfter = 7
	env, w := testEnv(s, http.DefaultTransport, nil)
	p := &Platform{PageSize: 10, Idle: 300 * time.Millisecond}
	since := time.UnixMicro(s.times[0]).Add(-time.Second)
	posts, _, _, _ := run(t, p, env, platform.Query{Kind: platform.ByKeyword, Text: "solar", Since: since}, nil)
	check(t, posts, s.matching(hasWord("solar")), w)
	if s.conns < 5 {
		t.Fatalf("%d connections: the drops were not exercised", s.conns)
	}
}

// An author by handle: resolved to a DID, sent as wantedDids.
func TestAuthor(t *testing.T) {
	s := newNetwork(t, 150, 3, nil)
	env, w := testEnv(s, http.DefaultTransport, nil)
	p := &Platform{PageSize: 50, Idle: 300 * time.Millisecond}
	a := s.actors[4]
	since := time.UnixMicro(s.times[0]).Add(-time.Second)
	posts, _, _, _ := run(t, p, env, platform.Query{Kind: platform.ByAccount, Text: "@" + a.Handle, Since: since}, nil)
	check(t, posts, s.matching(func(fp *fakePost) bool { return fp.Actor == a }), w)
	_, err := p.Fetch(context.Background(), env, platform.Query{Kind: platform.ByAccount, Text: "nobody.example", Since: since}, nil)
	if err == nil || !strings.Contains(err.Error(), "400 Bad Request: InvalidRequest: Unable to resolve handle") {
		t.Fatalf("unknown handle: %v", err)
	}
}

// Bad answers of the AppView: each a clear error naming the platform, the
// request and the status, never the token; the next Fetch works.
func TestBadInput(t *testing.T) {
	s := newNetwork(t, 30, 4, nil)
	var log bytes.Buffer
	env, _ := testEnv(s, http.DefaultTransport, &log)
	p := &Platform{}
	q := platform.Query{Kind: platform.ByPost, Text: PostURL(s.posts[3].Actor.DID, s.posts[3].RKey)}
	want := map[fakeapi.Fault][]string{
		fakeapi.Malformed: {"200 OK", "invalid character"},
		fakeapi.HTML:      {"200 OK", "text/html, not JSON"},
		fakeapi.Truncated: {"200 OK", "unexpected EOF"},
		fakeapi.Status401: {"401 Unauthorized", "AuthenticationRequired"},
		fakeapi.Status403: {"403 Forbidden"},
		fakeapi.Status404: {"404 Not Found", "NotFound"},
		fakeapi.EchoAuth:  {"401 Unauthorized", "[redacted]"},
	}
	set := func(f fakeapi.Fault) {
		s.mu.Lock()
		s.fault = f
		s.mu.Unlock()
	}
	fakeapi.CheckFaults(t, p, env, q, set, "bluesky: GET "+s.app.URL+"/xrpc/app.bsky.feed.getPosts?uris=at%3A%2F%2F", want,
		[]string{token}, func(page platform.Page) bool { return len(page.Posts) == 1 })
	if _, err := p.Fetch(context.Background(), env, platform.Query{Kind: platform.ByPost, Text: "https://example.org/x"}, nil); err == nil {
		t.Fatal("a URL that names no post: no error")
	}
	env.Base = "ws://127.0.0.1:1/subscribe " + s.app.URL
	p.Idle = 100 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := p.Fetch(ctx, env, platform.Query{Kind: platform.ByKeyword, Text: "x"}, nil); err == nil || !strings.Contains(err.Error(), "bluesky: GET ws://127.0.0.1:1/subscribe?") {
		t.Fatalf("no Jetstream: %v", err)
	}
	if strings.Contains(log.String(), token) {
		t.Fatal("the token is in the log")
	}
}
