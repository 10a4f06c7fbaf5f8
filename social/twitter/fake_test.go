package twitter

// A loopback service compatible with the Twitter API v1.1 as documented
// (developer.twitter.com, v1.1 reference: GET search/tweets with
// search_metadata and next_results, GET statuses/user_timeline, GET
// statuses/lookup; the Tweet and User objects in extended mode, entities
// with code-point indices; errors as {"errors":[{"code","message"}]};
// x-rate-limit-* headers per endpoint, application-only bearer auth), over
// a generated corpus.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mneme-archive/mneme/social/internal/fakeapi"
)

type fakeUser struct {
	ID                    int64
	Screen, Name          string
	Followers, Friends, N int
}

type fakeTweet struct {
	ID       int64
	Text     string // as the user typed it (not HTML-escaped)
	Created  time.Time
	User     *fakeUser
	Tags     []string
	Mentions []*fakeUser
	Links    []string // expanded URLs; the text holds t.co URLs
	Media    []string
	ReplyTo  *fakeTweet
	Quote    *fakeTweet
	Retweet  *fakeTweet
	Lang     string
}

type service struct {
	*httptest.Server
	token string
	gates map[string]*fakeapi.Gate

	mu     sync.Mutex
	users  []*fakeUser
	tweets []*fakeTweet // oldest first
	byID   map[int64]*fakeTweet
	fault  fakeapi.Fault
	// compat answers as services that ignore tweet_mode do: text cut to
	// 140 characters with the whole tweet in extended_tweet.
	compat bool
	nextID int64
	rng    *rand.Rand
}

var words = strings.Fields(`the wind grid storage policy vote city river heat energy panel roof
	battery price market tomorrow report data storm coast farm <b>bold</b> Q&A a>b
	été über naïve 東京 🌍`)

const firstID = 1_600_000_000_000_000_000

// newService starts a service with n generated tweets; limit > 0 puts a
// rate limit of limit requests per second on each endpoint.
func newService(t testing.TB, n int, seed uint64, limit, throttleEvery int) *service {
	s := &service{byID: map[int64]*fakeTweet{}, nextID: firstID, rng: rand.New(rand.NewPCG(seed, 11)), gates: map[string]*fakeapi.Gate{}}
	for _, ep := range []string{"/1.1/search/tweets.json", "/1.1/statuses/user_timeline.json", "/1.1/statuses/lookup.json"} {
		s.gates[ep] = &fakeapi.Gate{Style: fakeapi.Twitter, Limit: limit, Window: time.Second, ThrottleEvery: throttleEvery, RetryAfter: 1}
	}
	mux := http.NewServeMux()
	for ep, g := range s.gates {
		mux.Handle(ep, g.Wrap(http.HandlerFunc(s.serve)))
	}
	mux.HandleFunc("/", s.serve)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	for i := range 15 {
		s.users = append(s.users, &fakeUser{ID: int64(7000 + i), Screen: fmt.Sprintf("tw_user%d", i),
			Name: fmt.Sprintf("Tweeter %d ✓", i), Followers: i * 3, Friends: i, N: 50 + i})
	}
	s.add(n)
	return s
}

func (s *service) stats() fakeapi.Stats {
	var t fakeapi.Stats
	for _, g := range s.gates {
		st := g.Stats()
		t.Requests += st.Requests
		t.Served += st.Served
		t.Throttled += st.Throttled
		t.Over += st.Over
		t.Early += st.Early
	}
	return t
}

