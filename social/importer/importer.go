// Package importer is the campaign platform of tweet collections that
// researchers already hold: JSON Lines as twarc and the Twitter API wrote
// them. A line is a v1.1 tweet (id_str, user, entities…), an API v2
// response page (data, includes.users, as twarc2 writes it) or a v2
// tweet on its own (twarc2 flatten, with its author embedded). A query
// names a file (kind "list"); each page is the next lines of it, each
// line archived as it is in a WARC resource record (there was no HTTP
// exchange to archive), and the cursor is the byte offset after the
// page's last line, so an import killed at any point resumes at the
// first line it had not committed. The platform is a bulk one
// (platform.Bulk): the runner stores its pages many at a time.
package importer

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"time"

	jsoniter "github.com/json-iterator/go"

	"github.com/mneme-archive/mneme/social/platform"
)

// decoder decodes the collections' lines: json-iterator, with the
// standard library's behaviour, decodes the generated v2 pages of the
// import benchmark three to four times as fast as encoding/json.
var decoder = jsoniter.ConfigCompatibleWithStandardLibrary

// Name is the platform's name in campaign specs.
const Name = "import"

// DefaultPagePosts is about how many posts a page holds: one commit of
// some 500,000 statements, which the store writes as sorted files, few
// enough of them for its compactions and probes, and an author named on
// many pages observed once a page, not once for every few posts. The
// price is memory: with the groups (DefaultGroupPosts), an import peaks
// at some 2 to 2.5 GB, however many tweets it holds.
const DefaultPagePosts = 20000

// DefaultGroupPosts is about how many posts the runner stores in one
// atomic step of the store's bulk loader (platform.Bulk): five pages,
// some 2.5 million statements, sorted in memory (some 400 MB). Fewer,
// larger steps leave Pebble less to compact; a crash makes the resumed
// import read the group again.
const DefaultGroupPosts = 100000

// maxPrealloc bounds the posts a page is given room for before it is read.
const maxPrealloc = 1 << 15

// maxLine bounds one line (a v2 page of 100 tweets with its includes is
// well under a megabyte).
const maxLine = 64 << 20

// Importer is the import platform.
type Importer struct {
	// PagePosts is about how many posts a page holds (whole lines);
	// 0 means DefaultPagePosts.
	PagePosts int
	// GroupPosts is about how many posts the runner stores at once
	// (BulkPosts); 0 means DefaultGroupPosts, a negative value makes it
	// commit each page on its own.
	GroupPosts int

	readers readers // reading ahead of the pages taken
}

// New returns the import platform.
func New() *Importer { return &Importer{} }

// Name implements platform.Platform.
func (*Importer) Name() string { return Name }

// BulkPosts implements platform.Bulk.
func (im *Importer) BulkPosts() int {
	switch {
	case im.GroupPosts < 0:
		return 0
	case im.GroupPosts > 0:
		return im.GroupPosts
	}
	return DefaultGroupPosts
}

type cursor struct {
	Offset int64 `json:"offset"`
	Line   int64 `json:"line"`
}

