// Package feed is the campaign platform of web feeds: RSS (0.9x, 1.0 and
// 2.0), Atom and JSON Feed, read with github.com/mmcdole/gofeed. A query
// names a feed by its URL (kind "list"); each page is one document of
// the feed, following paged feeds (RFC 5005 rel="next" links, JSON
// Feed's next_url, and WordPress's ?paged=N). The first page of every
// pass after the first is a conditional request (If-None-Match,
// If-Modified-Since from the validators the feed gave last time; for a
// server that gives none, a body identical to the last one's), so an
// unchanged feed costs one request and adds nothing.
package feed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/mmcdole/gofeed"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/mneme-archive/mneme/social/platform"
)

// Name is the platform's name in campaign specs.
const Name = "feed"

// MaxBody bounds a feed document.
const MaxBody = 32 << 20

// Feed is the feeds platform.
type Feed struct{}

// New returns the feeds platform.
func New() *Feed { return &Feed{} }

// Name implements platform.Platform.
func (*Feed) Name() string { return Name }

// cursor is the state of one feed between pages and passes.
type cursor struct {
	Next  string `json:"next,omitempty"`  // the next document of this pass; "" for the first
	Paged int    `json:"paged,omitempty"` // WordPress's page number of Next, when it pages so
	Prev  string `json:"prev,omitempty"`  // the items digest of the document before Next
	// The first document's validators, from the last pass.
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last-modified,omitempty"`
	Digest       string `json:"digest,omitempty"`
}

