package extract

import (
	"bytes"
	"fmt"
	"io"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

const (
	// maxBlock bounds the text kept for one block; links further into a
	// giant block get the text before them.
	maxBlock = 16 << 10
	// maxToken bounds the tokenizer's buffer, so a document that is one
	// endless text run or tag cannot take unbounded memory.
	maxToken = 8 << 20
	// maxNoscript bounds how deep <noscript> markup is re-parsed.
	maxNoscript = 2
)

// htmlState is the state of one pass over an HTML document.
type htmlState struct {
	c       *collector
	anchor  int  // outlink of the open <a>, -1 when none
	inA     bool // inside an <a> (with or without a usable href)
	text    textBuf
	block   textBuf
	pending []pending // links of the current block awaiting its text
	raw     atom.Atom // the raw-text element whose content comes next
	depth   int       // <noscript> nesting being re-parsed
	// tokenize makes the tokenizer of the document and of the markup in
	// its <noscript> elements.
	tokenize func([]byte) tokenizer
	attrs    attrs    // of the current start tag
	content  *content // the document's content text, when gathered
}

type pending struct{ link, at int }

func (s *Standard) html(doc Document) ([]Outlink, error) {
	return s.htmlWith(doc, func(b []byte) tokenizer { return newScanner(b, maxToken) })
}

// htmlWith extracts with the tokenizers tokenize makes (the tests compare
// the scanner with x/net/html's Tokenizer on the same documents).
func (s *Standard) htmlWith(doc Document, tokenize func([]byte) tokenizer) ([]Outlink, error) {
	return s.htmlPass(doc, tokenize, nil)
}

// htmlPass is htmlWith, also gathering the content text in c when c is
// not nil.
func (s *Standard) htmlPass(doc Document, tokenize func([]byte) tokenizer, c *content) ([]Outlink, error) {
	body := doc.Text
	if body == nil {
		var err error
		if body, err = io.ReadAll(doc.Body); err != nil {
			return nil, fmt.Errorf("extract: %s: %w", doc.URL.Href, err)
		}
	}
	h := &htmlState{
		c:        s.newCollector(doc.URL),
		anchor:   -1,
		text:     textBuf{max: s.opts.MaxText},
		block:    textBuf{max: maxBlock},
		tokenize: tokenize,
		content:  c,
	}
	err := h.run(h.tokenize(body))
	h.closeAnchor()
	h.flushBlock()
	if err != nil {
		err = fmt.Errorf("extract: %s: %w", doc.URL.Href, err)
	}
	return h.c.result(), err
}

func (h *htmlState) run(z tokenizer) error {
	sc, _ := z.(*scanner)
	// The content text is the document's own, not that of the markup in
	// its <noscript> elements.
	c := h.content
	if h.depth > 0 {
		c = nil
	}
	for {
		if sc != nil {
			// The text the case below would ignore need not be a token.
			sc.skipText = h.raw == 0 && !h.inA && h.c.opts.MaxParagraph <= 0 && c == nil
		}
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF {
				return err
			}
			return nil
		case html.TextToken:
			// Text unescapes and copies: only for text something reads.
			if h.raw != 0 || h.inA || h.c.opts.MaxParagraph > 0 || c != nil {
				t := z.Text()
				if c != nil {
					c.text(t)
				}
				h.textToken(t)
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := tagAtom(name)
			if c != nil && tt == html.StartTagToken && (sc == nil || !sc.selfClosing()) {
				c.tag(a, false)
			}
			h.startTag(z, a, hasAttr)
		case html.EndTagToken:
			name, _ := z.TagName()
			h.raw = 0
			a := tagAtom(name)
			if c != nil {
				c.tag(a, true)
			}
			h.endTag(a)
		}
	}
}

// tagAtom is atom.Lookup, with the commonest tags of pages found by a
// switch rather than by hashing.
func tagAtom(name []byte) atom.Atom {
	switch len(name) {
	case 1:
		switch name[0] {
		case 'a':
			return atom.A
		case 'p':
			return atom.P
		case 'b':
			return atom.B
		case 'i':
			return atom.I
		}
	case 2:
		switch string(name) {
		case "li":
			return atom.Li
		case "td":
			return atom.Td
		case "tr":
			return atom.Tr
		case "br":
			return atom.Br
		case "ul":
			return atom.Ul
		case "em":
			return atom.Em
		}
	case 3:
		switch string(name) {
		case "div":
			return atom.Div
		case "img":
			return atom.Img
		case "nav":
			return atom.Nav
		}
	case 4:
		switch string(name) {
		case "span":
			return atom.Span
		case "link":
			return atom.Link
		case "meta":
			return atom.Meta
		}
	}
	return atom.Lookup(name)
}

func (h *htmlState) textToken(t []byte) {
	raw := h.raw
	h.raw = 0
	switch raw {
	case 0:
		if h.c.opts.MaxParagraph > 0 {
			h.block.write(t)
		}
		if h.inA {
			h.text.write(t)
		}
	case atom.Style:
		h.c.css(t)
	case atom.Noscript:
		// Browsers without scripting parse it as markup: its fallback
		// images and links are real.
		if h.depth < maxNoscript {
			h.depth++
			h.run(h.tokenize(t)) // an error here only ends the fallback markup
			h.depth--
		}
	}
	// script, title, textarea, iframe … content is neither text nor markup here
}

// attrs holds the attributes of one tag that matter for links; the slices
// point into the tokenizer's buffer and live until the next token.
type attrs struct {
	href, src, srcset, rel, style, content, httpEquiv, method, action, data,
	poster, background, alt, dataSrc, dataSrcset []byte
}

// readAttrs sets a to the tag's attributes that matter.
func readAttrs(a *attrs, z tokenizer, more bool) {
	*a = attrs{}
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		if p := a.field(k); p != nil {
			*p = v
		}
	}
}

