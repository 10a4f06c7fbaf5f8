// Package twitter is the Twitter/X platform of social campaigns, through
// github.com/dghubble/go-twitter and the API v1.1: search/tweets,
// statuses/user_timeline and statuses/lookup, paged by max_id down a pass
// and since_id on the next pass, in extended mode (full_text).
//
// The library speaks to https://api.twitter.com only; access now needs a
// paid account or a compatible service, so Env.Base, when set, names the
// API's base (scheme, host and an optional path prefix) and a transport
// rewrites every request to it. Authentication is the application-only
// bearer token of the credential "bearer", which the three
// endpoints accept.
//
// Its strategy: a search page yields, as more queries, the recent tweets
// of its authors and the threads of its replies (the tweets they answer,
// looked up up the chain, and the answers to them); retweeted and quoted
// tweets the API embeds are returned as posts of their own, and quoted or
// answered tweets it does not embed are looked up.
//
// Posts and accounts are named as the JSONL import names them
// (https://twitter.com/HANDLE/status/ID, https://twitter.com/HANDLE), so a
// tweet crawled and imported is one resource; a quoted tweet known by its
// id alone is https://twitter.com/i/web/status/ID.
package twitter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	//lint:ignore SA1019 the library is archived but is the design's client, and the API v1.1 it speaks is what compatible services offer
	gotw "github.com/dghubble/go-twitter/twitter"

	"github.com/mneme-archive/mneme/social/internal/apierr"
	"github.com/mneme-archive/mneme/social/platform"
)

// Name is the platform's name in campaigns.
const Name = "twitter"

// apiHost is the host the library speaks to.
const apiHost = "api.twitter.com"

// Platform is the Twitter client. The zero value is ready to use.
type Platform struct {
	// PageSize is the number of tweets asked per request (default and
	// most search/tweets allows: 100).
	PageSize int
}

// Name returns "twitter".
func (*Platform) Name() string { return Name }

type cursor struct {
	MaxID int64 `json:"max,omitempty"`   // next page: tweets up to this id
	Top   int64 `json:"top,omitempty"`   // newest id of this pass
	Floor int64 `json:"floor,omitempty"` // newest id of the last pass
}

// PostURL is the IRI of tweet id by the account handle, as the JSONL
// import names it too; without the handle, the id-only URL Twitter
// redirects from.
func PostURL(handle, id string) string {
	if handle == "" {
		handle = "i/web"
	}
	return "https://twitter.com/" + handle + "/status/" + id
}

// AccountURL is the IRI of the account handle (id when it has none).
func AccountURL(handle, id string) string {
	if handle == "" {
		return "https://twitter.com/i/user/" + id
	}
	return "https://twitter.com/" + handle
}

// screenName is u's handle, "" for no user.
func screenName(u *gotw.User) string {
	if u == nil {
		return ""
	}
	return u.ScreenName
}

// Fetch returns the next page of q.
func (p *Platform) Fetch(ctx context.Context, env platform.Env, q platform.Query, cur []byte) (platform.Page, error) {
	var c cursor
	if len(cur) > 0 {
		if err := json.Unmarshal(cur, &c); err != nil {
			return platform.Page{}, fmt.Errorf("%s: bad cursor: %w", Name, err)
		}
	}
	f, err := p.fetcher(ctx, env)
	if err != nil {
		return platform.Page{}, err
	}
	term := strings.TrimSpace(q.Text)
	var page platform.Page
	switch q.Kind {
	case platform.ByKeyword, platform.ByHashtag, platform.ByAccount:
		page, err = f.timeline(q, term, &c, p.pageSize(q.Kind))
	case platform.ByPost:
		page, err = f.lookup(term)
		page.Done = true
	case platform.ByThread:
		page, err = f.thread(term)
		page.Done = true
	default:
		return platform.Page{}, fmt.Errorf("%s: %q: %w", Name, q.Kind, platform.ErrUnsupported)
	}
	err = f.tracker.Wrap(Name, err, env.Credentials)
	return env.Finish(Name, q, page, c, err, "request", f.tracker.Last().URL)
}

func (p *Platform) pageSize(k platform.QueryKind) int {
	n := p.PageSize
	if n <= 0 {
		n = 100
	}
	if k == platform.ByAccount {
		return min(n, 200)
	}
	return min(n, 100)
}

type fetcher struct {
	c       *gotw.Client
	tracker *apierr.Tracker
	now     time.Time
}

