package extract

import (
	"sync"

	"github.com/mneme-archive/mneme/crawler/canon"
)

// collector accumulates the outlinks of one document: it resolves each
// reference once, keeps each URL once per hop type and stops at MaxOutlinks.
// Collectors are pooled (a page has about a hundred references, and a map
// per page cost more than resolving them): what they return is a copy.
type collector struct {
	opts    *Options
	base    canon.URL
	baseSet bool // a <base href> was applied; later ones are ignored
	out     []Outlink
	// refs answers a reference as written (and its hop) met before without
	// resolving it again; urls finds the outlink of a URL and hop that
	// another reference already added.
	refs, urls table
	written    []byte // the references as written, which refs points into
	// The anchor texts, kept in one buffer that result turns into one
	// string (a string per link cost an allocation each): texts[i] is the
	// span of out[i]'s. An outlink has one text of at most MaxText bytes,
	// so the buffer stays within MaxOutlinks × MaxText.
	texts []span
	text  []byte
}

type span struct{ off, n int32 }

// maxPooledOutlinks bounds the outlinks a pooled collector keeps room for,
// so that one huge page does not pin its memory.
const maxPooledOutlinks = 1024

var collectors = sync.Pool{New: func() any { return new(collector) }}

func (s *Standard) newCollector(base canon.URL) *collector {
	c := collectors.Get().(*collector)
	c.opts, c.base, c.baseSet = &s.opts, base, false
	return c
}

// result returns a copy of the outlinks and puts the collector back in the
// pool.
func (c *collector) result() []Outlink {
	out := make([]Outlink, len(c.out))
	copy(out, c.out)
	if len(c.text) > 0 {
		all := string(c.text)
		for i, t := range c.texts {
			if t.n > 0 {
				out[i].Text = all[t.off : t.off+t.n]
			}
		}
	}
	clear(c.out) // the pool must not keep the page's strings alive
	c.out, c.texts, c.text = c.out[:0], c.texts[:0], c.text[:0]
	if cap(c.out) > maxPooledOutlinks {
		c.out, c.texts = nil, nil
	}
	c.refs.reset()
	c.urls.reset()
	c.written = c.written[:0]
	c.base, c.opts = canon.URL{}, nil
	collectors.Put(c)
	return out
}

// setBase applies the first <base href>, as browsers do.
func (c *collector) setBase(raw []byte) {
	if c.baseSet {
		return
	}
	c.baseSet = true
	var u canon.URL
	if err := c.opts.Canonicalizer.ResolveBytes(&u, &c.base, trimSpace(raw)); err == nil && u.Hierarchical() {
		c.base = u
		c.refs.reset() // references met before resolve differently now
		c.written = c.written[:0]
	}
}

// add records a reference found in the document and returns its position in
// out, or -1 when it is not a crawlable URL or the limit is reached.
func (c *collector) add(raw []byte, hop Hop, context string) int {
	h := hashBytes(raw, hop)
	slot, found := c.refs.find(h, func(e *entry) bool {
		return e.hop == hop && string(c.written[e.off:e.off+e.n]) == string(raw)
	})
	if found {
		return int(c.refs.slots[slot].val)
	}
	i := c.addNew(raw, hop, context)
	if len(c.written)+len(raw) <= maxWritten {
		c.refs.insert(slot, entry{hash: h, hop: hop, off: int32(len(c.written)), n: int32(len(raw)), val: int32(i)})
		c.written = append(c.written, raw...)
	}
	return i
}

// maxWritten bounds the references a collector remembers as written (their
// spans are 32-bit); past it, a repeated reference is resolved again.
const maxWritten = 1 << 30

// addNew resolves a reference not met before with this hop and adds its URL
// unless another reference already did. It resolves into the next slot of
// out, which it gives back when the URL is not added.
func (c *collector) addNew(raw []byte, hop Hop, context string) int {
	raw = trimSpace(raw)
	if skipRef(raw) {
		return -1
	}
	n := len(c.out)
	c.out = append(c.out, Outlink{})
	l := &c.out[n]
	if err := c.opts.Canonicalizer.ResolveBytes(&l.URL, &c.base, raw); err != nil || !crawlable(l.URL) {
		c.drop(n)
		return -1
	}
	h := hashString(l.URL.Href, hop)
	slot, found := c.urls.find(h, func(e *entry) bool {
		o := &c.out[e.val]
		return o.Hop == hop && o.URL.Href == l.URL.Href
	})
	if found {
		c.drop(n)
		return int(c.urls.slots[slot].val)
	}
	if n >= c.opts.MaxOutlinks {
		c.drop(n)
		return -1
	}
	l.Hop, l.Context = hop, context
	c.urls.insert(slot, entry{hash: h, hop: hop, val: int32(n)})
	c.texts = append(c.texts, span{})
	return n
}

// drop gives back the last slot of out, n.
func (c *collector) drop(n int) {
	c.out[n] = Outlink{}
	c.out = c.out[:n]
}

// setText gives outlink i its anchor text t unless it has one.
func (c *collector) setText(i int, t []byte) {
	if c.texts[i].n == 0 && len(t) > 0 {
		c.texts[i] = span{int32(len(c.text)), int32(len(t))}
		c.text = append(c.text, t...)
	}
}

// trimSpace strips HTML whitespace (space, tab, LF, FF, CR) from both ends.
func trimSpace(s []byte) []byte {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// isSpace reports HTML whitespace: space, tab, LF, FF, CR.
func isSpace(b byte) bool { return spaces[b] }

var spaces = [256]bool{' ': true, '\t': true, '\n': true, '\f': true, '\r': true}