// Fetch implements platform.Platform: the next lines of the file q names.
func (im *Importer) Fetch(ctx context.Context, env platform.Env, q platform.Query, cur []byte) (platform.Page, error) {
	if q.Kind != platform.ByList {
		return platform.Page{}, fmt.Errorf("import: query kind %q: %w (name a JSONL file, kind list)", q.Kind, platform.ErrUnsupported)
	}
	var c cursor
	if len(cur) > 0 {
		if err := json.Unmarshal(cur, &c); err != nil {
			return platform.Page{}, fmt.Errorf("import %s: bad cursor: %w", q.Text, err)
		}
	}
	path, err := filepath.Abs(q.Text)
	if err != nil {
		return platform.Page{}, err
	}
	want := im.PagePosts
	if want <= 0 {
		want = DefaultPagePosts
	}
	rd, err := im.readers.take(path, c.Offset, c.Line, want)
	if err != nil {
		return platform.Page{}, err
	}
	fileURL := (&url.URL{Scheme: "file", Path: path}).String()
	// Room for the page's posts at once (up to a bound): it holds tens of
	// thousands, and growing the slice would copy them again and again.
	page := platform.Page{Posts: make([]platform.Post, 0, min(want, maxPrealloc)+chunkPosts)}
	seenAccounts := map[string]bool{}
	for len(page.Posts) < want {
		l, err := rd.next(ctx)
		if err == nil {
			err = l.err
		}
		if errors.Is(err, io.EOF) {
			page.Done = true
			break
		}
		if err != nil {
			rd.close()
			if ctx.Err() != nil {
				return platform.Page{}, err
			}
			return platform.Page{}, fmt.Errorf("import %s:%d: %w", path, l.no, err)
		}
		c.Offset, c.Line = l.end, l.no
		if len(l.body) == 0 {
			continue
		}
		uri := fileURL + "#line=" + strconv.FormatInt(c.Line, 10)
		rec, rerr := env.Record(uri, "application/json", l.body)
		if rerr != nil {
			rd.close()
			return platform.Page{}, fmt.Errorf("import %s:%d: archiving the line: %w", path, c.Line, rerr)
		}
		if l.perr != nil {
			// A bad line is archived and reported, and the import goes on.
			env.Log.Error("line skipped", "file", path, "line", c.Line, "error", l.perr.Error())
			continue
		}
		for i := range l.posts {
			l.posts[i].Source = rec
		}
		page.Posts = append(page.Posts, l.posts...)
		for _, a := range l.accs {
			if !seenAccounts[a.ID] {
				seenAccounts[a.ID] = true
				page.Accounts = append(page.Accounts, a)
			}
		}
	}
	if page.Done {
		rd.close()
	} else {
		im.readers.keep(rd, c.Offset)
	}
	page.Cursor, _ = json.Marshal(c)
	return page, nil
}

// readLine reads one line, its newline included.
func readLine(br *bufio.Reader) ([]byte, error) {
	var out []byte
	for {
		chunk, err := br.ReadSlice('\n')
		out = append(out, chunk...)
		if len(out) > maxLine {
			return out, fmt.Errorf("line over %d bytes", maxLine)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return out, err
		}
	}
}

// Parse reads one line of a collection: its posts and the accounts they
// show with their counts. The common shapes, a v2 page and a v1.1 tweet,
// are told apart by one decoding of the line into a v2 page that also
// takes the ids of a tweet; the others are probed first.
func Parse(line []byte) ([]platform.Post, []platform.Account, error) {
	var pg v2Page
	if err := decoder.Unmarshal(line, &pg); err == nil {
		switch {
		case pg.Data != nil:
			posts, accs := pg.posts()
			return posts, accs, nil
		case pg.IDStr != "":
			var t v1Tweet
			if err := decoder.Unmarshal(line, &t); err != nil {
				return nil, nil, fmt.Errorf("a v1.1 tweet: %w", err)
			}
			p, accs := t.post()
			return []platform.Post{p}, accs, nil
		}
	}
	return parseProbed(line)
}

// parseProbed reads a line of any shape, its shape probed first.
func parseProbed(line []byte) ([]platform.Post, []platform.Account, error) {
	var probe struct {
		Data  json.RawMessage `json:"data"`
		IDStr string          `json:"id_str"`
		ID    json.RawMessage `json:"id"`
	}
	if err := decoder.Unmarshal(line, &probe); err != nil {
		return nil, nil, fmt.Errorf("not JSON: %w", err)
	}
	switch {
	case len(probe.Data) > 0:
		return parseV2Page(line)
	case probe.IDStr != "":
		var t v1Tweet
		if err := decoder.Unmarshal(line, &t); err != nil {
			return nil, nil, fmt.Errorf("a v1.1 tweet: %w", err)
		}
		p, accs := t.post()
		return []platform.Post{p}, accs, nil
	case len(probe.ID) > 0:
		var t v2Tweet
		if err := decoder.Unmarshal(line, &t); err != nil {
			return nil, nil, fmt.Errorf("a v2 tweet: %w", err)
		}
		users := map[string]*platform.Account{}
		var accs []platform.Account
		if t.Author != nil {
			accs = append(accs, t.Author.account())
			users[t.Author.ID] = &accs[0]
		}
		return []platform.Post{t.post(users)}, accs, nil
	}
	return nil, nil, errors.New("neither a tweet (id, id_str) nor an API v2 page (data)")
}

const twitter = "https://twitter.com/"

// Twitter API v1.1 ---------------------------------------------------------

type v1User struct {
	IDStr      string `json:"id_str"`
	ScreenName string `json:"screen_name"`
	Name       string `json:"name"`
	Followers  *int64 `json:"followers_count"`
	Friends    *int64 `json:"friends_count"`
	Statuses   *int64 `json:"statuses_count"`
}