// field returns the field of attribute k, nil for attributes that do not
// matter (a switch on the length first: most attributes of a page, class,
// id, title, are none of these).
func (a *attrs) field(k []byte) *[]byte {
	switch len(k) {
	case 3:
		if string(k) == "src" {
			return &a.src
		} else if string(k) == "rel" {
			return &a.rel
		} else if string(k) == "alt" {
			return &a.alt
		}
	case 4:
		if string(k) == "href" {
			return &a.href
		} else if string(k) == "data" {
			return &a.data
		}
	case 5:
		if string(k) == "style" {
			return &a.style
		}
	case 6:
		switch string(k) {
		case "srcset":
			return &a.srcset
		case "method":
			return &a.method
		case "action":
			return &a.action
		case "poster":
			return &a.poster
		}
	case 7:
		if string(k) == "content" {
			return &a.content
		}
	case 8:
		if string(k) == "data-src" {
			return &a.dataSrc
		}
	case 10:
		switch string(k) {
		case "http-equiv":
			return &a.httpEquiv
		case "background":
			return &a.background
		}
	case 11:
		if string(k) == "data-srcset" {
			return &a.dataSrcset
		}
	case 13:
		switch string(k) {
		case "data-original", "data-lazy-src":
			return &a.dataSrc
		}
	}
	return nil
}

