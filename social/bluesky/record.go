package bluesky

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/mneme-archive/mneme/social/platform"
)

// record is an app.bsky.feed.post record, as the lexicon defines it.
type record struct {
	Text      string   `json:"text"`
	CreatedAt string   `json:"createdAt"`
	Langs     []string `json:"langs"`
	Tags      []string `json:"tags"`
	Facets    []struct {
		Features []struct {
			Type string `json:"$type"`
			URI  string `json:"uri"` // #link
			DID  string `json:"did"` // #mention
			Tag  string `json:"tag"` // #tag
		} `json:"features"`
	} `json:"facets"`
	Reply *struct {
		Root   strongRef `json:"root"`
		Parent strongRef `json:"parent"`
	} `json:"reply"`
	Embed *embed `json:"embed"`
}

type strongRef struct {
	URI string `json:"uri"`
	CID string `json:"cid"`
}

type blob struct {
	Ref struct {
		Link string `json:"$link"`
	} `json:"ref"`
	MimeType string `json:"mimeType"`
}

// embed is the union of the post embeds: images, video, external link,
// record (a quote) and record with media.
type embed struct {
	Type   string `json:"$type"`
	Images []struct {
		Image blob `json:"image"`
	} `json:"images"`
	Video    *blob `json:"video"`
	External *struct {
		URI string `json:"uri"`
	} `json:"external"`
	// Record is a strongRef in app.bsky.embed.record, and a nested
	// app.bsky.embed.record in app.bsky.embed.recordWithMedia.
	Record json.RawMessage `json:"record"`
	Media  *embed          `json:"media"`
}

const (
	facetLink    = "app.bsky.richtext.facet#link"
	facetMention = "app.bsky.richtext.facet#mention"
	facetTag     = "app.bsky.richtext.facet#tag"
)

func (r *record) hashtags() []string {
	var out []string
	for _, f := range r.Facets {
		for _, ft := range f.Features {
			if ft.Type == facetTag && ft.Tag != "" {
				out = append(out, ft.Tag)
			}
		}
	}
	return append(out, r.Tags...)
}

// quoted returns the AT-URI of the post an embed quotes.
func (e *embed) quoted() string {
	if e == nil || len(e.Record) == 0 {
		return ""
	}
	var ref struct {
		URI    string `json:"uri"`
		Record *struct {
			URI string `json:"uri"`
		} `json:"record"`
	}
	if json.Unmarshal(e.Record, &ref) != nil {
		return ""
	}
	if ref.Record != nil {
		return ref.Record.URI
	}
	return ref.URI
}

// media returns the URLs of an embed's images and video on Bluesky's CDN.
func (e *embed) media(did string) []string {
	if e == nil {
		return nil
	}
	var out []string
	for _, im := range e.Images {
		if l := im.Image.Ref.Link; l != "" {
			out = append(out, "https://cdn.bsky.app/img/feed_fullsize/plain/"+did+"/"+l+"@jpeg")
		}
	}
	if e.Video != nil && e.Video.Ref.Link != "" {
		out = append(out, "https://video.bsky.app/watch/"+did+"/"+e.Video.Ref.Link+"/playlist.m3u8")
	}
	return append(out, e.Media.media(did)...)
}

// postView is app.bsky.feed.defs#postView: a post with its author.
type postView struct {
	URI    string `json:"uri"`
	Author struct {
		DID            string `json:"did"`
		Handle         string `json:"handle"`
		DisplayName    string `json:"displayName"`
		FollowersCount *int64 `json:"followersCount"`
		FollowsCount   *int64 `json:"followsCount"`
		PostsCount     *int64 `json:"postsCount"`
	} `json:"author"`
	Record      record `json:"record"`
	LikeCount   *int64 `json:"likeCount"`
	RepostCount *int64 `json:"repostCount"`
	ReplyCount  *int64 `json:"replyCount"`
}

// mapper turns the records of one page into posts and accounts.
type mapper struct {
	now      time.Time
	posts    []platform.Post
	accounts platform.AccountSet
	seen     map[string]bool // AT-URIs of the page's posts
	roots    []string        // AT-URIs of the threads answered
	quoted   []string        // AT-URIs quoted
	authors  []string
	handles  map[string]string // DID -> handle, from identity events
}

func newMapper(now time.Time) *mapper {
	return &mapper{now: now, seen: map[string]bool{}, handles: map[string]string{}}
}

func (m *mapper) account(did string) *platform.Account {
	a, ok := m.accounts.Get(did)
	if !ok {
		a = platform.Account{Platform: Name, ID: did, URL: ProfileURL(did), Handle: m.handles[did],
			Followers: -1, Following: -1, Posts: -1, ObservedAt: m.now}
		m.accounts.Put(did, a)
	}
	return &a
}