type v1Tweet struct {
	IDStr       string `json:"id_str"`
	Text        string `json:"text"`
	FullText    string `json:"full_text"`
	CreatedAt   string `json:"created_at"`
	Lang        string `json:"lang"`
	User        v1User `json:"user"`
	ReplyTo     string `json:"in_reply_to_status_id_str"`
	ReplyToUser string `json:"in_reply_to_screen_name"`
	QuotedID    string `json:"quoted_status_id_str"`
	Retweeted   *struct {
		IDStr string `json:"id_str"`
		User  struct {
			ScreenName string `json:"screen_name"`
		} `json:"user"`
	} `json:"retweeted_status"`
	Favorites *int64 `json:"favorite_count"`
	Retweets  *int64 `json:"retweet_count"`
	Replies   *int64 `json:"reply_count"`
	Extended  *struct {
		FullText string   `json:"full_text"`
		Entities entities `json:"entities"`
	} `json:"extended_tweet"`
	Entities entities `json:"entities"`
}

type entities struct {
	Hashtags []struct {
		Text string `json:"text"`
		Tag  string `json:"tag"`
	} `json:"hashtags"`
	Mentions []struct {
		ScreenName string `json:"screen_name"`
		Username   string `json:"username"`
	} `json:"user_mentions"`
	MentionsV2 []struct {
		Username string `json:"username"`
	} `json:"mentions"`
	URLs []struct {
		URL      string `json:"url"`
		Expanded string `json:"expanded_url"`
		Unwound  string `json:"unwound_url"`
	} `json:"urls"`
	Media []struct {
		HTTPS string `json:"media_url_https"`
	} `json:"media"`
}

func (e *entities) fill(p *platform.Post) {
	for _, h := range e.Hashtags {
		if t := h.Text + h.Tag; t != "" {
			p.Hashtags = append(p.Hashtags, t)
		}
	}
	for _, m := range e.Mentions {
		if n := m.ScreenName + m.Username; n != "" {
			p.Mentions = append(p.Mentions, twitter+n)
		}
	}
	for _, m := range e.MentionsV2 {
		if m.Username != "" {
			p.Mentions = append(p.Mentions, twitter+m.Username)
		}
	}
	for _, u := range e.URLs {
		switch {
		case u.Unwound != "":
			p.Links = append(p.Links, u.Unwound)
		case u.Expanded != "":
			p.Links = append(p.Links, u.Expanded)
		case u.URL != "":
			p.Links = append(p.Links, u.URL)
		}
	}
	for _, m := range e.Media {
		if m.HTTPS != "" {
			p.Media = append(p.Media, m.HTTPS)
		}
	}
}

func count(n *int64) int64 {
	if n == nil {
		return -1
	}
	return *n
}

func statusURL(handle, id string) string {
	if handle == "" {
		handle = "i/web"
	}
	return twitter + handle + "/status/" + id
}

func (t *v1Tweet) post() (platform.Post, []platform.Account) {
	p := platform.Post{Platform: "twitter", ID: t.IDStr, URL: statusURL(t.User.ScreenName, t.IDStr), Lang: t.Lang}
	p.Text = t.FullText
	if p.Text == "" {
		p.Text = t.Text
	}
	ents := &t.Entities
	if t.Extended != nil {
		p.Text, ents = t.Extended.FullText, &t.Extended.Entities
	}
	p.Created, _ = time.Parse(time.RubyDate, t.CreatedAt)
	a := platform.Account{Platform: "twitter", ID: t.User.IDStr, URL: twitter + t.User.ScreenName, Handle: t.User.ScreenName,
		Name: t.User.Name, Followers: count(t.User.Followers), Following: count(t.User.Friends), Posts: count(t.User.Statuses)}
	if t.User.ScreenName == "" {
		a.URL = ""
	}
	p.Author = a
	if t.ReplyTo != "" {
		p.ReplyTo = statusURL(t.ReplyToUser, t.ReplyTo)
	}
	if t.QuotedID != "" {
		p.Quotes = statusURL("", t.QuotedID)
	}
	if rt := t.Retweeted; rt != nil && rt.IDStr != "" {
		p.Reposts = statusURL(rt.User.ScreenName, rt.IDStr)
	}
	ents.fill(&p)
	if t.Favorites != nil || t.Retweets != nil || t.Replies != nil {
		p.Counts = &platform.Counts{Likes: count(t.Favorites), Reposts: count(t.Retweets), Replies: count(t.Replies)}
	}
	return p, []platform.Account{a}
}

