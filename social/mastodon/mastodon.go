// Package mastodon is the Mastodon platform of social campaigns, through
// github.com/mattn/go-mastodon: hashtag, public, local and list timelines,
// an account's statuses, full-text search of statuses, a status and its
// thread, paged by the Link header (max_id down a pass, since_id on the
// next pass, so a scheduled campaign gets only what is new), on one
// instance or several.
//
// Its strategy: a search, hashtag or list page yields, as more queries,
// the recent posts of its authors and the threads of its replies and of
// its replied-to posts; an author's page yields its threads. A boost is a
// post of its own (no text) whose Reposts is the boosted status, which is
// returned too.
//
// Query text may start with an instance's base URL and a space
// ("https://fosstodon.org climate") to ask that instance; otherwise the
// instances of Env.Base (one, or several separated by spaces or commas;
// default https://mastodon.social) are asked one after the other.
package mastodon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	gomasto "github.com/mattn/go-mastodon"

	"github.com/mneme-archive/mneme/social/internal/apierr"
	"github.com/mneme-archive/mneme/social/platform"
)

// Name is the platform's name in campaigns.
const Name = "mastodon"

// DefaultBase is the instance asked when Env.Base names none.
const DefaultBase = "https://mastodon.social"

// Platform is the Mastodon client. The zero value is ready to use.
type Platform struct {
	// PageSize is the number of statuses asked per request (default
	// and most Mastodon allows: 40).
	PageSize int
	// UserAgent is sent with every request; empty: the library's.
	UserAgent string
}

// Name returns "mastodon".
func (*Platform) Name() string { return Name }

// cursor is the saved position of a query: per instance, where the pass
// is and where the last pass began.
type cursor struct {
	Instance  int        `json:"i"`
	Instances []instance `json:"inst"`
}

type instance struct {
	Base      string `json:"base"`
	AccountID string `json:"account,omitempty"` // ByAccount, once looked up
	MaxID     string `json:"max,omitempty"`     // next page of this pass; "" is the top
	Top       string `json:"top,omitempty"`     // newest id of this pass
	Floor     string `json:"floor,omitempty"`   // newest id of the last pass: stop there
}

// Fetch returns the next page of q.
func (p *Platform) Fetch(ctx context.Context, env platform.Env, q platform.Query, cur []byte) (platform.Page, error) {
	base, term := splitQuery(q.Text)
	var c cursor
	if len(cur) > 0 {
		if err := json.Unmarshal(cur, &c); err != nil {
			return platform.Page{}, fmt.Errorf("%s: bad cursor: %w", Name, err)
		}
	} else {
		bases := []string{base}
		if base == "" {
			bases = strings.FieldsFunc(env.Base, func(r rune) bool { return r == ' ' || r == ',' })
			if len(bases) == 0 {
				bases = []string{DefaultBase}
			}
		}
		for _, b := range bases {
			c.Instances = append(c.Instances, instance{Base: strings.TrimRight(b, "/")})
		}
	}
	if c.Instance >= len(c.Instances) {
		c.Instance = 0
	}
	in := &c.Instances[c.Instance]
	f := p.fetcher(env, in.Base)

	var page platform.Page
	var err error
	switch q.Kind {
	case platform.ByHashtag, platform.ByKeyword, platform.ByList, platform.ByAccount:
		var done bool
		page, done, err = f.timeline(ctx, q, term, in, p.pageSize(), len(c.Instances) > 1)
		if err == nil && done {
			in.MaxID = ""
			if in.Top != "" && gomasto.ID(in.Top).Compare(gomasto.ID(in.Floor)) > 0 {
				in.Floor = in.Top
			}
			in.Top = ""
			c.Instance++
			if c.Instance >= len(c.Instances) {
				c.Instance = 0
				page.Done = true
			}
		}
	case platform.ByThread:
		page, err = f.thread(ctx, term)
		page.Done = true
	case platform.ByPost:
		page, err = f.post(ctx, term)
		page.Done = true
	default:
		return platform.Page{}, fmt.Errorf("%s: %q: %w", Name, q.Kind, platform.ErrUnsupported)
	}
	err = f.tracker.Wrap(Name, err, env.Credentials)
	return env.Finish(Name, q, page, c, err, "request", f.tracker.Last().URL)
}

