package mastodon

// A loopback Mastodon instance speaking the REST API as documented at
// docs.joinmastodon.org (entities Status, Account, Tag, Mention,
// PreviewCard, MediaAttachment, Context, Search; Link-header paging with
// max_id/since_id/min_id/limit; errors as {"error": "..."}), over a
// generated corpus, behind a fakeapi.Gate that enforces the rate limit.

import (
	"encoding/json"
	"fmt"
	"html"
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

	"github.com/mneme-archive/mneme/social/internal/fakeapi"
)

type fakeAccount struct {
	ID, Username, Acct, Display string
	Followers, Following, Count int64
}

type fakeStatus struct {
	ID, Text, Lang  string
	Created, Edited time.Time
	Account         *fakeAccount
	Tags            []string
	Mentions        []*fakeAccount
	Links           []string
	Media           []string
	ReplyTo         *fakeStatus
	Reblog          *fakeStatus
}

type cached struct {
	link string
	body []byte
}

type instanceServer struct {
	*httptest.Server
	gate  *fakeapi.Gate
	token string

	mu       sync.Mutex
	accounts []*fakeAccount
	statuses []*fakeStatus // oldest first
	byID     map[string]*fakeStatus
	fault    fakeapi.Fault
	nextID   int
	t0       time.Time
	rng      *rand.Rand
	cache    map[string]cached // rendered answers, for the replay benchmark
}

var words = strings.Fields(`the a wind grid storage policy vote city river heat energy panel roof
	battery price market O'Neil's "quoted" <3 & tomorrow report data storm coast farm
	été über naïve 東京 ünïcödé`)

// newInstance starts an instance with n generated statuses.
func newInstance(t testing.TB, n int, seed uint64, gate *fakeapi.Gate) *instanceServer {
	s := &instanceServer{gate: gate, byID: map[string]*fakeStatus{}, nextID: 100000,
		t0: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC), rng: rand.New(rand.NewPCG(seed, 7))}
	if s.gate == nil {
		s.gate = &fakeapi.Gate{}
	}
	s.Server = httptest.NewServer(s.gate.Wrap(http.HandlerFunc(s.serve)))
	t.Cleanup(s.Close)
	for i := range 12 {
		a := &fakeAccount{ID: strconv.Itoa(900 + i), Username: fmt.Sprintf("user%d", i),
			Display: fmt.Sprintf("User «%d»", i), Followers: int64(i * 10), Following: int64(i), Count: int64(100 + i)}
		a.Acct = a.Username
		if i%4 == 3 {
			a.Acct = a.Username + "@remote.example"
		}
		s.accounts = append(s.accounts, a)
	}
	s.add(n)
	return s
}

// add generates n more statuses, newer than all before.
func (s *instanceServer) add(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.rng
	for range n {
		st := &fakeStatus{ID: strconv.Itoa(s.nextID), Account: s.accounts[r.IntN(len(s.accounts))],
			Created: s.t0.Add(time.Duration(s.nextID-100000) * 37 * time.Second), Lang: "en"}
		s.nextID++
		if len(s.statuses) > 10 && r.IntN(10) == 0 {
			st.Reblog = s.statuses[r.IntN(len(s.statuses))]
			for st.Reblog.Reblog != nil {
				st.Reblog = s.statuses[r.IntN(len(s.statuses))]
			}
		} else {
			var parts []string
			for j := 0; j < 3+r.IntN(12); j++ {
				parts = append(parts, words[r.IntN(len(words))])
			}
			if r.IntN(4) == 0 {
				parts = slices.Insert(parts, r.IntN(len(parts)), "Solar")
			}
			if r.IntN(4) == 0 {
				parts = append(parts, "#climate")
				st.Tags = append(st.Tags, "climate")
			}
			if r.IntN(3) == 0 {
				parts = append(parts, "#wind")
				st.Tags = append(st.Tags, "wind")
			}
			if r.IntN(3) == 0 {
				m := s.accounts[r.IntN(len(s.accounts))]
				parts = slices.Insert(parts, 0, "@"+m.Username)
				st.Mentions = append(st.Mentions, m)
			}
			if r.IntN(3) == 0 {
				l := fmt.Sprintf("https://news.example/story/%d?ref=m&x=1", r.IntN(50))
				parts = append(parts, l)
				st.Links = append(st.Links, l)
			}
			if r.IntN(8) == 0 {
				st.Media = append(st.Media, fmt.Sprintf("%s/system/media/%s.png", "https://files.example", st.ID))
			}
			text := strings.Join(parts, " ")
			if r.IntN(5) == 0 {
				text += "\nsecond line"
			}
			if r.IntN(5) == 0 {
				text += "\n\nanother paragraph"
			}
			st.Text = text
			if r.IntN(6) == 0 {
				st.Edited = st.Created.Add(5 * time.Minute)
			}
			if r.IntN(7) == 0 {
				st.Lang = "de"
			}
			if len(s.statuses) > 0 && r.IntN(4) == 0 {
				p := s.statuses[len(s.statuses)-1-r.IntN(min(len(s.statuses), 20))]
				if p.Reblog == nil {
					st.ReplyTo = p
				}
			}
		}
		s.statuses = append(s.statuses, st)
		s.byID[st.ID] = st
	}
	s.cache = nil
}

