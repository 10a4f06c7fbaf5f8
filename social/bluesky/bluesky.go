// Package bluesky is the Bluesky platform of social campaigns: new posts
// from a Jetstream host (JSON over WebSocket, wantedCollections
// app.bsky.feed.post, a cursor in microseconds) filtered by keyword,
// hashtag or author (DID, sent as wantedDids), and posts looked up by
// AT-URI through the AppView's XRPC: app.bsky.feed.getPosts for the posts
// a page quotes, app.bsky.feed.getPostThread for the threads it answers.
//
// A Fetch connects from the saved cursor (so a dropped connection or a
// killed campaign resumes where it stopped), reads events until it has a
// page of matching posts, and saves the time of the last event read. A
// pass ends when the stream reaches the time the pass began (or the
// query's Until), or goes quiet. Without a saved cursor, a pass starts at
// the query's Since, or Lookback before now. Every matching event is
// written to WARC as it came (Env.Record), since a WebSocket message is no
// HTTP exchange the recording transport could see; the XRPC requests go
// through Env.HTTP and are recorded as such.
//
// Env.Base may name the Jetstream subscribe URL (ws:// or wss://) and the
// AppView (http:// or https://), separated by a space, either or both.
package bluesky

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"github.com/mneme-archive/mneme/social/internal/apierr"
	"github.com/mneme-archive/mneme/social/platform"
)

// Name is the platform's name in campaigns.
const Name = "bluesky"

// The public hosts used when Env.Base names none.
const (
	DefaultJetstream = "wss://jetstream2.us-east.bsky.network/subscribe"
	DefaultAppView   = "https://public.api.bsky.app"
)

const postCollection = "app.bsky.feed.post"

// Platform is the Bluesky client. The zero value is ready to use.
type Platform struct {
	PageSize  int           // matching posts per page (default 100)
	MaxEvents int           // events read per Fetch at most (default 20,000)
	Idle      time.Duration // no event for this long ends a pass (default 10 s)
	Lookback  time.Duration // where a pass without cursor or Since starts (default 1 h)
	// Dialer connects to Jetstream; nil is websocket.DefaultDialer.
	Dialer *websocket.Dialer
}

// Name returns "bluesky".
func (*Platform) Name() string { return Name }

type cursor struct {
	TimeUS  int64  `json:"us"`            // last event read
	PassEnd int64  `json:"end,omitempty"` // µs the pass reads up to
	DID     string `json:"did,omitempty"` // ByAccount, once resolved
}

func (p *Platform) pageSize() int {
	if p.PageSize > 0 {
		return p.PageSize
	}
	return 100
}

// Fetch returns the next page of q.
func (p *Platform) Fetch(ctx context.Context, env platform.Env, q platform.Query, cur []byte) (platform.Page, error) {
	var c cursor
	if len(cur) > 0 {
		if err := json.Unmarshal(cur, &c); err != nil {
			return platform.Page{}, fmt.Errorf("%s: bad cursor: %w", Name, err)
		}
	}
	jet, app := hosts(env.Base)
	x := &xrpc{env: env, base: app}
	var page platform.Page
	var err error
	switch q.Kind {
	case platform.ByKeyword, platform.ByHashtag, platform.ByAccount:
		page, err = p.stream(ctx, env, x, jet, q, &c)
	case platform.ByPost:
		page, err = x.getPosts(ctx, q.Text)
		page.Done = true
	case platform.ByThread:
		page, err = x.getPostThread(ctx, q.Text)
		page.Done = true
	default:
		return platform.Page{}, fmt.Errorf("%s: %q: %w", Name, q.Kind, platform.ErrUnsupported)
	}
	return env.Finish(Name, q, page, c, err, "cursor", c.TimeUS)
}

func hosts(base string) (jetstream, appview string) {
	jetstream, appview = DefaultJetstream, DefaultAppView
	for _, b := range strings.FieldsFunc(base, func(r rune) bool { return r == ' ' || r == ',' }) {
		switch {
		case strings.HasPrefix(b, "ws://") || strings.HasPrefix(b, "wss://"):
			jetstream = b
		case strings.HasPrefix(b, "http://") || strings.HasPrefix(b, "https://"):
			appview = strings.TrimRight(b, "/")
		}
	}
	return jetstream, appview
}

// event is a Jetstream event; commit.record is kept raw for the mapping.
type event struct {
	DID      string `json:"did"`
	TimeUS   int64  `json:"time_us"`
	Kind     string `json:"kind"`
	Identity *struct {
		Handle string `json:"handle"`
	} `json:"identity"`
	Commit *struct {
		Operation  string          `json:"operation"`
		Collection string          `json:"collection"`
		RKey       string          `json:"rkey"`
		Record     json.RawMessage `json:"record"`
		CID        string          `json:"cid"`
	} `json:"commit"`
}