func (s *service) add(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.rng
	for range n {
		tw := &fakeTweet{ID: s.nextID, User: s.users[r.IntN(len(s.users))], Lang: "en",
			Created: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(s.nextID-firstID) * 41 * time.Second)}
		s.nextID += 1 + int64(r.IntN(3))
		if len(s.tweets) > 10 && r.IntN(10) == 0 {
			tw.Retweet = s.tweets[r.IntN(len(s.tweets))]
			for tw.Retweet.Retweet != nil {
				tw.Retweet = s.tweets[r.IntN(len(s.tweets))]
			}
			tw.Text = "RT @" + tw.Retweet.User.Screen + ": " + tw.Retweet.Text
		} else {
			var parts []string
			for j := 0; j < 3+r.IntN(10); j++ {
				parts = append(parts, words[r.IntN(len(words))])
			}
			if r.IntN(4) == 0 {
				parts = slices.Insert(parts, r.IntN(len(parts)), "Solar")
			}
			if r.IntN(4) == 0 {
				parts = append(parts, "#Climate")
				tw.Tags = append(tw.Tags, "Climate")
			}
			if r.IntN(3) == 0 {
				m := s.users[r.IntN(len(s.users))]
				parts = slices.Insert(parts, 0, "@"+m.Screen)
				tw.Mentions = append(tw.Mentions, m)
			}
			if r.IntN(3) == 0 {
				tw.Links = append(tw.Links, fmt.Sprintf("https://news.example/story/%d?a=1&b=2", r.IntN(40)))
				parts = append(parts, "https://t.co/"+strconv.FormatInt(tw.ID%1e9, 36))
			}
			if r.IntN(8) == 0 {
				tw.Media = append(tw.Media, "https://pbs.twimg.example/media/"+strconv.FormatInt(tw.ID, 36)+".jpg")
			}
			tw.Text = strings.Join(parts, " ")
			if r.IntN(5) == 0 {
				tw.Text += " " + strings.Repeat("and a longer thought, ", 7)
			}
			if r.IntN(7) == 0 {
				tw.Lang = "fr"
			}
			if len(s.tweets) > 0 && r.IntN(4) == 0 {
				if p := s.tweets[len(s.tweets)-1-r.IntN(min(len(s.tweets), 20))]; p.Retweet == nil {
					tw.ReplyTo = p
				}
			}
			if len(s.tweets) > 0 && r.IntN(12) == 0 {
				if q := s.tweets[r.IntN(len(s.tweets))]; q.Retweet == nil {
					tw.Quote = q
				}
			}
		}
		s.tweets = append(s.tweets, tw)
		s.byID[tw.ID] = tw
	}
}

func (s *service) setFault(f fakeapi.Fault) {
	s.mu.Lock()
	s.fault = f
	s.mu.Unlock()
}

// searchMatch is the service's search: every term must be in the text,
// case-insensitively; "to:name" is a reply to name's tweet, "from:name" by
// name. Retweets are found by their own text, as on Twitter.
func searchMatch(q string) func(*fakeTweet) bool {
	terms := strings.Fields(strings.ToLower(q))
	return func(tw *fakeTweet) bool {
		for _, t := range terms {
			switch {
			case strings.HasPrefix(t, "to:"):
				if tw.ReplyTo == nil || strings.ToLower(tw.ReplyTo.User.Screen) != t[3:] {
					return false
				}
			case strings.HasPrefix(t, "from:"):
				if strings.ToLower(tw.User.Screen) != t[5:] {
					return false
				}
			default:
				if !strings.Contains(strings.ToLower(tw.Text), t) {
					return false
				}
			}
		}
		return true
	}
}

func (s *service) matching(pred func(*fakeTweet) bool) map[string]*fakeTweet {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]*fakeTweet{}
	for _, tw := range s.tweets {
		if pred(tw) {
			out[strconv.FormatInt(tw.ID, 10)] = tw
		}
	}
	return out
}

func errorBody(status int, msg string) []byte {
	code := map[int]int{401: 89, 403: 200, 404: 34, 500: 131}[status]
	b, _ := json.Marshal(map[string]any{"errors": []any{map[string]any{"code": code, "message": msg}}})
	return b
}

func (s *service) fail(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json;charset=utf-8")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]any{"errors": []any{map[string]any{"code": code, "message": msg}}})
	_, _ = w.Write(b)
}

