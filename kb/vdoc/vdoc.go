// Package vdoc builds the virtual document that application-aware crawling
// rules are evaluated over: the parsed HTML of a page plus, in a synthetic
// <http> element, its URL, response headers and cookies, so that one XPath
// language covers rules on the markup, the headers and the URL alike.
//
// The <http> element is the first child of the document node:
//
//	<http>
//	  <url>https://example.org/wiki/Main_Page</url>
//	  <header name="x-generator">MediaWiki 1.39.4</header>
//	  <cookie name="wiki_session" value="…"/>
//	</http>
//	<html>…</html>
//
// Header names are lower-cased; a header sent several times gives several
// <header> elements. Cookies come from Set-Cookie (a response) and Cookie (a
// request) headers.
package vdoc

import (
	"bytes"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/antchfx/htmlquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Doc is one page as the rules see it. Its fields are read-only once built;
// a Doc may be shared by concurrent readers.
type Doc struct {
	URL *url.URL
	// Base is the URL relative links resolve against: the page's
	// <base href> when it has one, else URL.
	Base   *url.URL
	Header http.Header
	// Root is the document node: its first child is the <http> element,
	// then come the nodes of the parsed HTML.
	Root *html.Node
	// HTTP is the <http> element.
	HTTP *html.Node
	// Cookies maps cookie names to values.
	Cookies map[string]string
	// Body is the raw HTML, for rules on the markup as sent.
	Body []byte

	once  sync.Once
	index *index
}

// New parses body as HTML and builds the virtual document for a page
// fetched from rawURL with the given response headers (nil for none).
func New(rawURL string, header http.Header, body []byte) (*Doc, error) {
	d, err := Head(rawURL, header, body)
	if err != nil {
		return nil, err
	}
	root, err := html.Parse(bytes.NewReader(asHTML(d.Header, body)))
	if err != nil {
		return nil, err
	}
	d.Root.RemoveChild(d.HTTP)
	root.InsertBefore(d.HTTP, root.FirstChild)
	d.Root = root
	expandNoscript(root)
	if b := htmlquery.FindOne(root, "//base[@href]"); b != nil {
		if bu, err := d.URL.Parse(htmlquery.SelectAttr(b, "href")); err == nil {
			d.Base = bu
		}
	}
	return d, nil
}

// Head builds the virtual document of a page without parsing its HTML:
// Root holds the <http> element alone, Body the markup as sent. It is
// enough for Lower, which is all a literal prefilter reads, at a small
// part of New's cost; rules on the markup see no elements in it.
func Head(rawURL string, header http.Header, body []byte) (*Doc, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if header == nil {
		header = http.Header{}
	}
	d := &Doc{URL: u, Base: u, Header: header, Root: &html.Node{Type: html.DocumentNode}, Cookies: cookies(header), Body: body}
	d.HTTP = element("http")
	d.HTTP.AppendChild(textElement("url", u.String()))
	names := make([]string, 0, len(header))
	for name := range header {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, v := range header[name] {
			h := textElement("header", v)
			h.Attr = []html.Attribute{{Key: "name", Val: strings.ToLower(name)}}
			d.HTTP.AppendChild(h)
		}
	}
	cnames := make([]string, 0, len(d.Cookies))
	for name := range d.Cookies {
		cnames = append(cnames, name)
	}
	slices.Sort(cnames)
	for _, name := range cnames {
		c := element("cookie")
		c.Attr = []html.Attribute{{Key: "name", Val: name}, {Key: "value", Val: d.Cookies[name]}}
		d.HTTP.AppendChild(c)
	}
	d.Root.AppendChild(d.HTTP)
	return d, nil
}

// ForURL is the virtual document of a URL alone (no headers, no HTML),
// which navigation rules use to judge a link before it is fetched.
func ForURL(u *url.URL) *Doc {
	root := &html.Node{Type: html.DocumentNode}
	d := &Doc{URL: u, Base: u, Header: http.Header{}, Root: root, Cookies: map[string]string{}}
	d.HTTP = element("http")
	d.HTTP.AppendChild(textElement("url", u.String()))
	root.AppendChild(d.HTTP)
	return d
}

// expandNoscript parses the text of each <noscript> in the body as markup,
// which is what a crawler that runs no JavaScript sees there (JavaScript
// applications such as Discourse put their crawler view in it). The page
// itself is parsed as a browser with scripting would, so that <noscript>
// in the head does not move the rest of the page.
func expandNoscript(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Noscript && c.FirstChild != nil &&
			c.FirstChild == c.LastChild && c.FirstChild.Type == html.TextNode && c.Parent.DataAtom != atom.Head {
			ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
			nodes, err := html.ParseFragment(strings.NewReader(c.FirstChild.Data), ctx)
			if err == nil {
				c.RemoveChild(c.FirstChild)
				for _, k := range nodes {
					c.AppendChild(k)
				}
			}
			continue
		}
		expandNoscript(c)
	}
}

func cookies(h http.Header) map[string]string {
	out := map[string]string{}
	for _, c := range (&http.Response{Header: h}).Cookies() {
		out[c.Name] = c.Value
	}
	for _, c := range (&http.Request{Header: h}).Cookies() {
		out[c.Name] = c.Value
	}
	return out
}

func element(name string) *html.Node {
	return &html.Node{Type: html.ElementNode, Data: name, DataAtom: atom.Lookup([]byte(name))}
}

func textElement(name, text string) *html.Node {
	e := element(name)
	e.AppendChild(&html.Node{Type: html.TextNode, Data: text})
	return e
}

// Navigator returns a fresh XPath navigator positioned at the document node.
func (d *Doc) Navigator() *htmlquery.NodeNavigator {
	return htmlquery.CreateXPathNavigator(d.Root)
}