// stream reads the next page of a stream query from the cursor.
func (p *Platform) stream(ctx context.Context, env platform.Env, x *xrpc, jet string, q platform.Query, c *cursor) (platform.Page, error) {
	now := time.Now()
	if c.PassEnd == 0 {
		c.PassEnd = now.UnixMicro()
		if !q.Until.IsZero() && q.Until.Before(now) {
			c.PassEnd = q.Until.UnixMicro()
		}
		if c.TimeUS == 0 {
			start := q.Since
			if start.IsZero() {
				lb := p.Lookback
				if lb <= 0 {
					lb = time.Hour
				}
				start = now.Add(-lb)
			}
			c.TimeUS = start.UnixMicro() - 1
		}
	}
	term := strings.TrimSpace(q.Text)
	if q.Kind == platform.ByAccount && c.DID == "" {
		did, err := x.resolve(ctx, strings.TrimPrefix(term, "@"))
		if err != nil {
			return platform.Page{}, err
		}
		c.DID = did
	}
	match := matcher(q.Kind, term, c.DID)
	u, err := url.Parse(jet)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") {
		return platform.Page{}, fmt.Errorf("%s: Jetstream URL %q is not a ws(s) URL", Name, jet)
	}
	m := newMapper(time.Now().UTC())
	maxEvents := p.MaxEvents
	if maxEvents <= 0 {
		maxEvents = 20000
	}
	idle := p.Idle
	if idle <= 0 {
		idle = 10 * time.Second
	}
	dialer := p.Dialer
	if dialer == nil {
		dialer = websocket.DefaultDialer
	}
	read, failures := 0, 0
	done := false
	for !done && len(m.posts) < p.pageSize() && read < maxEvents {
		v := u.Query()
		v.Set("wantedCollections", postCollection)
		if c.DID != "" {
			v.Set("wantedDids", c.DID)
		}
		v.Set("cursor", strconv.FormatInt(c.TimeUS, 10))
		u.RawQuery = v.Encode()
		conn, resp, err := dialer.DialContext(ctx, u.String(), nil)
		if err != nil {
			failures++
			if ctx.Err() != nil || failures >= 3 {
				e := &apierr.Error{Platform: Name, Method: "GET", URL: apierr.RedactURL(u), Err: err}
				if resp != nil {
					e.Status = resp.StatusCode
				}
				return platform.Page{}, e
			}
			if err := sleep(ctx, time.Duration(failures)*500*time.Millisecond); err != nil {
				return platform.Page{}, err
			}
			continue
		}
		stop := context.AfterFunc(ctx, func() { conn.Close() })
		for !done && len(m.posts) < p.pageSize() && read < maxEvents {
			_ = conn.SetReadDeadline(time.Now().Add(idle))
			_, msg, err := conn.ReadMessage()
			if err != nil {
				var ne interface{ Timeout() bool }
				if errors.As(err, &ne) && ne.Timeout() {
					done = true // quiet: caught up
				} else if ctx.Err() == nil {
					// Dropped: connect again from the cursor.
					failures++
					if failures >= 3 {
						stop()
						conn.Close()
						if read == 0 {
							return platform.Page{}, &apierr.Error{Platform: Name, Method: "GET", URL: apierr.RedactURL(u), Err: err}
						}
						// What was read is kept; the next Fetch
						// connects again from its cursor.
						return platform.Page{Posts: m.posts, Accounts: m.accounts.List(), More: m.more(q)}, nil
					}
					if env.Log != nil {
						env.Log.Info("Jetstream connection lost; reconnecting", "platform", Name, "url", apierr.RedactURL(u), "err", err)
					}
				}
				break
			}
			read++
			var ev event
			if err := json.Unmarshal(msg, &ev); err != nil {
				if env.Log != nil {
					env.Log.Warn("Jetstream message is not JSON; skipped", "platform", Name, "url", apierr.RedactURL(u),
						"after_cursor", c.TimeUS, "err", err)
				}
				continue
			}
			if ev.TimeUS <= c.TimeUS {
				continue // replayed from an inclusive cursor
			}
			if ev.TimeUS > c.PassEnd {
				done = true
				break
			}
			c.TimeUS = ev.TimeUS
			if ev.Kind == "identity" && ev.Identity != nil && ev.Identity.Handle != "" {
				m.handles[ev.DID] = ev.Identity.Handle
			}
			if ev.Kind != "commit" || ev.Commit == nil || ev.Commit.Collection != postCollection {
				continue
			}
			uri := "at://" + ev.DID + "/" + postCollection + "/" + ev.Commit.RKey
			if ev.Commit.Operation == "delete" {
				if q.Kind == platform.ByAccount {
					m.deleted(ev.DID, ev.Commit.RKey)
				}
				continue
			}
			var rec record
			if err := json.Unmarshal(ev.Commit.Record, &rec); err != nil {
				if env.Log != nil {
					env.Log.Warn("post record not understood; skipped", "platform", Name, "uri", uri, "err", err)
				}
				continue
			}
			if !match(ev.DID, &rec) {
				continue
			}
			source := jet
			if env.Record != nil {
				id, err := env.Record(uri, "application/json", msg)
				if err != nil {
					stop()
					conn.Close()
					return platform.Page{}, fmt.Errorf("%s: recording %s: %w", Name, uri, err)
				}
				source = id
			}
			m.add(ev.DID, ev.Commit.RKey, &rec, source, ev.Commit.Operation == "update", ev.TimeUS)
		}
		stop()
		conn.Close()
		if ctx.Err() != nil {
			return platform.Page{}, ctx.Err()
		}
	}
	if done {
		c.PassEnd = 0
	}
	return platform.Page{Posts: m.posts, Accounts: m.accounts.List(), More: m.more(q), Done: done}, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// matcher returns the filter of a query: every word of a keyword query in