func (p *Platform) fetcher(ctx context.Context, env platform.Env) (*fetcher, error) {
	inner := env.HTTP
	if inner == nil {
		inner = http.DefaultClient
	}
	var base *url.URL
	if env.Base != "" {
		u, err := url.Parse(strings.TrimRight(env.Base, "/"))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("%s: API base %q is not an http(s) URL", Name, env.Base)
		}
		base = u
	}
	// The library makes its requests without a context: rewrite puts
	// the Fetch's on them, and the runner's client (its timeout, its
	// recording and rate-limiting transport) sends them, so that its
	// deadline is derived from the Fetch's context.
	tr := &apierr.Tracker{Next: clientTransport{inner}}
	hc := &http.Client{Transport: &rewrite{ctx: ctx, base: base, token: env.Credentials["bearer"], next: tr}}
	return &fetcher{c: gotw.NewClient(hc), tracker: tr, now: time.Now().UTC()}, nil
}

// clientTransport sends a request with an http.Client.
type clientTransport struct{ c *http.Client }

func (t clientTransport) RoundTrip(r *http.Request) (*http.Response, error) { return t.c.Do(r) }

// rewrite sends the library's requests to the configured base, with the
// bearer token, under the Fetch's context (the library takes none).
type rewrite struct {
	ctx   context.Context
	base  *url.URL
	token string
	next  http.RoundTripper
}

func (t *rewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(t.ctx)
	if t.base != nil && r.URL.Host == apiHost {
		r.URL.Scheme, r.URL.Host = t.base.Scheme, t.base.Host
		r.URL.Path = t.base.Path + r.URL.Path
		if r.URL.RawPath != "" {
			r.URL.RawPath = t.base.EscapedPath() + r.URL.RawPath
		}
		r.Host = ""
	}
	if t.token != "" {
		r.Header.Set("Authorization", "Bearer "+t.token)
	}
	return t.next.RoundTrip(r)
}

// checked turns a non-2xx answer the library let through (an error body
// it did not recognise) into an error.
func checked(resp *http.Response, err error) error {
	if err != nil {
		return err
	}
	if resp != nil && (resp.StatusCode < 200 || resp.StatusCode > 299) {
		return errors.New("unexpected answer")
	}
	return nil
}

// timeline fetches the next page of a search or a user's timeline.
func (f *fetcher) timeline(q platform.Query, term string, c *cursor, count int) (platform.Page, error) {
	var tweets []gotw.Tweet
	lastPage := false
	switch q.Kind {
	case platform.ByKeyword, platform.ByHashtag:
		if q.Kind == platform.ByHashtag && !strings.HasPrefix(term, "#") {
			term = "#" + term
		}
		s, resp, err := f.c.Search.Tweets(&gotw.SearchTweetParams{Query: term, Count: count, MaxID: c.MaxID,
			SinceID: c.Floor, ResultType: "recent", TweetMode: "extended", IncludeEntities: gotw.Bool(true)})
		if err := checked(resp, err); err != nil {
			return platform.Page{}, err
		}
		tweets = s.Statuses
		lastPage = s.Metadata != nil && s.Metadata.NextResults == ""
	case platform.ByAccount:
		params := &gotw.UserTimelineParams{ScreenName: strings.TrimPrefix(term, "@"), Count: count, MaxID: c.MaxID,
			SinceID: c.Floor, IncludeRetweets: gotw.Bool(true), TweetMode: "extended"}
		if id, ok := strings.CutPrefix(term, "id:"); ok {
			params.ScreenName = ""
			params.UserID, _ = strconv.ParseInt(id, 10, 64)
		}
		ts, resp, err := f.c.Timelines.UserTimeline(params)
		if err := checked(resp, err); err != nil {
			return platform.Page{}, err
		}
		tweets = ts
	}
	m := f.mapper()
	done := len(tweets) == 0 || lastPage
	for i := range tweets {
		t := &tweets[i]
		if c.Floor != 0 && t.ID <= c.Floor {
			done = true // a service that ignores since_id
			continue
		}
		c.Top = max(c.Top, t.ID)
		if c.MaxID == 0 || t.ID-1 < c.MaxID {
			c.MaxID = t.ID - 1
		}
		created, _ := t.CreatedAtTime()
		if !q.Until.IsZero() && created.After(q.Until) {
			continue
		}
		if !q.Since.IsZero() && created.Before(q.Since) {
			done = true
			continue
		}
		m.add(t, true)
	}
	page := platform.Page{Posts: m.posts, Accounts: m.accounts.List(), More: m.more(q)}
	if done {
		c.MaxID = 0
		c.Floor = max(c.Floor, c.Top)
		c.Top = 0
		page.Done = true
	}
	return page, nil
}