// Twitter API v2 -----------------------------------------------------------

type v2User struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	Name     string `json:"name"`
	Metrics  *struct {
		Followers *int64 `json:"followers_count"`
		Following *int64 `json:"following_count"`
		Tweets    *int64 `json:"tweet_count"`
	} `json:"public_metrics"`
}

func (u *v2User) account() platform.Account {
	a := platform.Account{Platform: "twitter", ID: u.ID, Handle: u.Username, Name: u.Name, Followers: -1, Following: -1, Posts: -1}
	if u.Username != "" {
		a.URL = twitter + u.Username
	}
	if m := u.Metrics; m != nil {
		a.Followers, a.Following, a.Posts = count(m.Followers), count(m.Following), count(m.Tweets)
	}
	return a
}

type v2Tweet struct {
	ID         string   `json:"id"`
	Text       string   `json:"text"`
	CreatedAt  string   `json:"created_at"`
	AuthorID   string   `json:"author_id"`
	Lang       string   `json:"lang"`
	Entities   entities `json:"entities"`
	References []struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	} `json:"referenced_tweets"`
	Metrics *struct {
		Likes    *int64 `json:"like_count"`
		Retweets *int64 `json:"retweet_count"`
		Replies  *int64 `json:"reply_count"`
	} `json:"public_metrics"`
	Author *v2User `json:"author"` // twarc2 flatten
}

// post is the tweet as a post, its author taken from users (the accounts
// of the page's users, by id).
func (t *v2Tweet) post(users map[string]*platform.Account) platform.Post {
	p := platform.Post{Platform: "twitter", ID: t.ID, Text: t.Text, Lang: t.Lang}
	p.Created, _ = time.Parse(time.RFC3339, t.CreatedAt)
	handle := ""
	if a := users[t.AuthorID]; a != nil {
		handle = a.Handle
		p.Author = *a
		p.Author.Followers, p.Author.Following, p.Author.Posts = -1, -1, -1
	} else if t.AuthorID != "" {
		p.Author = platform.Account{Platform: "twitter", ID: t.AuthorID, Followers: -1, Following: -1, Posts: -1}
	}
	p.URL = statusURL(handle, t.ID)
	for _, r := range t.References {
		switch r.Type {
		case "replied_to":
			p.ReplyTo = statusURL("", r.ID)
		case "quoted":
			p.Quotes = statusURL("", r.ID)
		case "retweeted":
			p.Reposts = statusURL("", r.ID)
		}
	}
	t.Entities.fill(&p)
	if m := t.Metrics; m != nil {
		p.Counts = &platform.Counts{Likes: count(m.Likes), Reposts: count(m.Retweets), Replies: count(m.Replies)}
	}
	return p
}

type v2Page struct {
	Data     []v2Tweet `json:"data"`
	Includes struct {
		Users []v2User `json:"users"`
	} `json:"includes"`
	IDStr string `json:"id_str"` // a v1.1 tweet's, not a page's
}

// posts returns the page's posts and the accounts of its includes.
func (pg *v2Page) posts() ([]platform.Post, []platform.Account) {
	// Each user's account is built once, for the includes and for the
	// posts it wrote.
	accs := make([]platform.Account, len(pg.Includes.Users))
	users := make(map[string]*platform.Account, len(accs))
	for i := range pg.Includes.Users {
		u := &pg.Includes.Users[i]
		accs[i] = u.account()
		users[u.ID] = &accs[i]
	}
	posts := make([]platform.Post, 0, len(pg.Data))
	for i := range pg.Data {
		posts = append(posts, pg.Data[i].post(users))
	}
	return posts, accs
}

func parseV2Page(line []byte) ([]platform.Post, []platform.Account, error) {
	var pg v2Page
	if err := decoder.Unmarshal(line, &pg); err != nil {
		// A single tweet's response has data as an object.
		var one struct {
			Data     v2Tweet `json:"data"`
			Includes struct {
				Users []v2User `json:"users"`
			} `json:"includes"`
		}
		if err2 := decoder.Unmarshal(line, &one); err2 != nil {
			return nil, nil, fmt.Errorf("an API v2 page: %w", err)
		}
		pg.Data, pg.Includes.Users = []v2Tweet{one.Data}, one.Includes.Users
	}
	posts, accs := pg.posts()
	return posts, accs, nil
}