func (s *instanceServer) setFault(f fakeapi.Fault) {
	s.mu.Lock()
	s.fault = f
	s.mu.Unlock()
}

// matching returns the statuses a query should find, by id.
func (s *instanceServer) matching(pred func(*fakeStatus) bool) map[string]*fakeStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]*fakeStatus{}
	for _, st := range s.statuses {
		if pred(st) {
			out[st.ID] = st
		}
	}
	return out
}

func hasTag(tag string) func(*fakeStatus) bool {
	return func(st *fakeStatus) bool { return st.Reblog == nil && slices.Contains(st.Tags, tag) }
}

func hasWord(w string) func(*fakeStatus) bool {
	return func(st *fakeStatus) bool {
		return st.Reblog == nil && strings.Contains(strings.ToLower(st.Text), strings.ToLower(w))
	}
}

func errorBody(_ int, msg string) []byte {
	b, _ := json.Marshal(map[string]string{"error": msg})
	return b
}

func (s *instanceServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if fakeapi.Serve(w, r, s.fault, errorBody) {
		return
	}
	if s.token != "" && r.Header.Get("Authorization") != "" && r.Header.Get("Authorization") != "Bearer "+s.token {
		s.fail(w, 401, "The access token is invalid")
		return
	}
	if s.cache != nil {
		if c, ok := s.cache[r.URL.String()]; ok {
			if c.link != "" {
				w.Header().Set("Link", c.link)
			}
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			_, _ = w.Write(c.body)
			return
		}
	}
	q := r.URL.Query()
	path := r.URL.Path
	switch {
	case strings.HasPrefix(path, "/api/v1/timelines/tag/"):
		tag := strings.ToLower(strings.TrimPrefix(path, "/api/v1/timelines/tag/"))
		s.timeline(w, r, hasTag(tag))
	case path == "/api/v1/timelines/public":
		s.timeline(w, r, func(st *fakeStatus) bool { return st.Reblog == nil })
	case path == "/api/v2/search":
		if r.Header.Get("Authorization") == "" {
			s.fail(w, 401, "The access token is invalid")
			return
		}
		if q.Get("type") != "statuses" {
			s.fail(w, 422, "type must be statuses in this server")
			return
		}
		sts := s.page(hasWord(q.Get("q")), q)
		s.json(w, r, map[string]any{"accounts": []any{}, "hashtags": []any{}, "statuses": s.renderAll(sts)})
	case path == "/api/v1/accounts/lookup":
		for _, a := range s.accounts {
			if a.Acct == q.Get("acct") {
				s.json(w, r, s.account(a))
				return
			}
		}
		s.fail(w, 404, "Record not found")
	case strings.HasPrefix(path, "/api/v1/accounts/") && strings.HasSuffix(path, "/statuses"):
		id := strings.TrimSuffix(strings.TrimPrefix(path, "/api/v1/accounts/"), "/statuses")
		s.timeline(w, r, func(st *fakeStatus) bool { return st.Account.ID == id })
	case strings.HasPrefix(path, "/api/v1/statuses/") && strings.HasSuffix(path, "/context"):
		st := s.byID[strings.TrimSuffix(strings.TrimPrefix(path, "/api/v1/statuses/"), "/context")]
		if st == nil {
			s.fail(w, 404, "Record not found")
			return
		}
		var anc []*fakeStatus
		for p := st.ReplyTo; p != nil; p = p.ReplyTo {
			anc = append([]*fakeStatus{p}, anc...)
		}
		s.json(w, r, map[string]any{"ancestors": s.renderAll(anc), "descendants": s.renderAll(s.descendants(st))})
	case strings.HasPrefix(path, "/api/v1/statuses/"):
		st := s.byID[strings.TrimPrefix(path, "/api/v1/statuses/")]
		if st == nil {
			s.fail(w, 404, "Record not found")
			return
		}
		s.json(w, r, s.render(st))
	default:
		s.fail(w, 404, "Not Found")
	}
}