// lookup returns the tweets of up to 100 ids (separated by commas or
// spaces, or given as status URLs).
func (f *fetcher) lookup(term string) (platform.Page, error) {
	var ids []int64
	for _, s := range strings.FieldsFunc(term, func(r rune) bool { return r == ',' || r == ' ' }) {
		id, err := tweetID(s)
		if err != nil {
			return platform.Page{}, err
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 || len(ids) > 100 {
		return platform.Page{}, fmt.Errorf("%s: a lookup takes 1 to 100 tweet ids, not %d", Name, len(ids))
	}
	ts, resp, err := f.c.Statuses.Lookup(ids, &gotw.StatusLookupParams{TweetMode: "extended", IncludeEntities: gotw.Bool(true)})
	if err := checked(resp, err); err != nil {
		return platform.Page{}, err
	}
	m := f.mapper()
	for i := range ts {
		m.add(&ts[i], true)
	}
	return platform.Page{Posts: m.posts, Accounts: m.accounts.List(), More: m.more(platform.Query{Kind: platform.ByPost})}, nil
}

// thread returns a tweet, the tweets it answers up the chain (one lookup
// each, at most maxDepth), and the answers to it that a search for tweets
// to its author finds.
func (f *fetcher) thread(term string) (platform.Page, error) {
	const maxDepth = 20
	id, err := tweetID(term)
	if err != nil {
		return platform.Page{}, err
	}
	m := f.mapper()
	var root *gotw.Tweet
	for depth := 0; id != 0 && depth < maxDepth; depth++ {
		ts, resp, err := f.c.Statuses.Lookup([]int64{id}, &gotw.StatusLookupParams{TweetMode: "extended", IncludeEntities: gotw.Bool(true)})
		if err := checked(resp, err); err != nil {
			return platform.Page{}, err
		}
		if len(ts) == 0 {
			break // deleted or protected
		}
		if root == nil {
			root = &ts[0]
		}
		m.add(&ts[0], false)
		id = ts[0].InReplyToStatusID
	}
	if root != nil && root.User != nil {
		s, resp, err := f.c.Search.Tweets(&gotw.SearchTweetParams{Query: "to:" + root.User.ScreenName, SinceID: root.ID,
			Count: 100, ResultType: "recent", TweetMode: "extended", IncludeEntities: gotw.Bool(true)})
		if err := checked(resp, err); err != nil {
			return platform.Page{}, err
		}
		for i := range s.Statuses {
			if s.Statuses[i].InReplyToStatusID == root.ID {
				m.add(&s.Statuses[i], false)
			}
		}
	}
	return platform.Page{Posts: m.posts, Accounts: m.accounts.List()}, nil
}

func tweetID(s string) (int64, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "/")
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("%s: %q is not a tweet id", Name, s)
	}
	return id, nil
}

// mapper turns the tweets of one response into posts and accounts, and
// notes what the strategy may follow.
type mapper struct {
	f        *fetcher
	source   string
	posts    []platform.Post
	seen     map[int64]bool
	accounts platform.AccountSet
	authors  []string // screen names
	lookups  []int64  // answered or quoted tweets not embedded
	threads  []int64  // tweets with answers
}

func (f *fetcher) mapper() *mapper {
	return &mapper{f: f, source: f.tracker.Last().URL, seen: map[int64]bool{}}
}