func (h *htmlState) startTag(z tokenizer, tag atom.Atom, hasAttr bool) {
	h.raw = 0
	switch tag {
	case atom.Style, atom.Noscript, atom.Script, atom.Title, atom.Textarea, atom.Iframe, atom.Xmp, atom.Noembed, atom.Noframes, atom.Plaintext:
		h.raw = tag
	}
	if isBlock(tag) {
		h.flushBlock()
	}
	if tag == atom.Br {
		h.block.separate()
		h.text.separate()
	}
	if tag == atom.A {
		h.closeAnchor()
	}
	if !hasAttr {
		if tag == atom.A {
			h.inA = true
		}
		return
	}
	a := &h.attrs
	readAttrs(a, z, hasAttr)
	c := h.c
	if ctx := srcContext(tag); ctx != "" {
		h.embed(a.src, ctx)
	}
	if ctx := backgroundContext(tag); ctx != "" {
		h.embed(a.background, ctx)
	}
	switch tag {
	case atom.A:
		h.inA = true
		if a.href != nil {
			h.anchor = c.add(a.href, Link, "a/@href")
			h.inBlock(h.anchor)
		}
	case atom.Area:
		if a.href != nil {
			h.inBlock(c.add(a.href, Link, "area/@href"))
		}
	case atom.Link:
		h.linkTag(a)
	case atom.Base:
		if a.href != nil {
			c.setBase(a.href)
		}
	case atom.Img:
		h.srcset(a.srcset, "img/@srcset")
		h.embed(a.dataSrc, "img/@data-src")
		h.srcset(a.dataSrcset, "img/@data-srcset")
		if h.inA && len(a.alt) > 0 {
			h.text.separate()
			h.text.write(a.alt)
		}
	case atom.Source:
		h.srcset(a.srcset, "source/@srcset")
	case atom.Video:
		h.embed(a.poster, "video/@poster")
	case atom.Object:
		h.embed(a.data, "object/@data")
	case atom.Form:
		if a.action != nil && (len(a.method) == 0 || bytes.EqualFold(a.method, []byte("get"))) {
			c.add(a.action, Link, "form/@action")
		}
	case atom.Meta:
		if bytes.EqualFold(a.httpEquiv, []byte("refresh")) {
			if u := refreshURL(a.content); u != nil {
				c.add(u, Redirect, "meta")
			}
		}
	}
	if a.style != nil {
		c.css(a.style)
	}
}

// embedRel maps the link relations that make embeds to their contexts.
var embedRel = map[string]string{
	"icon":          "link[rel='icon']/@href",
	"stylesheet":    "link[rel='stylesheet']/@href",
	"modulepreload": "link[rel='modulepreload']/@href",
	"prefetch":      "link[rel='prefetch']/@href",
	"prerender":     "link[rel='prerender']/@href",
}

// srcContext is the Heritrix context of the src attribute of the
// elements where it names an embedded resource, "" for the others.
func srcContext(tag atom.Atom) string {
	switch tag {
	case atom.Img:
		return "img/@src"
	case atom.Script:
		return "script/@src"
	case atom.Iframe:
		return "iframe/@src"
	case atom.Frame:
		return "frame/@src"
	case atom.Source:
		return "source/@src"
	case atom.Video:
		return "video/@src"
	case atom.Audio:
		return "audio/@src"
	case atom.Track:
		return "track/@src"
	case atom.Embed:
		return "embed/@src"
	case atom.Input:
		return "input/@src"
	}
	return ""
}

// backgroundContext is the context of the background attribute of the
// elements that have one.
func backgroundContext(tag atom.Atom) string {
	switch tag {
	case atom.Body:
		return "body/@background"
	case atom.Table:
		return "table/@background"
	case atom.Td:
		return "td/@background"
	}
	return ""
}

func (h *htmlState) endTag(tag atom.Atom) {
	if tag == atom.A {
		h.closeAnchor()
	}
	if isBlock(tag) {
		h.flushBlock()
	}
}

func (h *htmlState) embed(v []byte, context string) {
	if v != nil {
		h.c.add(v, Embed, context)
	}
}

// linkTag follows Heritrix's processLinkTagWithRel: the first embed-like
// relation makes an embed, pingback and missing relations nothing, resource
// hints are ignored, and any other relation (canonical, alternate, next …)
// makes a navigational link.
func (h *htmlState) linkTag(a *attrs) {
	if a.href == nil || a.rel == nil {
		return
	}
	nav := false
	for _, kw := range bytes.Fields(a.rel) {
		rel := string(bytes.ToLower(kw))
		if ctx, ok := embedRel[rel]; ok {
			h.c.add(a.href, Embed, ctx)
			return
		}
		switch rel {
		case "pingback":
			return
		case "dns-prefetch", "preconnect":
		default:
			nav = true
		}
	}
	if nav {
		h.c.add(a.href, Link, "link/@href")
	}
}