func (s *instanceServer) descendants(st *fakeStatus) []*fakeStatus {
	var out []*fakeStatus
	for _, c := range s.statuses {
		if c.ReplyTo == st {
			out = append(out, c)
			out = append(out, s.descendants(c)...)
		}
	}
	return out
}

func (s *instanceServer) fail(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(errorBody(status, msg))
}

func (s *instanceServer) json(w http.ResponseWriter, r *http.Request, v any) {
	b, _ := json.Marshal(v)
	if s.cache != nil {
		s.cache[r.URL.String()] = cached{w.Header().Get("Link"), b}
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(b)
}

// page selects, newest first, the statuses of pred within the paging
// parameters: max_id and since_id bound from above and below; min_id gives
// the statuses just after it.
func (s *instanceServer) page(pred func(*fakeStatus) bool, q url.Values) []*fakeStatus {
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 {
		limit = 20
	}
	limit = min(limit, 40)
	maxID, sinceID, minID := q.Get("max_id"), q.Get("since_id"), q.Get("min_id")
	var all []*fakeStatus
	for _, st := range s.statuses {
		if !pred(st) || (maxID != "" && cmpID(st.ID, maxID) >= 0) ||
			(sinceID != "" && cmpID(st.ID, sinceID) <= 0) || (minID != "" && cmpID(st.ID, minID) <= 0) {
			continue
		}
		all = append(all, st)
	}
	if minID != "" {
		all = all[:min(limit, len(all))]
		slices.Reverse(all)
		return all
	}
	slices.Reverse(all)
	return all[:min(limit, len(all))]
}

func cmpID(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

func (s *instanceServer) timeline(w http.ResponseWriter, r *http.Request, pred func(*fakeStatus) bool) {
	q := r.URL.Query()
	sts := s.page(pred, q)
	if len(sts) > 0 {
		next, prev := url.Values{}, url.Values{}
		for _, k := range []string{"limit", "local"} {
			if v := q.Get(k); v != "" {
				next.Set(k, v)
				prev.Set(k, v)
			}
		}
		next.Set("max_id", sts[len(sts)-1].ID)
		prev.Set("min_id", sts[0].ID)
		base := s.URL + r.URL.Path
		w.Header().Set("Link", fmt.Sprintf(`<%s?%s>; rel="next", <%s?%s>; rel="prev"`, base, next.Encode(), base, prev.Encode()))
	}
	s.json(w, r, s.renderAll(sts))
}

func (s *instanceServer) renderAll(sts []*fakeStatus) []any {
	out := make([]any, 0, len(sts))
	for _, st := range sts {
		out = append(out, s.render(st))
	}
	return out
}

func (s *instanceServer) accountURL(a *fakeAccount) string {
	if strings.Contains(a.Acct, "@") {
		return "https://remote.example/@" + a.Username
	}
	return s.URL + "/@" + a.Username
}

func (s *instanceServer) statusURI(st *fakeStatus) string {
	if st.Reblog != nil {
		return s.URL + "/users/" + st.Account.Username + "/statuses/" + st.ID + "/activity"
	}
	if strings.Contains(st.Account.Acct, "@") {
		return "https://remote.example/users/" + st.Account.Username + "/statuses/r" + st.ID
	}
	return s.URL + "/users/" + st.Account.Username + "/statuses/" + st.ID
}

func (s *instanceServer) account(a *fakeAccount) map[string]any {
	return map[string]any{
		"id": a.ID, "username": a.Username, "acct": a.Acct, "display_name": a.Display,
		"locked": false, "bot": false, "discoverable": true, "group": false,
		"created_at": "2022-11-05T00:00:00.000Z", "note": "<p>about me</p>",
		"url": s.accountURL(a), "uri": strings.Replace(s.accountURL(a), "/@", "/users/", 1),
		"avatar": s.URL + "/avatars/original/missing.png", "avatar_static": s.URL + "/avatars/original/missing.png",
		"header": s.URL + "/headers/original/missing.png", "header_static": s.URL + "/headers/original/missing.png",
		"followers_count": a.Followers, "following_count": a.Following, "statuses_count": a.Count,
		"last_status_at": "2026-03-01", "emojis": []any{}, "fields": []any{},
	}
}

const msTime = "2006-01-02T15:04:05.000Z"

func (s *instanceServer) render(st *fakeStatus) map[string]any {
	m := map[string]any{
		"id": st.ID, "created_at": st.Created.Format(msTime), "in_reply_to_id": nil,
		"in_reply_to_account_id": nil, "sensitive": false, "spoiler_text": "", "visibility": "public",
		"language": st.Lang, "uri": s.statusURI(st), "url": nil, "replies_count": 0,
		"reblogs_count": 0, "favourites_count": 0, "edited_at": nil, "favourited": false,
		"reblogged": false, "muted": false, "bookmarked": false, "content": "", "filtered": []any{},
		"reblog": nil, "application": nil, "account": s.account(st.Account), "media_attachments": []any{},
		"mentions": []any{}, "tags": []any{}, "emojis": []any{}, "card": nil, "poll": nil,
	}
	if st.Reblog != nil {
		m["reblog"] = s.render(st.Reblog)
		return m
	}
	m["url"] = s.accountURL(st.Account) + "/" + st.ID
	m["content"] = s.contentHTML(st)
	if !st.Edited.IsZero() {
		m["edited_at"] = st.Edited.Format(msTime)
	}
	if st.ReplyTo != nil {
		m["in_reply_to_id"] = st.ReplyTo.ID
		m["in_reply_to_account_id"] = st.ReplyTo.Account.ID
	}
	m["replies_count"] = s.replyCount(st)
	m["favourites_count"] = favourites(st)
	var tags, mentions, media []any
	for _, t := range st.Tags {
		tags = append(tags, map[string]any{"name": t, "url": s.URL + "/tags/" + t})
	}
	for _, a := range st.Mentions {
		mentions = append(mentions, map[string]any{"id": a.ID, "username": a.Username, "url": s.accountURL(a), "acct": a.Acct})
	}
	for i, u := range st.Media {
		media = append(media, map[string]any{"id": st.ID + strconv.Itoa(i), "type": "image", "url": u,
			"preview_url": u + "?small", "remote_url": nil, "description": "a picture", "blurhash": "UeKUpFxuo~R%0nW;WCnhF6RjaJt757oJodS$",
			"meta": map[string]any{"original": map[string]any{"width": 640, "height": 480, "size": "640x480", "aspect": 1.33}}})
	}
	m["tags"], m["mentions"] = orEmpty(tags), orEmpty(mentions)
	m["media_attachments"] = orEmpty(media)
	if len(st.Links) > 0 {
		m["card"] = map[string]any{"url": st.Links[0], "title": "A story", "description": "", "type": "link",
			"author_name": "", "author_url": "", "provider_name": "news", "provider_url": "", "html": "",
			"width": 400, "height": 200, "image": nil, "embed_url": "", "blurhash": nil}
	}
	return m
}

func orEmpty(v []any) []any {
	if v == nil {
		return []any{}
	}
	return v
}

// contentHTML renders a status's text as Mastodon does: paragraphs in
// <p>, line breaks as <br>, hashtags, mentions and links as anchors (a
// long link's visible text shortened with invisible spans).
func (s *instanceServer) contentHTML(st *fakeStatus) string {
	var b strings.Builder
	for _, para := range strings.Split(st.Text, "\n\n") {
		b.WriteString("<p>")
		for i, line := range strings.Split(para, "\n") {
			if i > 0 {
				b.WriteString("<br />")
			}
			for j, w := range strings.Split(line, " ") {
				if j > 0 {
					b.WriteByte(' ')
				}
				switch {
				case strings.HasPrefix(w, "#") && len(w) > 1:
					t := w[1:]
					fmt.Fprintf(&b, `<a href="%s/tags/%s" class="mention hashtag" rel="tag">#<span>%s</span></a>`, s.URL, t, t)
				case strings.HasPrefix(w, "@") && len(w) > 1:
					var a *fakeAccount
					for _, m := range st.Mentions {
						if m.Username == w[1:] {
							a = m
						}
					}
					fmt.Fprintf(&b, `<span class="h-card" translate="no"><a href="%s" class="u-url mention">@<span>%s</span></a></span>`, s.accountURL(a), a.Username)
				case strings.HasPrefix(w, "https://"):
					rest := strings.TrimPrefix(w, "https://")
					cut := min(len(rest), 20)
					fmt.Fprintf(&b, `<a href="%s" target="_blank" rel="nofollow noopener noreferrer" translate="no"><span class="invisible">https://</span><span class="ellipsis">%s</span><span class="invisible">%s</span></a>`,
						html.EscapeString(w), html.EscapeString(rest[:cut]), html.EscapeString(rest[cut:]))
				default:
					b.WriteString(html.EscapeString(w))
				}
			}
		}
		b.WriteString("</p>")
	}
	return b.String()
}

func (s *instanceServer) replyCount(st *fakeStatus) int64 {
	var n int64
	for _, c := range s.statuses {
		if c.ReplyTo == st {
			n++
		}
	}
	return n
}

// favourites is how many favourites a status has.
func favourites(st *fakeStatus) int64 { return int64(len(st.Text) % 7) }
