package kb

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Text returns the visible text of n as sioc:content holds it: script,
// style and form controls left out, block elements and <br> separating
// words, white space collapsed.
func Text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
			return
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Button, atom.Select, atom.Textarea:
				return
			}
		case html.CommentNode:
			return
		}
		block := n.Type == html.ElementNode && blocks[n.DataAtom]
		if block {
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if block {
			b.WriteByte(' ')
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

var blocks = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Br: true, atom.Li: true, atom.Ul: true, atom.Ol: true,
	atom.Blockquote: true, atom.Pre: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true,
	atom.H5: true, atom.H6: true, atom.Td: true, atom.Th: true, atom.Tr: true, atom.Table: true,
	atom.Section: true, atom.Article: true, atom.Aside: true, atom.Header: true, atom.Footer: true,
	atom.Dd: true, atom.Dt: true, atom.Figure: true, atom.Figcaption: true, atom.Hr: true, atom.Img: true,
}