// the text (case-insensitively), a hashtag among the post's tags, or the
// author.
func matcher(kind platform.QueryKind, term, did string) func(string, *record) bool {
	switch kind {
	case platform.ByHashtag:
		tag := strings.ToLower(strings.TrimPrefix(term, "#"))
		return func(_ string, r *record) bool {
			for _, t := range r.hashtags() {
				if strings.ToLower(t) == tag {
					return true
				}
			}
			return false
		}
	case platform.ByAccount:
		return func(author string, _ *record) bool { return author == did }
	default:
		words := strings.Fields(strings.ToLower(term))
		return func(_ string, r *record) bool {
			text := strings.ToLower(r.Text)
			for _, w := range words {
				if !strings.Contains(text, w) {
					return false
				}
			}
			return true
		}
	}
}

// xrpc is a client of the AppView's XRPC methods, over Env.HTTP.
type xrpc struct {
	env  platform.Env
	base string
}

// get calls an XRPC query method and decodes its JSON answer into out.
func (x *xrpc) get(ctx context.Context, method string, params url.Values, out any) error {
	u := x.base + "/xrpc/" + method + "?" + params.Encode()
	hc := x.env.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	fail := func(status int, ct string, err error) error {
		return &apierr.Error{Platform: Name, Method: "GET", URL: apierr.RedactURL(mustParse(u)), Status: status,
			ContentType: ct, Err: errors.New(apierr.Scrub(err.Error(), x.env.Credentials))}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fail(0, "", err)
	}
	req.Header.Set("Accept", "application/json")
	if t := x.env.Credentials["token"]; t != "" {
		req.Header.Set("Authorization", "Bearer "+t)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fail(0, "", err)
	}
	defer resp.Body.Close()
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	body, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return fail(resp.StatusCode, ct, fmt.Errorf("reading the answer: %w", err))
	}
	if resp.StatusCode != http.StatusOK {
		var e struct{ Error, Message string }
		if json.Unmarshal(body, &e) == nil && (e.Error != "" || e.Message != "") {
			return fail(resp.StatusCode, ct, fmt.Errorf("%s: %s", e.Error, e.Message))
		}
		return fail(resp.StatusCode, ct, errors.New("no XRPC error body"))
	}
	if err := json.Unmarshal(body, out); err != nil {
		if !strings.Contains(ct, "json") {
			err = fmt.Errorf("response is %s, not JSON: %w", ct, err)
		}
		return fail(resp.StatusCode, ct, err)
	}
	return nil
}

func mustParse(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		return &url.URL{}
	}
	return u
}

// resolve returns the DID of a handle (a DID is its own).
func (x *xrpc) resolve(ctx context.Context, handle string) (string, error) {
	if strings.HasPrefix(handle, "did:") {
		return handle, nil
	}
	var r struct {
		DID string `json:"did"`
	}
	if err := x.get(ctx, "com.atproto.identity.resolveHandle", url.Values{"handle": {handle}}, &r); err != nil {
		return "", err
	}
	if !strings.HasPrefix(r.DID, "did:") {
		return "", fmt.Errorf("%s: handle %q resolved to %q, not a DID", Name, handle, r.DID)
	}
	return r.DID, nil
}

