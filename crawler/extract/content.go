package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// MaxContent bounds the content text kept per document.
const MaxContent = 64 << 10

// content gathers the visible text of an HTML document without its
// navigation chrome, token by token: the text of its main and article
// elements when it has any, else that of its body outside nav, header,
// footer and aside; script, style, template, noscript and title contents
// never count, and a block element starts a new line (so that a text's
// blocks can be told apart: the focus analysis counts a block that comes
// back on other pages once).
type content struct {
	main, body           strings.Builder
	skip, chrome, inMain int
	// bodyN is the length the body text has or would have: once main
	// holds text the body is no longer kept (it is not the result), but
	// still counts towards MaxContent as it did.
	bodyN int
	// size is how long the text may get (the document's, at most about
	// MaxContent): the text's builder takes it at its first text, rather
	// than growing by copies.
	size int
}

// newContent returns the content of a document of n bytes.
func newContent(n int) content { return content{size: min(n, MaxContent+4096)} }

// bodyByte and bodyText add to the body text.
func (c *content) bodyByte(b byte) {
	if c.main.Len() == 0 {
		c.body.WriteByte(b)
	}
	c.bodyN++
}

func (c *content) bodyText(t []byte) {
	if c.main.Len() == 0 {
		if c.body.Len() >= 1024 && c.body.Cap() < c.size {
			// Past the spaces and the few words a page with a main
			// element has outside it.
			c.body.Grow(c.size - c.body.Len())
		}
		c.body.Write(t)
		c.body.WriteByte(' ')
	}
	c.bodyN += len(t) + 1
}

// tag takes a start tag (end false) or an end tag; self-closing tags do
// not count.
func (c *content) tag(a atom.Atom, end bool) {
	d := 1
	if end {
		d = -1
	}
	switch a {
	case atom.Script, atom.Style, atom.Template, atom.Noscript, atom.Title:
		c.skip = max(0, c.skip+d)
	case atom.Nav, atom.Header, atom.Footer, atom.Aside:
		c.chrome = max(0, c.chrome+d)
	case atom.Main, atom.Article:
		c.inMain = max(0, c.inMain+d)
	case atom.P, atom.Div, atom.Li, atom.Br, atom.Td, atom.H1, atom.H2, atom.H3, atom.H4, atom.Dt, atom.Dd, atom.Pre:
		if c.skip == 0 {
			c.bodyByte('\n')
			if c.inMain > 0 {
				c.main.WriteByte('\n')
			}
		}
	}
}

// text takes a text token.
func (c *content) text(t []byte) {
	if c.skip > 0 || c.bodyN+c.main.Len() > MaxContent {
		return
	}
	if c.inMain > 0 {
		if c.main.Cap() == 0 {
			c.main.Grow(c.size)
		}
		c.main.Write(t)
		c.main.WriteByte(' ')
	}
	if c.chrome == 0 {
		c.bodyText(t)
	}
}

func (c *content) String() string {
	if c.main.Len() > 0 {
		return c.main.String()
	}
	return c.body.String()
}

// ContentText returns the visible text of an HTML document without its
// navigation chrome (see content), as ExtractContent does in its pass.
func ContentText(doc []byte) string {
	z := newScanner(doc, maxToken)
	c := newContent(len(doc))
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			return c.String()
		case html.StartTagToken, html.EndTagToken:
			if z.selfClosing() {
				continue
			}
			name, _ := z.TagName()
			c.tag(tagAtom(name), tt == html.EndTagToken)
		case html.TextToken:
			c.text(z.Text())
		}
	}
}

// ExtractContent is Extract, also returning the content text of an HTML
// document (ContentText) found in the same pass; for other documents the
// text is "".
func (s *Standard) ExtractContent(doc Document) ([]Outlink, string, error) {
	if !IsHTML(doc.MediaType) {
		out, err := s.Extract(doc)
		return out, "", err
	}
	c := newContent(len(doc.Text))
	out, err := s.htmlPass(doc, func(b []byte) tokenizer { return newScanner(b, maxToken) }, &c)
	return out, c.String(), err
}