func (p *Platform) pageSize() int {
	if p.PageSize > 0 {
		return p.PageSize
	}
	return 40
}

// splitQuery splits an optional leading instance URL from a query's term.
func splitQuery(text string) (base, term string) {
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, "https://") || strings.HasPrefix(text, "http://") {
		if i := strings.IndexAny(text, " \t"); i > 0 {
			return strings.TrimRight(text[:i], "/"), strings.TrimSpace(text[i:])
		}
	}
	return "", text
}

// fetcher is one Fetch's client on one instance.
type fetcher struct {
	c       *gomasto.Client
	http    *http.Client
	tracker *apierr.Tracker
	base    string
	now     time.Time
}

func (p *Platform) fetcher(env platform.Env, base string) *fetcher {
	hc := http.Client{}
	if env.HTTP != nil {
		hc = *env.HTTP
	}
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	tr := &apierr.Tracker{Next: noEmptyBearer{next}}
	hc.Transport = tr
	token := env.Credentials["token"]
	c := gomasto.NewClient(&gomasto.Config{Server: base, AccessToken: token})
	c.Client = hc
	c.UserAgent = p.UserAgent
	return &fetcher{c: c, http: &hc, tracker: tr, base: base, now: time.Now().UTC()}
}

// noEmptyBearer drops the "Authorization: Bearer " the library sends when
// it has no token: public timelines need none, and an empty one may be
// refused as an invalid token.
type noEmptyBearer struct{ next http.RoundTripper }

func (t noEmptyBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.TrimSpace(r.Header.Get("Authorization")) == "Bearer" {
		r = r.Clone(r.Context())
		r.Header.Del("Authorization")
	}
	return t.next.RoundTrip(r)
}

// timeline fetches the next page of a paged query and says whether the
// pass is over.
//
// An account unknown to one of several instances is nothing to fetch there;
// to the only instance asked, it is an error.
func (f *fetcher) timeline(ctx context.Context, q platform.Query, term string, in *instance, limit int, several bool) (platform.Page, bool, error) {
	pg := &gomasto.Pagination{MaxID: gomasto.ID(in.MaxID), SinceID: gomasto.ID(in.Floor), Limit: int64(limit)}
	var sts []*gomasto.Status
	var err error
	linkPaged := true
	switch q.Kind {
	case platform.ByHashtag:
		sts, err = f.c.GetTimelineHashtag(ctx, strings.TrimPrefix(term, "#"), false, pg)
	case platform.ByList:
		switch term {
		case "public", "federated":
			sts, err = f.c.GetTimelinePublic(ctx, false, pg)
		case "local":
			sts, err = f.c.GetTimelinePublic(ctx, true, pg)
		default:
			sts, err = f.c.GetTimelineList(ctx, gomasto.ID(term), pg)
		}
	case platform.ByAccount:
		if in.AccountID == "" {
			var a *gomasto.Account
			a, err = f.c.AccountLookup(ctx, strings.TrimPrefix(term, "@"))
			var ae *gomasto.APIError
			if several && errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound {
				return platform.Page{}, true, nil
			}
			if err != nil {
				return platform.Page{}, false, err
			}
			in.AccountID = string(a.ID)
		}
		sts, err = f.c.GetAccountStatuses(ctx, gomasto.ID(in.AccountID), pg)
	case platform.ByKeyword:
		linkPaged = false
		sts, err = f.search(ctx, term, in, limit)
	}
	if err != nil {
		return platform.Page{}, false, err
	}
	page := platform.Page{}
	m := f.mapper()
	done := len(sts) == 0 || (linkPaged && pg.MaxID == "") || (!linkPaged && len(sts) < limit)
	for _, s := range sts {
		if in.Floor != "" && s.ID.Compare(gomasto.ID(in.Floor)) <= 0 {
			done = true // a server that ignores since_id
			continue
		}
		if in.Top == "" || s.ID.Compare(gomasto.ID(in.Top)) > 0 {
			in.Top = string(s.ID)
		}
		if !q.Until.IsZero() && s.CreatedAt.After(q.Until) {
			continue
		}
		if !q.Since.IsZero() && s.CreatedAt.Before(q.Since) {
			done = true
			continue
		}
		m.add(s)
	}
	if len(sts) > 0 {
		oldest := sts[0].ID
		for _, s := range sts {
			if s.ID.Compare(oldest) < 0 {
				oldest = s.ID
			}
		}
		in.MaxID = string(oldest)
		if linkPaged && pg.MaxID != "" {
			in.MaxID = string(pg.MaxID)
		}
	}
	page.Posts, page.Accounts = m.posts, m.accounts.List()
	page.More = m.more(q)
	return page, done, nil
}