func (s *service) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if fakeapi.Serve(w, r, s.fault, errorBody) {
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+s.token {
		s.fail(w, 401, 89, "Invalid or expired token.")
		return
	}
	q := r.URL.Query()
	count := func(def, most int) int {
		n, err := strconv.Atoi(q.Get("count"))
		if err != nil || n <= 0 {
			return def
		}
		return min(n, most)
	}
	switch r.URL.Path {
	case "/1.1/search/tweets.json":
		if q.Get("q") == "" {
			s.fail(w, 400, 25, "Query parameters are missing.")
			return
		}
		n := count(15, 100)
		page, more := s.page(searchMatch(q.Get("q")), q, n)
		meta := map[string]any{"completed_in": 0.012, "max_id": 0, "max_id_str": "0", "query": url.QueryEscape(q.Get("q")),
			"refresh_url": "", "count": n, "since_id": 0, "since_id_str": "0"}
		if len(page) > 0 {
			meta["max_id"], meta["max_id_str"] = page[0].ID, strconv.FormatInt(page[0].ID, 10)
			meta["refresh_url"] = "?since_id=" + strconv.FormatInt(page[0].ID, 10) + "&q=" + url.QueryEscape(q.Get("q")) + "&include_entities=1"
		}
		if more {
			meta["next_results"] = "?max_id=" + strconv.FormatInt(page[len(page)-1].ID-1, 10) + "&q=" + url.QueryEscape(q.Get("q")) +
				"&count=" + strconv.Itoa(n) + "&include_entities=1&result_type=recent"
		}
		s.json(w, map[string]any{"statuses": s.renderAll(page), "search_metadata": meta})
	case "/1.1/statuses/user_timeline.json":
		var u *fakeUser
		for _, c := range s.users {
			if strings.EqualFold(c.Screen, q.Get("screen_name")) || strconv.FormatInt(c.ID, 10) == q.Get("user_id") {
				u = c
			}
		}
		if u == nil {
			s.fail(w, 404, 34, "Sorry, that page does not exist.")
			return
		}
		page, _ := s.page(func(tw *fakeTweet) bool { return tw.User == u }, q, count(20, 200))
		s.json(w, s.renderAll(page))
	case "/1.1/statuses/lookup.json":
		var out []*fakeTweet
		for _, id := range strings.Split(q.Get("id"), ",") {
			n, _ := strconv.ParseInt(id, 10, 64)
			if tw := s.byID[n]; tw != nil {
				out = append(out, tw)
			}
		}
		s.json(w, s.renderAll(out))
	default:
		s.fail(w, 404, 34, "Sorry, that page does not exist.")
	}
}

// page selects, newest first, up to n tweets of pred with since_id < id
// <= max_id, and says whether more remain.
func (s *service) page(pred func(*fakeTweet) bool, q url.Values, n int) ([]*fakeTweet, bool) {
	maxID, _ := strconv.ParseInt(q.Get("max_id"), 10, 64)
	sinceID, _ := strconv.ParseInt(q.Get("since_id"), 10, 64)
	var out []*fakeTweet
	for i := len(s.tweets) - 1; i >= 0; i-- {
		tw := s.tweets[i]
		if (maxID != 0 && tw.ID > maxID) || tw.ID <= sinceID || !pred(tw) {
			continue
		}
		if len(out) == n {
			return out, true
		}
		out = append(out, tw)
	}
	return out, false
}

func (s *service) json(w http.ResponseWriter, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json;charset=utf-8")
	_, _ = w.Write(b)
}

func (s *service) renderAll(ts []*fakeTweet) []any {
	out := make([]any, 0, len(ts))
	for _, tw := range ts {
		out = append(out, s.render(tw, false))
	}
	return out
}

func (s *service) user(u *fakeUser) map[string]any {
	return map[string]any{"id": u.ID, "id_str": strconv.FormatInt(u.ID, 10), "name": u.Name, "screen_name": u.Screen,
		"location": "", "description": "", "url": nil, "protected": false, "verified": false,
		"followers_count": u.Followers, "friends_count": u.Friends, "listed_count": 0, "favourites_count": 0,
		"statuses_count": u.N, "created_at": "Mon Nov 29 21:18:15 +0000 2010", "profile_image_url_https": "https://pbs.twimg.example/p.jpg",
		"default_profile": true, "default_profile_image": false}
}

// escape is the API's escaping of tweet text.
var escape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// indices are the code-point offsets of sub in text.
func indices(text, sub string) []int {
	i := strings.Index(text, sub)
	if i < 0 {
		return []int{0, 0}
	}
	a := utf8.RuneCountInString(text[:i])
	return []int{a, a + utf8.RuneCountInString(sub)}
}

// quoteEmbedded says whether the API embeds the tweet tw quotes: not
// always (a third of them are left to a lookup, as when the quoted tweet
// is not available to the embedding), and never in a quoted tweet itself.
func quoteEmbedded(tw *fakeTweet) bool { return tw.Quote != nil && tw.Quote.ID%3 != 0 }

// embeds are the tweets the API embeds in tw's rendering.
func embeds(tw *fakeTweet) []*fakeTweet {
	var out []*fakeTweet
	if tw.Retweet != nil {
		out = append(out, tw.Retweet)
		tw = tw.Retweet
	}
	if quoteEmbedded(tw) {
		out = append(out, tw.Quote)
	}
	return out
}

