package mastodon

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/social/internal/fakeapi"
	"github.com/mneme-archive/mneme/social/platform"
	"github.com/mneme-archive/mneme/social/ratelimit"
)

const token = "tok-Zq8Xw3-secret-value"

func testEnv(base string, tr http.RoundTripper, log *bytes.Buffer) platform.Env {
	env := platform.Env{
		HTTP:        &http.Client{Transport: tr, Timeout: 10 * time.Second},
		Credentials: map[string]string{"token": token},
		Base:        base,
	}
	if log != nil {
		env.Log = slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return env
}

// run fetches q page after page until the pass is done, as the campaign
// runner does, and returns every post and the number of pages.
func run(t testing.TB, p platform.Platform, env platform.Env, q platform.Query, cur []byte) ([]platform.Post, []byte, int) {
	t.Helper()
	var posts []platform.Post
	for pages := 1; pages < 500; pages++ {
		page, err := p.Fetch(context.Background(), env, q, cur)
		if err != nil {
			t.Fatalf("%v page %d: %v", q, pages, err)
		}
		posts = append(posts, page.Posts...)
		cur = page.Cursor
		if page.Done {
			return posts, cur, pages
		}
	}
	t.Fatal("no end of pass after 500 pages")
	return nil, nil, 0
}

// check compares the posts a query returned with the statuses the server
// holds for it: the same set, once each, text, author and date exact.
func check(t *testing.T, s *instanceServer, posts []platform.Post, want map[string]*fakeStatus) {
	t.Helper()
	got := map[string]bool{}
	for _, p := range posts {
		if got[p.ID] {
			t.Fatalf("post %s returned twice", p.ID)
		}
		got[p.ID] = true
		st := want[p.ID]
		if st == nil {
			t.Fatalf("post %s (%q) does not match the query", p.ID, p.Text)
		}
		if p.Text != st.Text || p.Author.URL != s.accountURL(st.Account) || !p.Created.Equal(st.Created) ||
			p.URL != s.statusURI(st) || p.Author.Name != st.Account.Display || p.Lang != st.Lang {
			t.Fatalf("post %s: got %q by %s (%q) at %v, %s, %s; want %q by %s (%q) at %v, %s, %s", p.ID,
				p.Text, p.Author.URL, p.Author.Name, p.Created, p.URL, p.Lang,
				st.Text, s.accountURL(st.Account), st.Account.Display, st.Created, s.statusURI(st), st.Lang)
		}
		if !slices.Equal(p.Hashtags, st.Tags) || !p.Edited.Equal(st.Edited) || !slices.Equal(p.Media, st.Media) {
			t.Fatalf("post %s: tags %v edited %v media %v; want %v %v %v", p.ID, p.Hashtags, p.Edited, p.Media, st.Tags, st.Edited, st.Media)
		}
		if !slices.Equal(p.Links, st.Links) {
			t.Fatalf("post %s: links %v, want %v", p.ID, p.Links, st.Links)
		}
		for i, m := range st.Mentions {
			if i >= len(p.Mentions) || p.Mentions[i] != s.accountURL(m) {
				t.Fatalf("post %s: mentions %v", p.ID, p.Mentions)
			}
		}
		if c := p.Counts; c == nil || c.Likes != favourites(st) || c.Replies != s.replyCount(st) || c.Reposts != 0 {
			t.Fatalf("post %s: counts %+v", p.ID, c)
		}
		if st.ReplyTo != nil && p.ReplyTo == "" {
			t.Fatalf("post %s answers %s, says nothing", p.ID, st.ReplyTo.ID)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d posts returned, the server holds %d", len(got), len(want))
	}
}

// The acceptance campaign: a hashtag and a keyword over several pages each,
// through the rate limiter, against a server that announces a limit and
// throttles with 429 + Retry-After now and then.
func TestCampaignCollectsEverything(t *testing.T) {
	gate := &fakeapi.Gate{Style: fakeapi.Mastodon, Limit: 6, Window: time.Second, ThrottleEvery: 11, RetryAfter: 1}
	s := newInstance(t, 500, 1, gate)
	s.token = token
	var log bytes.Buffer
	lim := ratelimit.NewLimiter(ratelimit.Options{Slack: 20 * time.Millisecond})
	env := testEnv(s.URL, lim.Transport(nil), &log)
	p := &Platform{PageSize: 20}

	queries := []struct {
		q    platform.Query
		want func(*fakeStatus) bool
	}{
		{platform.Query{Kind: platform.ByHashtag, Text: "climate"}, hasTag("climate")},
		{platform.Query{Kind: platform.ByKeyword, Text: "solar"}, hasWord("solar")},
	}
	cursors := make([][]byte, len(queries))
	for i, c := range queries {
		posts, cur, pages := run(t, p, env, c.q, nil)
		want := s.matching(c.want)
		if pages < 5 {
			t.Fatalf("%v: %d pages, the test needs at least 5", c.q, pages)
		}
		check(t, s, posts, want)
		cursors[i] = cur
	}
	st := gate.Stats()
	if st.Over != 0 || st.Early != 0 || st.Throttled == 0 {
		t.Fatalf("server counts %+v: want none over the limit or early, and a 429 waited out", st)
	}

	// The next pass: only what is new since the last one.
	s.add(120)
	for i, c := range queries {
		before := s.matching(c.want)
		posts, _, _ := run(t, p, env, c.q, cursors[i])
		all := s.matching(c.want)
		fresh := map[string]*fakeStatus{}
		for id, st := range all {
			if before[id] == nil || cmpID(id, "100500") >= 0 {
				fresh[id] = st
			}
		}
		check(t, s, posts, fresh)
	}
	if strings.Contains(log.String(), token) {
		t.Fatal("the token is in the log")
	}
}

// Several instances from Env.Base: the union, one after the other.
func TestSeveralInstances(t *testing.T) {
	a, b := newInstance(t, 120, 2, nil), newInstance(t, 90, 3, nil)
	env := testEnv(a.URL+", "+b.URL, http.DefaultTransport, nil)
	posts, _, _ := run(t, &Platform{PageSize: 15}, env, platform.Query{Kind: platform.ByHashtag, Text: "#wind"}, nil)
	var fromA, fromB []platform.Post
	for _, p := range posts {
		if strings.HasPrefix(p.Source, a.URL) {
			fromA = append(fromA, p)
		} else {
			fromB = append(fromB, p)
		}
	}
	check(t, a, fromA, a.matching(hasTag("wind")))
	check(t, b, fromB, b.matching(hasTag("wind")))

	// An account one instance does not know: nothing from it; an
	// account the only instance asked does not know: an error.
	a.mu.Lock()
	a.accounts[1].Acct = "only-on-a"
	a.mu.Unlock()
	posts, _, _ = run(t, &Platform{}, env, platform.Query{Kind: platform.ByAccount, Text: "only-on-a"}, nil)
	want := a.matching(func(st *fakeStatus) bool { return st.Account.Acct == "only-on-a" })
	if len(posts) < len(want) || len(want) == 0 {
		t.Fatalf("only-on-a: %d posts, %d on the instance", len(posts), len(want))
	}
	_, err := (&Platform{}).Fetch(context.Background(), testEnv(b.URL, http.DefaultTransport, nil),
		platform.Query{Kind: platform.ByAccount, Text: "only-on-a"}, nil)
	if err == nil || !strings.Contains(err.Error(), "404 Not Found") {
		t.Fatalf("unknown account: %v", err)
	}
}

// The strategy: a hashtag page yields its authors and reply threads; a
// thread holds the status, its ancestors and replies, linked by ReplyTo.
func TestStrategy(t *testing.T) {
	s := newInstance(t, 200, 4, nil)
	env := testEnv(s.URL, http.DefaultTransport, nil)
	p := &Platform{}
	page, err := p.Fetch(context.Background(), env, platform.Query{Kind: platform.ByHashtag, Text: "climate"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var account, thread *platform.Query
	for i, m := range page.More {
		switch m.Kind {
		case platform.ByAccount:
			account = &page.More[i]
		case platform.ByThread:
			if thread == nil {
				thread = &page.More[i]
			}
		}
	}
	if account == nil || thread == nil {
		t.Fatalf("more queries %v: want authors and threads", page.More)
	}
	// An author's recent posts: all of them, boosts included.
	_, acct, _ := strings.Cut(account.Text, " ")
	posts, _, _ := run(t, p, env, *account, nil)
	want := s.matching(func(st *fakeStatus) bool { return st.Account.Acct == acct })
	boosted := map[string]bool{}
	for _, p := range posts {
		if st := want[p.ID]; st != nil && st.Reblog != nil {
			if p.Reposts != s.statusURI(st.Reblog) || p.Text != "" {
				t.Fatalf("boost %s: reposts %q, want %q", p.ID, p.Reposts, s.statusURI(st.Reblog))
			}
			boosted[st.Reblog.ID] = true
		}
	}
	got := 0
	for _, p := range posts {
		if want[p.ID] != nil {
			got++
		} else if !boosted[p.ID] {
			t.Fatalf("%s: post %s is neither the author's nor boosted by them", acct, p.ID)
		}
	}
	if got != len(want) {
		t.Fatalf("%s: %d posts, server holds %d", acct, got, len(want))
	}
	tp, err := p.Fetch(context.Background(), env, *thread, nil)
	if err != nil || !tp.Done {
		t.Fatalf("thread %v: %v", thread, err)
	}
	urls := map[string]bool{}
	for _, p := range tp.Posts {
		urls[p.URL] = true
	}
	replies := 0
	for _, p := range tp.Posts {
		if p.ReplyTo != "" {
			replies++
			if !urls[p.ReplyTo] {
				t.Fatalf("thread post %s answers %s, not in the thread", p.ID, p.ReplyTo)
			}
		}
	}
	if len(tp.Posts) < 2 || replies == 0 {
		t.Fatalf("thread of %d posts, %d replies", len(tp.Posts), replies)
	}
}

// Bad answers: each a clear error naming the platform, the request and the
// status, never the token; the next Fetch works.
func TestBadInput(t *testing.T) {
	s := newInstance(t, 60, 5, nil)
	s.token = token
	var log bytes.Buffer
	env := testEnv(s.URL, http.DefaultTransport, &log)
	p := &Platform{}
	q := platform.Query{Kind: platform.ByHashtag, Text: "climate"}
	want := map[fakeapi.Fault][]string{
		fakeapi.Malformed: {"200 OK", "invalid character"},
		fakeapi.HTML:      {"200 OK", "text/html, not JSON"},
		fakeapi.Truncated: {"200 OK", "unexpected EOF"},
		fakeapi.Status401: {"401 Unauthorized", "The access token is invalid"},
		fakeapi.Status403: {"403 Forbidden"},
		fakeapi.Status404: {"404 Not Found", "Record not found"},
		fakeapi.EchoAuth:  {"401 Unauthorized", "[redacted]"},
	}
	fakeapi.CheckFaults(t, p, env, q, s.setFault, "mastodon: GET "+s.URL+"/api/v1/timelines/tag/climate?limit=40", want,
		[]string{token}, func(page platform.Page) bool { return len(page.Posts) > 0 })
	if strings.Contains(log.String(), token) {
		t.Fatal("the token is in the log")
	}
}

func TestPlainText(t *testing.T) {
	text, links := plainText(`<p>Hi <span class="h-card"><a href="https://a.example/@x" class="u-url mention">@<span>x</span></a></span> &amp; <a href="https://b.example/very/long" rel="nofollow"><span class="invisible">https://</span>b.example/very/long</a></p><p>two<br>lines <a href="https://a.example/tags/t" class="mention hashtag" rel="tag">#<span>t</span></a></p>`)
	if text != "Hi @x & https://b.example/very/long\n\ntwo\nlines #t" || !slices.Equal(links, []string{"https://b.example/very/long"}) {
		t.Fatalf("%q %v", text, links)
	}
}
