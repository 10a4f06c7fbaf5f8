// Package platform defines what a social platform gives a campaign: a client
// that, for one query, fetches the next page of posts from a saved cursor.
//
// A platform never writes WARC, RDF or state itself. The campaign runner
// lends it an HTTP client whose transport records every exchange to WARC
// (credentials removed) and keeps to the platform's rate limits, and it
// persists the returned cursor together with the posts, so a killed
// campaign resumes from the last page it stored, with nothing lost or
// counted twice.
package platform

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"time"
)

// QueryKind says what a query's text names.
type QueryKind string

// The kinds of query a campaign may name. A platform that cannot serve a
// kind answers Fetch with an error wrapping ErrUnsupported.
const (
	ByKeyword QueryKind = "keyword" // full-text search
	ByHashtag QueryKind = "hashtag" // a tag, without its '#'
	ByAccount QueryKind = "account" // an account's posts, by handle
	ByList    QueryKind = "list"    // a list or feed, by its URL or id
	ByThread  QueryKind = "thread"  // the replies to and quotes of one post, by its id or URL
	ByPost    QueryKind = "post"    // one post, by its id or URL
)

// Query is one (query, platform) pair's query, with its time window.
type Query struct {
	Kind  QueryKind
	Text  string
	Since time.Time // zero: no lower bound
	Until time.Time // zero: no upper bound
}

// Env is what the runner lends a platform for one Fetch.
type Env struct {
	// HTTP is the client to make every request with: its transport
	// writes the exchange to WARC and waits out rate limits.
	HTTP *http.Client
	// Record writes raw data that is not an HTTP exchange (a WebSocket
	// message, an imported line) as a WARC resource record named uri,
	// and returns the record's id for provenance.
	Record func(uri, contentType string, body []byte) (recordID string, err error)
	// Credentials are the platform's secrets for this campaign (API
	// keys, tokens), from the secrets file or the environment.
	Credentials map[string]string
	// Base is the API's base URL when it is not the platform's public
	// one (a compatible service, a test server); empty for the default.
	Base string
	Log  *slog.Logger
}

// Page is what one Fetch returns.
type Page struct {
	Posts    []Post
	Accounts []Account // observed accounts, also those only met as authors
	// Cursor resumes the query after this page. The runner stores it in
	// the same batch as the page's posts.
	Cursor []byte
	// Done says the query has nothing more for this pass; a scheduled
	// campaign calls Fetch again with Cursor on its next pass, to get
	// what is new.
	Done bool
	// More are queries the platform's strategy derives from this page
	// (authors' recent posts, reply threads, quoted posts); the runner
	// adds those its budget allows.
	More []Query
}

// Platform is one social platform's client.
type Platform interface {
	// Name is the platform's short name as campaigns spell it
	// ("twitter", "mastodon", "bluesky", "feed", "import").
	Name() string
	// Fetch returns the page after cursor (nil: the first) for q.
	Fetch(ctx context.Context, env Env, q Query, cursor []byte) (Page, error)
}

// Bulk is implemented by a platform whose pages come faster than a
// commit a page can store them (an import of a collection already held):
// the runner stores its pages many at a time through the store's bulk
// loader, each group in one atomic step with the checkpoints of its
// pages. A crash loses, and the resumed run fetches again, at most the
// group under way.
type Bulk interface {
	// BulkPosts is about how many posts a group holds; 0 stores each
	// page on its own.
	BulkPosts() int
}

// Post is one post as a platform saw it.
type Post struct {
	Platform string
	ID       string // the platform's id
	URL      string // the post's public URL, its IRI in RDF
	Title    string // a headline, where posts have one (feed items)
	Text     string // plain text (HTML removed)
	Lang     string // BCP 47, when the platform says
	Created  time.Time
	Edited   time.Time // zero when never edited
	Deleted  bool      // the platform reports it deleted
	Author   Account
	Hashtags []string // without '#'
	Mentions []string // account URLs
	ReplyTo  string   // URL of the post it answers
	Quotes   string   // URL of the post it quotes
	Reposts  string   // URL of the post it boosts/retweets (Text may be empty)
	Media    []string // media URLs
	Links    []string // URLs of the links it shares, expanded when the platform says
	// Counts are the post's engagement counts when it was seen; nil when
	// the platform does not say.
	Counts *Counts
	// Source is the URL of the request whose response held the post, or
	// the record id Env.Record returned; the runner links the post to
	// that WARC record (prov:wasDerivedFrom).
	Source string
}

// Counts are a post's engagement counts at the time it was seen.
type Counts struct {
	Likes, Reposts, Replies int64 // -1 when not known
}

// Account is a platform account, observed at a time.
type Account struct {
	Platform   string
	ID         string
	URL        string // profile URL, its IRI in RDF
	Handle     string // without '@'
	Name       string // display name
	Followers  int64  // -1 when not known
	Following  int64  // -1 when not known
	Posts      int64  // -1 when not known
	ObservedAt time.Time
}

// ErrUnsupported is wrapped by Fetch for a query kind the platform cannot serve.
var ErrUnsupported = errors.New("query kind not supported by this platform")

// AccountSet holds the accounts a page met, once each by a key of the
// platform's choosing (profile URL, DID), in the order first met. Its zero
// value is empty and ready.
type AccountSet struct {
	byKey map[string]Account
	order []string
}

// Get returns the account put under key.
func (s *AccountSet) Get(key string) (Account, bool) {
	a, ok := s.byKey[key]
	return a, ok
}

// Put stores a under key, replacing what was there but keeping its place.
func (s *AccountSet) Put(key string, a Account) {
	if s.byKey == nil {
		s.byKey = map[string]Account{}
	}
	if _, ok := s.byKey[key]; !ok {
		s.order = append(s.order, key)
	}
	s.byKey[key] = a
}

// List returns the accounts in the order first met.
func (s *AccountSet) List() []Account {
	out := make([]Account, 0, len(s.order))
	for _, k := range s.order {
		out = append(out, s.byKey[k])
	}
	return out
}

// Finish ends a Fetch of platform name: on err it logs a warning naming
// the query and returns err with an empty page; else it sets the page's
// cursor to cursor's JSON and logs the page at debug level with attrs
// (the request made, the stream position).
func (e Env) Finish(name string, q Query, page Page, cursor any, err error, attrs ...any) (Page, error) {
	query := string(q.Kind) + " " + q.Text
	if err != nil {
		if e.Log != nil {
			e.Log.Warn("fetch failed", "platform", name, "query", query, "err", err)
		}
		return Page{}, err
	}
	page.Cursor, _ = json.Marshal(cursor)
	if e.Log != nil {
		e.Log.Debug("fetched", append([]any{"platform", name, "query", query}, append(attrs, "posts", len(page.Posts), "done", page.Done)...)...)
	}
	return page, nil
}
