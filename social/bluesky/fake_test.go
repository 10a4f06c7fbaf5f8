package bluesky

// A loopback Jetstream host and AppView, speaking the wire protocols as
// documented (Jetstream's README: /subscribe with wantedCollections,
// wantedDids and cursor in µs, commit/identity/account events as JSON text
// frames; the atproto lexicons app.bsky.feed.post, app.bsky.richtext.facet,
// app.bsky.embed.*, and the XRPC methods app.bsky.feed.getPosts and
// com.atproto.identity.resolveHandle, errors as {"error","message"},
// RateLimit-* headers), over a generated corpus.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/mneme-archive/mneme/social/internal/fakeapi"
)

type fakeActor struct{ DID, Handle, Name string }

type fakePost struct {
	Actor    *fakeActor
	RKey     string
	TimeUS   int64
	Created  time.Time
	Text     string
	Lang     string
	Tags     []string
	Mentions []*fakeActor
	Links    []string
	Images   []string // blob CIDs
	ReplyTo  *fakePost
	Root     *fakePost
	Quote    *fakePost
	raw      []byte // the Jetstream event
}

func (p *fakePost) uri() string { return "at://" + p.Actor.DID + "/app.bsky.feed.post/" + p.RKey }

type network struct {
	jet, app *httptest.Server
	gate     *fakeapi.Gate

	mu        sync.Mutex
	actors    []*fakeActor
	posts     []*fakePost
	events    [][]byte // every event, posts and others, by time
	times     []int64
	dids      []string // the author of each event
	nowUS     int64
	rng       *rand.Rand
	dropAfter int // close each connection after this many frames; 0: never
	garbage   bool
	fault     fakeapi.Fault
	conns     int
}

func newNetwork(t testing.TB, n int, seed uint64, gate *fakeapi.Gate) *network {
	s := &network{gate: gate, rng: rand.New(rand.NewPCG(seed, 3)), nowUS: time.Now().Add(-2 * time.Hour).UnixMicro()}
	if s.gate == nil {
		s.gate = &fakeapi.Gate{}
	}
	s.jet = httptest.NewServer(http.HandlerFunc(s.subscribe))
	s.app = httptest.NewServer(s.gate.Wrap(http.HandlerFunc(s.xrpc)))
	t.Cleanup(s.jet.Close)
	t.Cleanup(s.app.Close)
	for i := range 10 {
		s.actors = append(s.actors, &fakeActor{DID: fmt.Sprintf("did:plc:fake%020d", i), Handle: fmt.Sprintf("user%d.bsky.example", i), Name: fmt.Sprintf("Poster %d 🦋", i)})
	}
	s.add(n)
	return s
}

func (s *network) base() string {
	return "ws" + strings.TrimPrefix(s.jet.URL, "http") + "/subscribe " + s.app.URL
}

var words = strings.Fields(`the wind grid storage policy vote city river heat energy panel roof
	battery price market tomorrow report data storm coast <b>bold</b> Q&A "quote" été 東京 🌍`)

const tidChars = "234567abcdefghijklmnopqrstuvwxyz"

func (s *network) tid() string {
	b := make([]byte, 13)
	for i := range b {
		b[i] = tidChars[s.rng.IntN(len(tidChars))]
	}
	return string(b)
}