// Fetch implements platform.Platform: one document of the feed q names.
func (f *Feed) Fetch(ctx context.Context, env platform.Env, q platform.Query, cur []byte) (platform.Page, error) {
	if q.Kind != platform.ByList {
		return platform.Page{}, fmt.Errorf("feed: query kind %q: %w (a feed is named by its URL, kind list)", q.Kind, platform.ErrUnsupported)
	}
	feedURL, err := url.Parse(q.Text)
	if err != nil || (feedURL.Scheme != "http" && feedURL.Scheme != "https") || feedURL.Host == "" {
		return platform.Page{}, fmt.Errorf("feed: %q is not an http(s) URL", q.Text)
	}
	var st cursor
	if len(cur) > 0 {
		if err := json.Unmarshal(cur, &st); err != nil {
			return platform.Page{}, fmt.Errorf("feed %s: bad cursor: %w", q.Text, err)
		}
	}
	first := st.Next == ""
	target := st.Next
	if first {
		target = feedURL.String()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return platform.Page{}, fmt.Errorf("feed %s: %w", target, err)
	}
	req.Header.Set("Accept", "application/atom+xml, application/rss+xml, application/feed+json, application/xml;q=0.9, application/json;q=0.8, */*;q=0.5")
	// A private feed's credentials (secrets "token", or "username" and
	// "password"), sent to the feed's own host only.
	if req.URL.Host == feedURL.Host {
		if t := env.Credentials["token"]; t != "" {
			req.Header.Set("Authorization", "Bearer "+t)
		} else if u := env.Credentials["username"]; u != "" {
			req.SetBasicAuth(u, env.Credentials["password"])
		}
	}
	if first {
		if st.ETag != "" {
			req.Header.Set("If-None-Match", st.ETag)
		}
		if st.LastModified != "" {
			req.Header.Set("If-Modified-Since", st.LastModified)
		}
	}
	resp, err := env.HTTP.Do(req)
	if err != nil {
		return platform.Page{}, fmt.Errorf("feed %s: %w", target, err)
	}
	defer resp.Body.Close()
	endPass := func() (platform.Page, error) { return lastPage(platform.Page{}, st) }
	switch {
	case first && resp.StatusCode == http.StatusNotModified:
		return endPass()
	case st.Paged > 1 && resp.StatusCode == http.StatusNotFound:
		return endPass() // past WordPress's last page
	case resp.StatusCode != http.StatusOK:
		return platform.Page{}, fmt.Errorf("feed %s: HTTP %s", target, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	if err != nil {
		return platform.Page{}, fmt.Errorf("feed %s: reading the body: %w", target, err)
	}
	if len(body) > MaxBody {
		return platform.Page{}, fmt.Errorf("feed %s: over %d bytes", target, MaxBody)
	}
	parsed, err := gofeed.NewParser().Parse(bytes.NewReader(body))
	if err != nil {
		return platform.Page{}, fmt.Errorf("feed %s: not a feed (%s): %w", target, describe(resp, body), err)
	}
	digest := itemsDigest(parsed)
	if first && st.Digest == digest {
		// Unchanged items: how a feed without validators, or one whose
		// header changes at every request (MediaWiki's <updated>), says
		// that nothing is new.
		return endPass()
	}
	if !first && digest == st.Prev {
		// A page past the last served as the last again (WordPress's
		// comment feed of one post ignores ?paged).
		return endPass()
	}
	base := resp.Request.URL
	page := platform.Page{}
	for _, it := range parsed.Items {
		page.Posts = append(page.Posts, post(it, parsed, base, target))
	}
	if first {
		st.ETag, st.LastModified, st.Digest = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified"), digest
		if resp.Uncompressed {
			st.ETag = contentETag(st.ETag)
		}
	}
	next := nextLink(body, base)
	paged := 0
	if next == "" && len(parsed.Items) > 0 && strings.Contains(parsed.Generator, "wordpress.org") {
		paged = max(st.Paged, 1) + 1
		next = withQuery(feedURL, "paged", strconv.Itoa(paged))
	}
	if next == "" || next == target {
		return lastPage(page, st)
	}
	st.Next, st.Paged, st.Prev = next, paged, digest
	page.Cursor, _ = json.Marshal(st)
	return page, nil
}

// lastPage ends the pass with page: the next pass begins at the first
// document again, conditionally.
func lastPage(page platform.Page, st cursor) (platform.Page, error) {
	st.Next, st.Paged, st.Prev = "", 0, ""
	page.Cursor, _ = json.Marshal(st)
	page.Done = true
	return page, nil
}

// contentETag undoes what Apache's mod_deflate does to the ETag of a
// response it compresses: it appends "-gzip" (or "-br") inside the
// quotes, and the application behind it (WordPress, DokuWiki), which
// compares If-None-Match with its own ETag, never matches that
// (Apache bug 45023). The transport asked for gzip itself, so the
// entity's own ETag is the one to send back.
func contentETag(etag string) string {
	for _, suffix := range []string{`-gzip"`, `-br"`, `-deflate"`} {
		if strings.HasSuffix(etag, suffix) {
			return strings.TrimSuffix(etag, suffix) + `"`
		}
	}
	return etag
}

// itemsDigest identifies a feed document's items as they are.
func itemsDigest(f *gofeed.Feed) string {
	h := sha256.New()
	for _, it := range f.Items {
		for _, v := range []string{it.GUID, it.Link, it.Updated, it.Published, it.Title, it.Description, it.Content} {
			h.Write([]byte(v))
			h.Write([]byte{0})
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// describe says what a body that is not a feed looks like, for the log.
func describe(resp *http.Response, body []byte) string {
	ct := resp.Header.Get("Content-Type")
	head := strings.TrimSpace(string(body[:min(len(body), 64)]))
	head = strings.Map(func(r rune) rune {
		if r < ' ' {
			return ' '
		}
		return r
	}, head)
	return fmt.Sprintf("Content-Type %q, %d bytes beginning %q", ct, len(body), head)
}

// post maps a feed item.
func post(it *gofeed.Item, f *gofeed.Feed, base *url.URL, source string) platform.Post {
	p := platform.Post{Platform: Name, ID: it.GUID, Title: strings.TrimSpace(it.Title), Lang: f.Language, Source: source}
	p.URL = resolve(base, it.Link)
	if p.URL == "" && isURL(it.GUID) {
		p.URL = it.GUID
	}
	if p.ID == "" {
		p.ID = p.URL
	}
	content := it.Content
	if content == "" {
		content = it.Description
	}
	p.Text, p.Links = textAndLinks(content, base)
	switch {
	case it.PublishedParsed != nil:
		p.Created = *it.PublishedParsed
		if it.UpdatedParsed != nil && it.UpdatedParsed.After(p.Created) {
			p.Edited = *it.UpdatedParsed
		}
	case it.UpdatedParsed != nil:
		p.Created = *it.UpdatedParsed
	}
	var author *gofeed.Person
	if len(it.Authors) > 0 {
		author = it.Authors[0]
	} else if len(f.Authors) > 0 {
		author = f.Authors[0]
	}
	if author != nil && strings.TrimSpace(author.Name+author.Email) != "" {
		name := strings.TrimSpace(author.Name)
		if name == "" {
			name = author.Email
		}
		// A feed author has no profile URL: the account is the name on
		// the feed's site.
		site := base.Host
		if u, err := url.Parse(f.Link); err == nil && u.Host != "" {
			site = u.Host
		}
		p.Author = platform.Account{Platform: Name, ID: site + "/" + name, Name: name, Followers: -1, Following: -1, Posts: -1}
	}
	for _, c := range it.Categories {
		if c = strings.TrimSpace(c); c != "" {
			p.Hashtags = append(p.Hashtags, c)
		}
	}
	for _, e := range it.Enclosures {
		if u := resolve(base, e.URL); u != "" {
			p.Media = append(p.Media, u)
		}
	}
	return p
}

func isURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// resolve makes ref absolute against base; "" when it is not a web URL.
// The fragment stays: a comment's link is its post's URL and #comment-N.
func resolve(base *url.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return ""
	}
	u, err := base.Parse(ref)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	return u.String()
}

// textAndLinks returns an HTML fragment's text, spaces collapsed, and the
// absolute URLs of its links.
func textAndLinks(fragment string, base *url.URL) (string, []string) {
	if !strings.ContainsAny(fragment, "<&") {
		return strings.Join(strings.Fields(fragment), " "), nil
	}
	nodes, err := html.ParseFragment(strings.NewReader(fragment), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		return strings.Join(strings.Fields(fragment), " "), nil
	}
	var text strings.Builder
	var links []string
	seen := map[string]bool{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			text.WriteString(n.Data)
			text.WriteByte(' ')
		case html.ElementNode:
			if n.Data == "script" || n.Data == "style" {
				return
			}
			if n.Data == "a" {
				for _, a := range n.Attr {
					if a.Key == "href" {
						if u := resolve(base, a.Val); u != "" && !strings.HasPrefix(a.Val, "#") && !seen[u] {
							seen[u] = true
							links = append(links, u)
						}
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	return strings.Join(strings.Fields(text.String()), " "), links
}

// nextLink finds the URL of a paged feed's next document: a link element
// with rel="next" (Atom, or atom:link in RSS) before the first entry, or
// JSON Feed's next_url.
func nextLink(body []byte, base *url.URL) string {
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '{' {
		var jf struct {
			NextURL string `json:"next_url"`
		}
		if json.Unmarshal(body, &jf) == nil {
			return resolve(base, jf.NextURL)
		}
		return ""
	}
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = false
	for {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "item", "entry":
			return ""
		case "link":
			var rel, href string
			for _, a := range se.Attr {
				switch a.Name.Local {
				case "rel":
					rel = a.Value
				case "href":
					href = a.Value
				}
			}
			if rel == "next" {
				return resolve(base, href)
			}
		}
	}
}

// withQuery returns u with the query parameter name set to value.
func withQuery(u *url.URL, name, value string) string {
	c := *u
	q := c.Query()
	q.Set(name, value)
	c.RawQuery = q.Encode()
	return c.String()
}
