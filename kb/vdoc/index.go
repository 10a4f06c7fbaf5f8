package vdoc

import (
	"encoding/binary"

	"golang.org/x/net/html"
)

// index is what one walk of the document collects for detection: the
// elements of each name. With it, the markup lower-cased.
type index struct {
	elems map[string][]*html.Node
	all   []*html.Node
	lower []byte
	http  [][]byte
}

func (d *Doc) built() *index {
	d.once.Do(func() {
		ix := &index{elems: map[string][]*html.Node{}}
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.ElementNode {
				ix.elems[n.Data] = append(ix.elems[n.Data], n)
				ix.all = append(ix.all, n)
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(d.Root)
		ix.lower = LowerASCII(d.Body)
		for _, t := range d.HTTPTexts() {
			ix.http = append(ix.http, LowerASCII(t))
		}
		d.index = ix
	})
	return d.index
}

// Elements returns the elements named name ("*": every element) in
// document order, <http> and its children included. The index behind it
// is built once, on first use, by one walk. The slice must not be
// modified.
func (d *Doc) Elements(name string) []*html.Node {
	ix := d.built()
	if name == "*" {
		return ix.all
	}
	return ix.elems[name]
}

// Lower returns the markup as sent (Body) with ASCII letters lower-cased,
// byte for byte, and the texts of the <http> element (URL, header names
// and values, cookie names and values) lower-cased alike: where literal
// prefilters look for the strings patterns need. Built once; the slices
// must not be modified.
func (d *Doc) Lower() (markup []byte, http [][]byte) {
	ix := d.built()
	return ix.lower, ix.http
}

// HTTPTexts returns the texts of the <http> element as sent: the URL,
// then header names and values, cookie names and values. Lower returns
// them lower-cased.
func (d *Doc) HTTPTexts() [][]byte {
	var out [][]byte
	for c := d.HTTP.FirstChild; c != nil; c = c.NextSibling {
		if c.Data == "url" && c.FirstChild != nil {
			out = append(out, []byte(c.FirstChild.Data))
		}
	}
	for c := d.HTTP.FirstChild; c != nil; c = c.NextSibling {
		if c.Data == "url" {
			continue
		}
		for _, a := range c.Attr {
			out = append(out, []byte(a.Val))
		}
		if c.FirstChild != nil {
			out = append(out, []byte(c.FirstChild.Data))
		}
	}
	return out
}

// LowerASCII returns a copy of b with its ASCII letters lower-cased. Byte
// offsets are kept, so a literal found in the copy is at the same place
// in b.
func LowerASCII(b []byte) []byte {
	out := make([]byte, len(b))
	i := 0
	// Eight bytes at a time: a byte of a word is an upper-case letter when
	// adding 0x80-'A' to its low seven bits carries into its top bit and
	// adding 0x80-'Z'-1 does not, and its own top bit is clear; the 0x20
	// bit of those bytes is then set.
	const ones, high = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		low := w &^ high
		upper := (low + ones*(0x80-'A')) &^ (low + ones*(0x80-'Z'-1)) &^ w & high
		binary.LittleEndian.PutUint64(out[i:], w|upper>>2)
	}
	for ; i < len(b); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