// srcset adds each image candidate URL of a srcset attribute (HTML's "parse
// a srcset attribute": a URL, then descriptors up to a comma).
func (h *htmlState) srcset(v []byte, context string) {
	for len(v) > 0 {
		i := 0
		for i < len(v) && (isSpace(v[i]) || v[i] == ',') {
			i++
		}
		v = v[i:]
		j := 0
		for j < len(v) && !isSpace(v[j]) {
			j++
		}
		u := v[:j]
		v = v[j:]
		if n := len(bytes.TrimRight(u, ",")); n < len(u) {
			u = u[:n] // "a.jpg," has no descriptors
		} else {
			depth := 0
			k := 0
			for ; k < len(v) && (v[k] != ',' || depth > 0); k++ {
				switch v[k] {
				case '(':
					depth++
				case ')':
					depth = max(depth-1, 0)
				}
			}
			v = v[k:]
		}
		if len(u) > 0 {
			h.c.add(u, Embed, context)
		}
	}
}

// refreshURL returns the URL of a meta refresh content value ("5; url=…"),
// or nil when it only reloads the page.
func refreshURL(v []byte) []byte {
	v = bytes.TrimLeft(v, " \t\n\f\r")
	v = bytes.TrimLeft(v, "0123456789.")
	v = bytes.TrimLeft(v, " \t\n\f\r")
	if len(v) > 0 && (v[0] == ';' || v[0] == ',') {
		v = bytes.TrimLeft(v[1:], " \t\n\f\r")
	}
	if len(v) >= 3 && bytes.EqualFold(v[:3], []byte("url")) {
		rest := bytes.TrimLeft(v[3:], " \t\n\f\r")
		if len(rest) > 0 && rest[0] == '=' {
			v = bytes.TrimLeft(rest[1:], " \t\n\f\r")
		}
	}
	if len(v) > 0 && (v[0] == '\'' || v[0] == '"') {
		if end := bytes.IndexByte(v[1:], v[0]); end >= 0 {
			v = v[1 : 1+end]
		} else {
			v = v[1:]
		}
	}
	v = bytes.TrimRight(v, " \t\n\f\r")
	if len(v) == 0 {
		return nil
	}
	return v
}

// inBlock registers a link for the text of the block it appears in.
func (h *htmlState) inBlock(link int) {
	if link >= 0 && h.c.out[link].Paragraph == "" && h.c.opts.MaxParagraph > 0 {
		h.pending = append(h.pending, pending{link, len(h.block.b)})
	}
}

func (h *htmlState) closeAnchor() {
	if h.anchor >= 0 {
		h.c.setText(h.anchor, validPrefix(h.text.b))
	}
	h.anchor = -1
	h.inA = false
	h.text.reset()
}

// flushBlock gives the links of the block that just ended its text.
func (h *htmlState) flushBlock() {
	if len(h.pending) > 0 {
		s := h.block.string()
		for _, p := range h.pending {
			if l := &h.c.out[p.link]; l.Paragraph == "" {
				l.Paragraph = window(s, p.at, h.c.opts.MaxParagraph)
			}
		}
		h.pending = h.pending[:0]
	}
	h.block.reset()
}

// isBlock reports elements whose boundaries end a paragraph of text.
func isBlock(a atom.Atom) bool {
	switch a {
	case atom.P, atom.Div, atom.Li, atom.Ul, atom.Ol, atom.Dl, atom.Dt, atom.Dd, atom.Td, atom.Th, atom.Tr,
		atom.Table, atom.Caption, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Section,
		atom.Article, atom.Header, atom.Footer, atom.Nav, atom.Aside, atom.Main, atom.Blockquote, atom.Pre,
		atom.Figure, atom.Figcaption, atom.Form, atom.Body, atom.Address, atom.Details, atom.Summary,
		atom.Fieldset, atom.Hr, atom.Html, atom.Head:
		return true
	}
	return false
}