// add maps t, and the retweeted and quoted tweets it embeds; follow says
// whether the strategy should go on from t.
func (m *mapper) add(t *gotw.Tweet, follow bool) {
	if t == nil || m.seen[t.ID] {
		return
	}
	m.seen[t.ID] = true
	if t.RetweetedStatus != nil {
		m.add(t.RetweetedStatus, follow)
	}
	if t.QuotedStatus != nil {
		m.add(t.QuotedStatus, false)
	}
	created, _ := t.CreatedAtTime()
	p := platform.Post{Platform: Name, ID: t.IDStr, URL: PostURL(screenName(t.User), t.IDStr), Lang: t.Lang,
		Created: created.UTC(), Source: m.source}
	if p.ID == "" {
		p.ID = strconv.FormatInt(t.ID, 10)
		p.URL = PostURL(screenName(t.User), p.ID)
	}
	if p.Lang == "und" {
		p.Lang = ""
	}
	if t.User != nil {
		p.Author = m.account(t.User)
		if follow && !slices.Contains(m.authors, t.User.ScreenName) {
			m.authors = append(m.authors, t.User.ScreenName)
		}
	}
	if t.RetweetedStatus != nil {
		p.Reposts = PostURL(screenName(t.RetweetedStatus.User), strconv.FormatInt(t.RetweetedStatus.ID, 10))
		m.posts = append(m.posts, p)
		return
	}
	text, ents, media := t.FullText, t.Entities, t.ExtendedEntities
	if text == "" {
		text = t.Text
	}
	if t.ExtendedTweet != nil && t.ExtendedTweet.FullText != "" {
		text, ents, media = t.ExtendedTweet.FullText, t.ExtendedTweet.Entities, t.ExtendedTweet.ExtendedEntities
	}
	// reply_count is in premium tiers only: 0 elsewhere, so unknown.
	p.Counts = &platform.Counts{Likes: int64(t.FavoriteCount), Reposts: int64(t.RetweetCount), Replies: -1}
	if t.ReplyCount > 0 {
		p.Counts.Replies = int64(t.ReplyCount)
	}
	// The API escapes &, < and > in tweet text.
	p.Text = html.UnescapeString(text)
	if ents != nil {
		for _, h := range ents.Hashtags {
			p.Hashtags = append(p.Hashtags, h.Text)
		}
		for _, u := range ents.UserMentions {
			p.Mentions = append(p.Mentions, AccountURL(u.ScreenName, strconv.FormatInt(u.ID, 10)))
		}
		for _, u := range ents.Urls {
			if u.ExpandedURL != "" {
				p.Links = append(p.Links, u.ExpandedURL)
			} else if u.URL != "" {
				p.Links = append(p.Links, u.URL)
			}
		}
	}
	var ms []gotw.MediaEntity
	if media != nil {
		ms = media.Media
	} else if ents != nil {
		ms = ents.Media
	}
	for _, e := range ms {
		switch {
		case len(e.VideoInfo.Variants) > 0:
			best := e.VideoInfo.Variants[0]
			for _, v := range e.VideoInfo.Variants {
				if v.Bitrate > best.Bitrate {
					best = v
				}
			}
			p.Media = append(p.Media, best.URL)
		case e.MediaURLHttps != "":
			p.Media = append(p.Media, e.MediaURLHttps)
		case e.MediaURL != "":
			p.Media = append(p.Media, e.MediaURL)
		}
	}
	if t.InReplyToStatusID != 0 {
		p.ReplyTo = PostURL(t.InReplyToScreenName, strconv.FormatInt(t.InReplyToStatusID, 10))
		if follow {
			m.threads = append(m.threads, t.ID)
		}
	} else if follow && t.ReplyCount > 0 {
		m.threads = append(m.threads, t.ID)
	}
	if t.QuotedStatusID != 0 {
		var by string
		if t.QuotedStatus != nil {
			by = screenName(t.QuotedStatus.User)
		}
		p.Quotes = PostURL(by, strconv.FormatInt(t.QuotedStatusID, 10))
		if t.QuotedStatus == nil && follow {
			m.lookups = append(m.lookups, t.QuotedStatusID)
		}
	}
	m.posts = append(m.posts, p)
}

func (m *mapper) account(u *gotw.User) platform.Account {
	id := u.IDStr
	if id == "" {
		id = strconv.FormatInt(u.ID, 10)
	}
	a := platform.Account{Platform: Name, ID: id, URL: AccountURL(u.ScreenName, id), Handle: u.ScreenName, Name: u.Name,
		Followers: int64(u.FollowersCount), Following: int64(u.FriendsCount), Posts: int64(u.StatusesCount),
		ObservedAt: m.f.now}
	m.accounts.Put(a.URL, a)
	return a
}

// more derives the strategy's next queries: the authors' recent tweets
// (from a search), the threads of replies and answered tweets, and a
// lookup of quoted tweets the API did not embed.
func (m *mapper) more(q platform.Query) []platform.Query {
	var out []platform.Query
	if q.Kind == platform.ByKeyword || q.Kind == platform.ByHashtag {
		for _, a := range m.authors {
			out = append(out, platform.Query{Kind: platform.ByAccount, Text: a, Since: q.Since, Until: q.Until})
		}
	}
	for _, id := range m.threads {
		out = append(out, platform.Query{Kind: platform.ByThread, Text: strconv.FormatInt(id, 10)})
	}
	var ids []string
	for _, id := range m.lookups {
		if !m.seen[id] {
			ids = append(ids, strconv.FormatInt(id, 10))
		}
	}
	for len(ids) > 0 {
		n := min(len(ids), 100)
		out = append(out, platform.Query{Kind: platform.ByPost, Text: strings.Join(ids[:n], ",")})
		ids = ids[n:]
	}
	return out
}

var _ platform.Platform = (*Platform)(nil)
