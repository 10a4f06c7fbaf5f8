package extract

import (
	"github.com/mneme-archive/mneme/crawler/canon"
)

// collector accumulates the outlinks of one document: it resolves each
// reference once, keeps each URL once per hop type and stops at MaxOutlinks.
type collector struct {
	opts     *Options
	base     canon.URL
	baseSet  bool // a <base href> was applied; later ones are ignored
	out      []Outlink
	index    map[key]int    // position in out of each URL and hop
	resolved map[string]ref // reference as written → resolution, for repeated hrefs
}

type key struct {
	href string
	hop  Hop
}

type ref struct {
	u  canon.URL
	ok bool
}

func (s *Standard) newCollector(base canon.URL) *collector {
	c := &collector{
		opts:     &s.opts,
		base:     base,
		out:      make([]Outlink, 0, 128), // a page has about a hundred references
		index:    make(map[key]int, 128),
		resolved: make(map[string]ref, 128),
	}
	return c
}

// setBase applies the first <base href>, as browsers do.
func (c *collector) setBase(raw []byte) {
	if c.baseSet {
		return
	}
	c.baseSet = true
	if u, err := c.opts.Canonicalizer.Resolve(c.base, trimSpace(string(raw))); err == nil && u.Hierarchical() {
		c.base = u
		clear(c.resolved)
	}
}

// add records a reference found in the document and returns its position in
// out, or -1 when it is not a crawlable URL or the limit is reached.
func (c *collector) add(raw []byte, hop Hop, context string) int {
	r, ok := c.resolved[string(raw)]
	if !ok {
		written := string(raw)
		if s := trimSpace(written); !skipRef(s) {
			r = c.resolve(s)
		}
		c.resolved[written] = r
	}
	if !r.ok {
		return -1
	}
	k := key{r.u.Href, hop}
	if i, dup := c.index[k]; dup {
		return i
	}
	if len(c.out) >= c.opts.MaxOutlinks {
		return -1
	}
	c.index[k] = len(c.out)
	c.out = append(c.out, Outlink{URL: r.u, Hop: hop, Context: context})
	return len(c.out) - 1
}

// trimSpace strips HTML whitespace (space, tab, LF, FF, CR) from both ends.
func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r' }

// resolve resolves a reference against the document's base.
func (c *collector) resolve(s string) ref {
	u, err := c.opts.Canonicalizer.Resolve(c.base, s)
	return ref{u: u, ok: err == nil && crawlable(u)}
}