func (s *service) render(tw *fakeTweet, inQuote bool) map[string]any {
	id := strconv.FormatInt(tw.ID, 10)
	text := escape.Replace(tw.Text)
	m := map[string]any{"created_at": tw.Created.Format(time.RubyDate), "id": tw.ID, "id_str": id,
		"full_text": text, "truncated": false, "display_text_range": []int{0, utf8.RuneCountInString(text)},
		"source": `<a href="https://example.org" rel="nofollow">client</a>`, "user": s.user(tw.User),
		"in_reply_to_status_id": nil, "in_reply_to_status_id_str": nil, "in_reply_to_user_id": nil,
		"in_reply_to_user_id_str": nil, "in_reply_to_screen_name": nil, "geo": nil, "coordinates": nil, "place": nil,
		"contributors": nil, "is_quote_status": false, "retweet_count": tw.ID % 5, "favorite_count": tw.ID % 13, "favorited": false,
		"retweeted": false, "lang": tw.Lang}
	tags, mentions, urls := []any{}, []any{}, []any{}
	for _, t := range tw.Tags {
		tags = append(tags, map[string]any{"text": t, "indices": indices(text, "#"+t)})
	}
	for _, u := range tw.Mentions {
		mentions = append(mentions, map[string]any{"screen_name": u.Screen, "name": u.Name, "id": u.ID,
			"id_str": strconv.FormatInt(u.ID, 10), "indices": indices(text, "@"+u.Screen)})
	}
	for _, l := range tw.Links {
		tco := "https://t.co/" + strconv.FormatInt(tw.ID%1e9, 36)
		urls = append(urls, map[string]any{"url": tco, "expanded_url": l, "display_url": strings.TrimPrefix(l, "https://"), "indices": indices(text, tco)})
	}
	m["entities"] = map[string]any{"hashtags": tags, "symbols": []any{}, "user_mentions": mentions, "urls": urls}
	if len(tw.Media) > 0 {
		var media []any
		for i, u := range tw.Media {
			media = append(media, map[string]any{"id": tw.ID + int64(i), "id_str": strconv.FormatInt(tw.ID+int64(i), 10),
				"media_url": strings.Replace(u, "https://", "http://", 1), "media_url_https": u, "url": "https://t.co/m",
				"display_url": "pic.twitter.com/m", "expanded_url": "https://twitter.com/x/status/" + id + "/photo/1", "type": "photo",
				"indices": []int{0, 0}, "sizes": map[string]any{"large": map[string]any{"w": 1024, "h": 768, "resize": "fit"}}})
		}
		m["extended_entities"] = map[string]any{"media": media}
	}
	if tw.ReplyTo != nil {
		m["in_reply_to_status_id"], m["in_reply_to_status_id_str"] = tw.ReplyTo.ID, strconv.FormatInt(tw.ReplyTo.ID, 10)
		m["in_reply_to_user_id"], m["in_reply_to_user_id_str"] = tw.ReplyTo.User.ID, strconv.FormatInt(tw.ReplyTo.User.ID, 10)
		m["in_reply_to_screen_name"] = tw.ReplyTo.User.Screen
	}
	if tw.Quote != nil {
		m["is_quote_status"] = true
		m["quoted_status_id"], m["quoted_status_id_str"] = tw.Quote.ID, strconv.FormatInt(tw.Quote.ID, 10)
		if quoteEmbedded(tw) && !inQuote {
			m["quoted_status"] = s.render(tw.Quote, true)
		}
	}
	if tw.Retweet != nil {
		m["retweeted_status"] = s.render(tw.Retweet, false)
	}
	if s.compat {
		delete(m, "full_text")
		m["text"] = text
		if r := []rune(text); len(r) > 140 || m["extended_entities"] != nil {
			m["extended_tweet"] = map[string]any{"full_text": text, "display_text_range": m["display_text_range"],
				"entities": m["entities"], "extended_entities": m["extended_entities"]}
			m["text"] = string(r[:min(len(r), 139)]) + "…"
			m["truncated"] = true
			m["entities"] = map[string]any{"hashtags": []any{}, "symbols": []any{}, "user_mentions": []any{}, "urls": []any{}}
			delete(m, "extended_entities")
		}
	}
	return m
}