// search asks /api/v2/search for statuses. The library's Search takes no
// paging parameters, so the request is made here, with the same client
// (and so the same recording transport), into the library's types.
func (f *fetcher) search(ctx context.Context, term string, in *instance, limit int) ([]*gomasto.Status, error) {
	v := url.Values{"q": {term}, "type": {"statuses"}, "limit": {strconv.Itoa(limit)}}
	if in.MaxID != "" {
		v.Set("max_id", in.MaxID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.base+"/api/v2/search?"+v.Encode(), nil)
	if err != nil {
		return nil, err
	}
	if f.c.Config.AccessToken != "" {
		req.Header.Set("Authorization", "Bearer "+f.c.Config.AccessToken)
	}
	if f.c.UserAgent != "" {
		req.Header.Set("User-Agent", f.c.UserAgent)
	}
	resp, err := f.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		if json.NewDecoder(resp.Body).Decode(&e) != nil || e.Error == "" {
			return nil, errors.New("unexpected answer")
		}
		return nil, errors.New(e.Error)
	}
	var r gomasto.Results
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return nil, err
	}
	return r.Statuses, nil
}

// thread returns a status and its context (ancestors and replies).
func (f *fetcher) thread(ctx context.Context, term string) (platform.Page, error) {
	id := statusID(term)
	s, err := f.c.GetStatus(ctx, id)
	if err != nil {
		return platform.Page{}, err
	}
	tc, err := f.c.GetStatusContext(ctx, id)
	if err != nil {
		return platform.Page{}, err
	}
	m := f.mapper()
	for _, a := range tc.Ancestors {
		m.add(a)
	}
	m.add(s)
	for _, d := range tc.Descendants {
		m.add(d)
	}
	return platform.Page{Posts: m.posts, Accounts: m.accounts.List()}, nil
}

func (f *fetcher) post(ctx context.Context, term string) (platform.Page, error) {
	s, err := f.c.GetStatus(ctx, statusID(term))
	if err != nil {
		return platform.Page{}, err
	}
	m := f.mapper()
	m.add(s)
	return platform.Page{Posts: m.posts, Accounts: m.accounts.List()}, nil
}

// statusID takes a status id, or the last path segment of its web URL.
func statusID(term string) gomasto.ID {
	term = strings.TrimRight(term, "/")
	if i := strings.LastIndexByte(term, '/'); i >= 0 {
		term = term[i+1:]
	}
	return gomasto.ID(term)
}

// mapper turns the statuses of one response into posts and accounts.
type mapper struct {
	f        *fetcher
	source   string
	posts    []platform.Post
	seen     map[gomasto.ID]bool
	uris     map[gomasto.ID]string // id -> URI of the statuses of the page
	accounts platform.AccountSet
	replies  []gomasto.ID // statuses whose threads are worth fetching
	authors  []string     // accts
}

func (f *fetcher) mapper() *mapper {
	return &mapper{f: f, source: f.tracker.Last().URL, seen: map[gomasto.ID]bool{},
		uris: map[gomasto.ID]string{}}
}

func postURL(s *gomasto.Status) string {
	if strings.HasPrefix(s.URI, "http") {
		return s.URI
	}
	return s.URL
}