// getPosts looks up up to 25 posts by AT-URI or bsky.app URL (separated by
// spaces or commas).
func (x *xrpc) getPosts(ctx context.Context, text string) (platform.Page, error) {
	var uris []string
	for _, s := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' }) {
		u, err := ATURI(s)
		if err != nil {
			return platform.Page{}, err
		}
		uris = append(uris, u)
	}
	if len(uris) == 0 || len(uris) > 25 {
		return platform.Page{}, fmt.Errorf("%s: getPosts takes 1 to 25 posts, not %d", Name, len(uris))
	}
	var r struct {
		Posts []*postView `json:"posts"`
	}
	if err := x.get(ctx, "app.bsky.feed.getPosts", url.Values{"uris": uris}, &r); err != nil {
		return platform.Page{}, err
	}
	m := newMapper(time.Now().UTC())
	source := x.base + "/xrpc/app.bsky.feed.getPosts?" + url.Values{"uris": uris}.Encode()
	for _, pv := range r.Posts {
		m.view(pv, source)
	}
	return platform.Page{Posts: m.posts, Accounts: m.accounts.List(), More: m.more(platform.Query{Kind: platform.ByPost})}, nil
}

// threadView is app.bsky.feed.defs#threadViewPost; a missing or blocked
// post of the thread (#notFoundPost, #blockedPost) has no post.
type threadView struct {
	Post    *postView     `json:"post"`
	Parent  *threadView   `json:"parent"`
	Replies []*threadView `json:"replies"`
}

// getPostThread returns a post, the posts it answers up to the root, and
// the replies to it, from app.bsky.feed.getPostThread.
func (x *xrpc) getPostThread(ctx context.Context, text string) (platform.Page, error) {
	uri, err := ATURI(strings.TrimSpace(text))
	if err != nil {
		return platform.Page{}, err
	}
	params := url.Values{"uri": {uri}, "depth": {"10"}, "parentHeight": {"80"}}
	var r struct {
		Thread *threadView `json:"thread"`
	}
	if err := x.get(ctx, "app.bsky.feed.getPostThread", params, &r); err != nil {
		return platform.Page{}, err
	}
	m := newMapper(time.Now().UTC())
	source := x.base + "/xrpc/app.bsky.feed.getPostThread?" + params.Encode()
	var ancestors []*postView
	for t := r.Thread; t != nil; t = t.Parent {
		if t.Post != nil {
			ancestors = append(ancestors, t.Post)
		}
	}
	for i := len(ancestors) - 1; i >= 0; i-- {
		m.view(ancestors[i], source)
	}
	var replies func(*threadView)
	replies = func(t *threadView) {
		for _, c := range t.Replies {
			if c != nil && c.Post != nil {
				m.view(c.Post, source)
				replies(c)
			}
		}
	}
	if r.Thread != nil {
		replies(r.Thread)
	}
	return platform.Page{Posts: m.posts, Accounts: m.accounts.List()}, nil
}

// ATURI returns the AT-URI of a post named by its AT-URI or its
// https://bsky.app/profile/DID/post/RKEY URL.
func ATURI(s string) (string, error) {
	if strings.HasPrefix(s, "at://") {
		if _, _, ok := splitATURI(s); ok {
			return s, nil
		}
	}
	if rest, ok := strings.CutPrefix(s, "https://bsky.app/profile/"); ok {
		if did, rkey, ok := strings.Cut(rest, "/post/"); ok && did != "" && rkey != "" && !strings.Contains(rkey, "/") {
			return "at://" + did + "/" + postCollection + "/" + rkey, nil
		}
	}
	return "", fmt.Errorf("%s: %q is not the AT-URI or bsky.app URL of a post", Name, s)
}

func splitATURI(s string) (did, rkey string, ok bool) {
	rest, ok := strings.CutPrefix(s, "at://")
	if !ok {
		return "", "", false
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 3 || parts[1] != postCollection || parts[0] == "" || parts[2] == "" {
		return "", "", false
	}
	return parts[0], parts[2], true
}

// PostURL is the public URL of a post, its IRI.
func PostURL(did, rkey string) string { return "https://bsky.app/profile/" + did + "/post/" + rkey }

// ProfileURL is the public URL of an account, its IRI.
func ProfileURL(did string) string { return "https://bsky.app/profile/" + did }

// webURL turns a post's AT-URI into its public URL ("" if it is not one).
func webURL(aturi string) string {
	did, rkey, ok := splitATURI(aturi)
	if !ok {
		return ""
	}
	return PostURL(did, rkey)
}

var _ platform.Platform = (*Platform)(nil)
