package vdoc

import (
	"bytes"
	"net/http"
	"regexp"
	"strings"

	"golang.org/x/net/html/atom"
)

// XHTML pages (served as application/xhtml+xml, or saved by serialising a
// browser's DOM as XML) write empty elements as <x/>. An HTML parser
// ignores the slash, so <iframe .../> or <script .../> swallows the rest
// of the page as raw text and <div/> opens a box that never closes. Such
// pages are rewritten with explicit end tags before parsing.

var (
	selfClosing = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9:-]*)((?:\s[^<>]*?)?)\s*/>`)
	xhtmlRoot   = regexp.MustCompile(`(?i)<html[^>]*\sxmlns\s*=\s*["']http://www\.w3\.org/1999/xhtml["']`)
	// rawSelfClosing is a self-closing element whose HTML parse reads the
	// rest of the page as its text: no HTML page served as such has one.
	rawSelfClosing = regexp.MustCompile(`(?i)<(?:script|style|iframe|textarea|title|noscript|noembed|noframes|xmp)(?:\s[^<>]*?)?/>`)
)

// asHTML returns body with XHTML empty-element tags of non-void elements
// expanded (<x a="b"/> → <x a="b"></x>) when the page is XHTML: served as
// application/xhtml+xml, starting with an XML declaration, or with the
// XHTML namespace on <html> and a self-closing raw-text element. Other
// pages are returned as they are.
func asHTML(header http.Header, body []byte) []byte {
	ct := strings.ToLower(header.Get("Content-Type"))
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")), " \t\r\n")
	isXHTML := strings.Contains(ct, "application/xhtml+xml") || bytes.HasPrefix(trimmed, []byte("<?xml")) ||
		xhtmlRoot.Match(body) && rawSelfClosing.Match(body)
	if !isXHTML {
		return body
	}
	return selfClosing.ReplaceAllFunc(body, func(tag []byte) []byte {
		m := selfClosing.FindSubmatch(tag)
		name := strings.ToLower(string(m[1]))
		if voidElements[atom.Lookup([]byte(name))] {
			return tag
		}
		out := make([]byte, 0, len(tag)+len(name)+3)
		out = append(out, '<')
		out = append(out, m[1]...)
		out = append(out, m[2]...)
		out = append(out, "></"...)
		out = append(out, m[1]...)
		return append(out, '>')
	})
}

// voidElements have no end tag in HTML; <br/> is right as it is.
var voidElements = map[atom.Atom]bool{
	atom.Area: true, atom.Base: true, atom.Br: true, atom.Col: true, atom.Embed: true, atom.Hr: true,
	atom.Img: true, atom.Input: true, atom.Link: true, atom.Meta: true, atom.Source: true, atom.Track: true,
	atom.Wbr: true, atom.Param: true, atom.Keygen: true,
}