// add maps the record of post did/rkey; an update's edit time is the
// event's (µs).
func (m *mapper) add(did, rkey string, r *record, source string, update bool, timeUS int64) {
	uri := "at://" + did + "/" + postCollection + "/" + rkey
	m.seen[uri] = true
	p := platform.Post{Platform: Name, ID: uri, URL: PostURL(did, rkey), Text: r.Text, Author: *m.account(did), Source: source}
	if t, err := time.Parse(time.RFC3339Nano, r.CreatedAt); err == nil {
		p.Created = t.UTC()
	}
	if update {
		p.Edited = time.UnixMicro(timeUS).UTC()
	}
	if len(r.Langs) > 0 {
		p.Lang = r.Langs[0]
	}
	for _, f := range r.Facets {
		for _, ft := range f.Features {
			switch ft.Type {
			case facetLink:
				p.Links = append(p.Links, ft.URI)
			case facetMention:
				p.Mentions = append(p.Mentions, ProfileURL(ft.DID))
			}
		}
	}
	p.Hashtags = r.hashtags()
	if r.Reply != nil {
		p.ReplyTo = webURL(r.Reply.Parent.URI)
		m.roots = append(m.roots, r.Reply.Root.URI)
	}
	if r.Embed != nil {
		if q := r.Embed.quoted(); q != "" {
			p.Quotes = webURL(q)
			m.quoted = append(m.quoted, q)
		}
		if r.Embed.External != nil && r.Embed.External.URI != "" && !slices.Contains(p.Links, r.Embed.External.URI) {
			p.Links = append(p.Links, r.Embed.External.URI)
		}
		p.Media = r.Embed.media(did)
	}
	m.posts = append(m.posts, p)
	if !slices.Contains(m.authors, did) {
		m.authors = append(m.authors, did)
	}
}

// view maps a post view, its author's handle, name and counts included.
func (m *mapper) view(pv *postView, source string) {
	if pv == nil {
		return
	}
	did, rkey, ok := splitATURI(pv.URI)
	if !ok || m.seen[pv.URI] {
		return
	}
	a := m.account(did)
	a.Handle, a.Name = pv.Author.Handle, pv.Author.DisplayName
	for _, c := range []struct{ v, dst *int64 }{
		{pv.Author.FollowersCount, &a.Followers}, {pv.Author.FollowsCount, &a.Following}, {pv.Author.PostsCount, &a.Posts},
	} {
		if c.v != nil {
			*c.dst = *c.v
		}
	}
	m.accounts.Put(did, *a)
	m.add(did, rkey, &pv.Record, source, false, 0)
	c := &platform.Counts{Likes: -1, Reposts: -1, Replies: -1}
	for _, n := range []struct{ v, dst *int64 }{{pv.LikeCount, &c.Likes}, {pv.RepostCount, &c.Reposts}, {pv.ReplyCount, &c.Replies}} {
		if n.v != nil {
			*n.dst = *n.v
		}
	}
	m.posts[len(m.posts)-1].Counts = c
}

// deleted records that the author deleted a post.
func (m *mapper) deleted(did, rkey string) {
	uri := "at://" + did + "/" + postCollection + "/" + rkey
	m.posts = append(m.posts, platform.Post{Platform: Name, ID: uri, URL: PostURL(did, rkey), Deleted: true,
		Author: *m.account(did)})
}

// more derives the strategy's next queries: from a keyword or hashtag
// page, its authors' posts over the same window; the threads of the posts
// it answers (by their roots); lookups of the posts it quotes (25 a
// request).
func (m *mapper) more(q platform.Query) []platform.Query {
	var out []platform.Query
	if q.Kind == platform.ByKeyword || q.Kind == platform.ByHashtag {
		for _, a := range m.authors {
			out = append(out, platform.Query{Kind: platform.ByAccount, Text: a, Since: q.Since, Until: q.Until})
		}
	}
	var roots []string
	for _, u := range m.roots {
		if _, _, ok := splitATURI(u); ok && !slices.Contains(roots, u) {
			roots = append(roots, u)
			out = append(out, platform.Query{Kind: platform.ByThread, Text: u})
		}
	}
	var uris []string
	for _, u := range m.quoted {
		if _, _, ok := splitATURI(u); ok && !m.seen[u] && !slices.Contains(uris, u) {
			uris = append(uris, u)
		}
	}
	for len(uris) > 0 {
		n := min(len(uris), 25)
		out = append(out, platform.Query{Kind: platform.ByPost, Text: strings.Join(uris[:n], " ")})
		uris = uris[n:]
	}
	return out
}