// add generates n more posts, with likes and identity events between them.
func (s *network) add(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.rng
	for range n {
		s.nowUS += int64(1000 + r.IntN(40000))
		if r.IntN(3) == 0 {
			a := s.actors[r.IntN(len(s.actors))]
			var ev map[string]any
			if r.IntN(2) == 0 {
				ev = map[string]any{"did": a.DID, "time_us": s.nowUS, "kind": "identity",
					"identity": map[string]any{"did": a.DID, "handle": a.Handle, "seq": s.nowUS, "time": time.UnixMicro(s.nowUS).UTC().Format(time.RFC3339Nano)}}
			} else {
				ev = map[string]any{"did": a.DID, "time_us": s.nowUS, "kind": "commit", "commit": map[string]any{
					"rev": s.tid(), "operation": "create", "collection": "app.bsky.feed.like", "rkey": s.tid(),
					"record": map[string]any{"$type": "app.bsky.feed.like", "createdAt": time.UnixMicro(s.nowUS).UTC().Format(time.RFC3339),
						"subject": map[string]any{"uri": "at://did:plc:x/app.bsky.feed.post/y", "cid": "bafyrei"}},
					"cid": "bafyreilike"}}
			}
			b, _ := json.Marshal(ev)
			s.events, s.times, s.dids = append(s.events, b), append(s.times, s.nowUS), append(s.dids, a.DID)
			s.nowUS += int64(1000 + r.IntN(40000))
		}
		p := &fakePost{Actor: s.actors[r.IntN(len(s.actors))], RKey: s.tid(), TimeUS: s.nowUS, Lang: "en"}
		p.Created = time.UnixMicro(s.nowUS - 800000).UTC().Truncate(time.Millisecond)
		var parts []string
		for j := 0; j < 3+r.IntN(10); j++ {
			parts = append(parts, words[r.IntN(len(words))])
		}
		if r.IntN(4) == 0 {
			parts = slices.Insert(parts, r.IntN(len(parts)), "Solar")
		}
		if r.IntN(4) == 0 {
			parts = append(parts, "#climate")
			p.Tags = append(p.Tags, "climate")
		}
		if r.IntN(3) == 0 {
			m := s.actors[r.IntN(len(s.actors))]
			parts = slices.Insert(parts, 0, "@"+m.Handle)
			p.Mentions = append(p.Mentions, m)
		}
		if r.IntN(3) == 0 {
			l := fmt.Sprintf("https://news.example/story/%d?a=1", r.IntN(40))
			parts = append(parts, l)
			p.Links = append(p.Links, l)
		}
		if r.IntN(8) == 0 {
			p.Images = append(p.Images, "bafkrei"+strings.ToLower(s.tid()))
		}
		if r.IntN(6) == 0 {
			p.Lang = "ja"
		}
		p.Text = strings.Join(parts, " ")
		if len(s.posts) > 0 && r.IntN(4) == 0 {
			p.ReplyTo = s.posts[len(s.posts)-1-r.IntN(min(len(s.posts), 20))]
			p.Root = p.ReplyTo
			for p.Root.ReplyTo != nil {
				p.Root = p.Root.ReplyTo
			}
		}
		if len(s.posts) > 0 && r.IntN(10) == 0 {
			p.Quote = s.posts[r.IntN(len(s.posts))]
		}
		ev := map[string]any{"did": p.Actor.DID, "time_us": p.TimeUS, "kind": "commit", "commit": map[string]any{
			"rev": s.tid(), "operation": "create", "collection": "app.bsky.feed.post", "rkey": p.RKey,
			"record": s.record(p), "cid": "bafyrei" + strings.ToLower(s.tid())}}
		p.raw, _ = json.Marshal(ev)
		s.posts = append(s.posts, p)
		s.events, s.times, s.dids = append(s.events, p.raw), append(s.times, p.TimeUS), append(s.dids, p.Actor.DID)
	}
}

// record renders a post as an app.bsky.feed.post record, facets indexed
// by UTF-8 byte offsets.
func (s *network) record(p *fakePost) map[string]any {
	var facets []any
	facet := func(sub string, feature map[string]any) {
		i := strings.Index(p.Text, sub)
		facets = append(facets, map[string]any{"index": map[string]any{"byteStart": i, "byteEnd": i + len(sub)},
			"features": []any{feature}})
	}
	for _, m := range p.Mentions {
		facet("@"+m.Handle, map[string]any{"$type": "app.bsky.richtext.facet#mention", "did": m.DID})
	}
	for _, l := range p.Links {
		facet(l, map[string]any{"$type": "app.bsky.richtext.facet#link", "uri": l})
	}
	for _, t := range p.Tags {
		facet("#"+t, map[string]any{"$type": "app.bsky.richtext.facet#tag", "tag": t})
	}
	rec := map[string]any{"$type": "app.bsky.feed.post", "text": p.Text, "createdAt": p.Created.Format("2006-01-02T15:04:05.000Z"),
		"langs": []string{p.Lang}}
	if facets != nil {
		rec["facets"] = facets
	}
	if p.ReplyTo != nil {
		rec["reply"] = map[string]any{"root": map[string]any{"uri": p.Root.uri(), "cid": "bafyreiroot"},
			"parent": map[string]any{"uri": p.ReplyTo.uri(), "cid": "bafyreiparent"}}
	}
	var images []any
	for _, c := range p.Images {
		images = append(images, map[string]any{"alt": "", "image": map[string]any{"$type": "blob", "ref": map[string]any{"$link": c},
			"mimeType": "image/jpeg", "size": 12345}})
	}
	quote := func() map[string]any {
		return map[string]any{"$type": "app.bsky.embed.record", "record": map[string]any{"uri": p.Quote.uri(), "cid": "bafyreiquote"}}
	}
	switch {
	case p.Quote != nil && images != nil:
		rec["embed"] = map[string]any{"$type": "app.bsky.embed.recordWithMedia", "record": quote(),
			"media": map[string]any{"$type": "app.bsky.embed.images", "images": images}}
	case p.Quote != nil:
		rec["embed"] = quote()
	case images != nil:
		rec["embed"] = map[string]any{"$type": "app.bsky.embed.images", "images": images}
	}
	return rec
}

func (s *network) matching(pred func(*fakePost) bool) map[string]*fakePost {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]*fakePost{}
	for _, p := range s.posts {
		if pred(p) {
			out[p.uri()] = p
		}
	}
	return out
}

var upgrader = websocket.Upgrader{}

