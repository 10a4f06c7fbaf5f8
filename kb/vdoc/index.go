package vdoc

import (
	"bytes"

	"golang.org/x/net/html"
)

// index is what one walk of the document collects for detection: the
// elements of each name, and the corpus of string values.
type index struct {
	elems  map[string][]*html.Node
	all    []*html.Node
	corpus []byte
}

func (d *Doc) built() *index {
	d.once.Do(func() {
		ix := &index{elems: map[string][]*html.Node{}}
		var text, rest bytes.Buffer
		text.Grow(len(d.Body))
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			switch n.Type {
			case html.TextNode:
				text.WriteString(n.Data)
			case html.CommentNode:
				rest.WriteString(n.Data)
				rest.WriteByte(0)
			case html.ElementNode:
				ix.elems[n.Data] = append(ix.elems[n.Data], n)
				ix.all = append(ix.all, n)
				for _, a := range n.Attr {
					rest.WriteString(a.Val)
					rest.WriteByte(0)
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(d.Root)
		text.WriteByte(0)
		text.Write(rest.Bytes())
		ix.corpus = text.Bytes()
		d.index = ix
	})
	return d.index
}

// Elements returns the elements named name ("*": every element) in
// document order, <http> and its children included. The index behind it
// is built once, on first use, by one walk that also builds the corpus.
// The slice must not be modified.
func (d *Doc) Elements(name string) []*html.Node {
	ix := d.built()
	if name == "*" {
		return ix.all
	}
	return ix.elems[name]
}

// Corpus returns every string value a node of the document can have, so
// that a literal an XPath predicate requires of some node (contains(@x,'L'),
// text()='L', …) is a substring of it: all text nodes concatenated in
// document order (an element's string value is a contiguous run of them),
// then NUL, then each attribute value and comment followed by NUL. Index
// prefilters search it for literals before evaluating any expression.
// The slice must not be modified.
func (d *Doc) Corpus() []byte { return d.built().corpus }