func (m *mapper) add(s *gomasto.Status) {
	if s == nil || m.seen[s.ID] {
		return
	}
	m.seen[s.ID] = true
	m.uris[s.ID] = postURL(s)
	if s.Reblog != nil {
		m.add(s.Reblog)
	}
	acct := m.account(&s.Account)
	p := platform.Post{
		Platform: Name,
		ID:       string(s.ID),
		URL:      postURL(s),
		Lang:     s.Language,
		Created:  s.CreatedAt.UTC(),
		Author:   acct,
		Source:   m.source,
	}
	if !s.EditedAt.IsZero() {
		p.Edited = s.EditedAt.UTC()
	}
	if s.Reblog != nil {
		p.Reposts = postURL(s.Reblog)
	} else {
		p.Counts = &platform.Counts{Likes: s.FavouritesCount, Reposts: s.ReblogsCount, Replies: s.RepliesCount}
		text, links := plainText(s.Content)
		if s.SpoilerText != "" {
			text = s.SpoilerText + "\n\n" + text
		}
		p.Text = text
		p.Links = links
		if s.Card != nil && s.Card.URL != "" && !slices.Contains(p.Links, s.Card.URL) {
			p.Links = append(p.Links, s.Card.URL)
		}
		for _, t := range s.Tags {
			p.Hashtags = append(p.Hashtags, t.Name)
		}
		for _, mn := range s.Mentions {
			p.Mentions = append(p.Mentions, mn.URL)
		}
		for _, a := range s.MediaAttachments {
			if a.URL != "" {
				p.Media = append(p.Media, a.URL)
			} else if a.RemoteURL != "" {
				p.Media = append(p.Media, a.RemoteURL)
			}
		}
		if id := idOf(s.InReplyToID); id != "" {
			p.ReplyTo = m.replyURL(s, id)
			m.replies = append(m.replies, id)
		} else if s.RepliesCount > 0 {
			m.replies = append(m.replies, s.ID)
		}
	}
	m.posts = append(m.posts, p)
	if !slices.Contains(m.authors, s.Account.Acct) {
		m.authors = append(m.authors, s.Account.Acct)
	}
}

// replyURL names the status s answers: its URI if the page holds it; else,
// for an author of this instance, the URI Mastodon gives local statuses;
// else the API resource of the status on this instance.
func (m *mapper) replyURL(s *gomasto.Status, id gomasto.ID) string {
	if u, ok := m.uris[id]; ok {
		return u
	}
	for _, mn := range s.Mentions {
		if idOf(s.InReplyToAccountID) == mn.ID && !strings.Contains(mn.Acct, "@") {
			return m.f.base + "/users/" + mn.Username + "/statuses/" + string(id)
		}
	}
	return m.f.base + "/api/v1/statuses/" + string(id)
}

func (m *mapper) account(a *gomasto.Account) platform.Account {
	handle := a.Acct
	if !strings.Contains(handle, "@") {
		if u, err := url.Parse(m.f.base); err == nil {
			handle += "@" + u.Host
		}
	}
	acc := platform.Account{
		Platform: Name, ID: string(a.ID), URL: a.URL, Handle: handle, Name: a.DisplayName,
		Followers: a.FollowersCount, Following: a.FollowingCount, Posts: a.StatusesCount,
		ObservedAt: m.f.now,
	}
	m.accounts.Put(acc.URL, acc)
	return acc
}

// more derives the strategy's next queries from a page of q: the authors'
// recent posts (from a search, hashtag or list) and the reply threads
// (from those and from an author's posts), within q's time window.
func (m *mapper) more(q platform.Query) []platform.Query {
	var out []platform.Query
	prefix := m.f.base + " "
	if q.Kind != platform.ByAccount {
		for _, a := range m.authors {
			out = append(out, platform.Query{Kind: platform.ByAccount, Text: prefix + a, Since: q.Since, Until: q.Until})
		}
	}
	var done []gomasto.ID
	for _, id := range m.replies {
		if !slices.Contains(done, id) {
			done = append(done, id)
			out = append(out, platform.Query{Kind: platform.ByThread, Text: prefix + string(id)})
		}
	}
	return out
}

func idOf(v any) gomasto.ID {
	switch x := v.(type) {
	case string:
		return gomasto.ID(x)
	case float64:
		return gomasto.ID(strconv.FormatFloat(x, 'f', -1, 64))
	case json.Number:
		return gomasto.ID(x.String())
	}
	return ""
}

var _ platform.Platform = (*Platform)(nil)