// subscribe is Jetstream's /subscribe: the events since the cursor
// (inclusive) that pass the filters, then nothing until the client goes.
func (s *network) subscribe(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/subscribe" {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	cur, _ := strconv.ParseInt(q.Get("cursor"), 10, 64)
	wantDIDs := q["wantedDids"]
	wantCols := q["wantedCollections"]
	c, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer c.Close()
	s.mu.Lock()
	s.conns++
	var out [][]byte
	for i, ev := range s.events {
		if s.times[i] < cur || (len(wantDIDs) > 0 && !slices.Contains(wantDIDs, s.dids[i])) {
			continue
		}
		// Identity and account events go to every subscriber.
		if len(wantCols) > 0 && strings.Contains(string(ev), `"kind":"commit"`) && !strings.Contains(string(ev), `"collection":"`+wantCols[0]+`"`) {
			continue
		}
		out = append(out, ev)
		if s.garbage && i%17 == 0 {
			out = append(out, []byte(`{"did":"did:plc:broken","time_us":`))
		}
	}
	drop := s.dropAfter
	s.mu.Unlock()
	for i, ev := range out {
		if drop > 0 && i == drop {
			return // the connection drops
		}
		if err := c.WriteMessage(websocket.TextMessage, ev); err != nil {
			return
		}
	}
	for {
		if _, _, err := c.ReadMessage(); err != nil {
			return
		}
	}
}

func xrpcError(status int, msg string) []byte {
	name := map[int]string{400: "InvalidRequest", 401: "AuthenticationRequired", 403: "Forbidden", 404: "NotFound"}[status]
	b, _ := json.Marshal(map[string]string{"error": name, "message": msg})
	return b
}

func (s *network) xrpc(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if fakeapi.Serve(w, r, s.fault, xrpcError) {
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	q := r.URL.Query()
	switch r.URL.Path {
	case "/xrpc/app.bsky.feed.getPosts":
		if len(q["uris"]) == 0 || len(q["uris"]) > 25 {
			w.WriteHeader(400)
			_, _ = w.Write(xrpcError(400, "uris must have 1 to 25 elements"))
			return
		}
		var views []any
		for _, u := range q["uris"] {
			if p := s.post(u); p != nil {
				views = append(views, s.view(p))
			}
		}
		if views == nil {
			views = []any{}
		}
		b, _ := json.Marshal(map[string]any{"posts": views})
		_, _ = w.Write(b)
	case "/xrpc/app.bsky.feed.getPostThread":
		p := s.post(q.Get("uri"))
		if p == nil {
			w.WriteHeader(400)
			_, _ = w.Write([]byte(`{"error":"NotFound","message":"Post not found: ` + q.Get("uri") + `"}`))
			return
		}
		depth, _ := strconv.Atoi(q.Get("depth"))
		height, _ := strconv.Atoi(q.Get("parentHeight"))
		b, _ := json.Marshal(map[string]any{"thread": s.thread(p, depth, height, true)})
		_, _ = w.Write(b)
	case "/xrpc/com.atproto.identity.resolveHandle":
		for _, a := range s.actors {
			if a.Handle == q.Get("handle") {
				b, _ := json.Marshal(map[string]string{"did": a.DID})
				_, _ = w.Write(b)
				return
			}
		}
		w.WriteHeader(400)
		_, _ = w.Write(xrpcError(400, "Unable to resolve handle"))
	default:
		w.WriteHeader(501)
		_, _ = w.Write([]byte(`{"error":"MethodNotImplemented","message":"Method Not Implemented"}`))
	}
}

func (s *network) post(uri string) *fakePost {
	for _, p := range s.posts {
		if p.uri() == uri {
			return p
		}
	}
	return nil
}

// view is p as an app.bsky.feed.defs#postView.
func (s *network) view(p *fakePost) map[string]any {
	return map[string]any{"uri": p.uri(), "cid": "bafyreiview",
		"author": map[string]any{"did": p.Actor.DID, "handle": p.Actor.Handle, "displayName": p.Actor.Name,
			"avatar": "https://cdn.bsky.app/img/avatar/plain/" + p.Actor.DID + "/x@jpeg", "labels": []any{},
			"createdAt": "2024-01-01T00:00:00.000Z"},
		"record": s.record(p), "replyCount": len(s.replies(p)), "repostCount": 0, "likeCount": 1, "quoteCount": 0,
		"indexedAt": time.UnixMicro(p.TimeUS).UTC().Format(time.RFC3339Nano), "labels": []any{}}
}

func (s *network) replies(p *fakePost) []*fakePost {
	var out []*fakePost
	for _, c := range s.posts {
		if c.ReplyTo == p {
			out = append(out, c)
		}
	}
	return out
}

// thread is p as an app.bsky.feed.defs#threadViewPost: its parents up to
// height, its replies down to depth.
func (s *network) thread(p *fakePost, depth, height int, withParent bool) map[string]any {
	t := map[string]any{"$type": "app.bsky.feed.defs#threadViewPost", "post": s.view(p)}
	if withParent && p.ReplyTo != nil && height > 0 {
		parent := s.thread(p.ReplyTo, 0, height-1, true)
		delete(parent, "replies")
		t["parent"] = parent
	}
	if depth > 0 {
		var rs []any
		for _, c := range s.replies(p) {
			rs = append(rs, s.thread(c, depth-1, 0, false))
		}
		t["replies"] = rs
	}
	return t
}
