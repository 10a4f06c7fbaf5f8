package extract

import (
	"bytes"
	"io"

	"github.com/mneme-archive/mneme/crawler/canon"
)

// Hop is a Heritrix hop type: how a URL was reached from the one before it.
type Hop byte

// Heritrix hop types.
const (
	Link         Hop = 'L' // navigational link
	Embed        Hop = 'E' // embedded resource: image, script, stylesheet, frame
	Redirect     Hop = 'R' // HTTP redirect or meta refresh
	Speculative  Hop = 'X' // URL-like string found in code
	Prerequisite Hop = 'P' // DNS or robots.txt needed before a fetch
	Inferred     Hop = 'I' // inferred, not linked: a site's sitemap
)

func (h Hop) String() string { return string(h) }

// Outlink is one URL found in a document.
type Outlink struct {
	URL     canon.URL
	Hop     Hop
	Context string // where it was found, as Heritrix writes it: "a/@href", "img/@src", "meta" …
	// Text is the anchor text of a link (alt text of images inside it
	// included), whitespace collapsed, at most Options.MaxText bytes. The
	// anchor texts of one document are slices of one string.
	Text string
	// Paragraph is the text of the block (p, li, td, div …) holding the link,
	// whitespace collapsed, cut to Options.MaxParagraph bytes around the link.
	Paragraph string
}

// Document is a fetched document to extract links from.
type Document struct {
	URL       canon.URL // where it was fetched: the base URL until a <base href>
	MediaType string    // lowercase type/subtype, e.g. "text/html"
	Body      io.Reader // the content as UTF-8 text
	// Text, when set, is the content in memory, read instead of Body.
	// The extractor does not keep it.
	Text []byte
}

// Extractor finds the outlinks of a document. Implementations decide by the
// document (media type, URL) whether they apply; one that does not returns
// no outlinks and no error.
type Extractor interface {
	Extract(doc Document) ([]Outlink, error)
}

// Options tunes Standard. Zero fields take the defaults.
type Options struct {
	Canonicalizer *canon.Canonicalizer // resolves references; default canon.New(canon.Options{})
	MaxText       int                  // anchor text bytes kept; default 256
	MaxParagraph  int                  // paragraph bytes kept around a link; default 1024, negative: no Paragraph

	MaxOutlinks int // outlinks kept per document; default 6000, Heritrix's
}

// Standard extracts links from HTML and CSS documents and none from others.
// It is safe for concurrent use.
type Standard struct {
	opts Options
}

// New returns a Standard extractor.
func New(opts Options) *Standard {
	if opts.Canonicalizer == nil {
		opts.Canonicalizer = canon.New(canon.Options{})
	}
	if opts.MaxText <= 0 {
		opts.MaxText = 256
	}
	if opts.MaxParagraph == 0 {
		opts.MaxParagraph = 1024
	}
	if opts.MaxOutlinks <= 0 {
		opts.MaxOutlinks = 6000
	}
	return &Standard{opts: opts}
}

// Extract returns the outlinks of an HTML or CSS document, in document order,
// each URL once per hop type.
func (s *Standard) Extract(doc Document) ([]Outlink, error) {
	switch {
	case IsHTML(doc.MediaType):
		return s.html(doc)
	case doc.MediaType == "text/css":
		b := doc.Text
		if b == nil {
			var err error
			if b, err = io.ReadAll(doc.Body); err != nil {
				return nil, err
			}
		}
		c := s.newCollector(doc.URL)
		c.css(b)
		return c.result(), nil
	}
	return nil, nil
}

// IsHTML reports whether a media type is parsed as HTML.
func IsHTML(mediaType string) bool {
	switch mediaType {
	case "text/html", "application/xhtml+xml", "application/vnd.wap.xhtml+xml":
		return true
	}
	return false
}

// crawlable reports whether a resolved URL is worth a fetch.
func crawlable(u canon.URL) bool {
	return (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// skipRef reports references that are not URLs to fetch.
func skipRef(ref []byte) bool {
	if len(ref) < 5 {
		return len(ref) == 0
	}
	switch ref[0] | 0x20 { // the schemes' first letters: most references start otherwise
	case 'j', 'd', 'm', 't', 'a', 'b':
	default:
		return false
	}
	for _, p := range [...]string{"javascript:", "data:", "mailto:", "tel:", "about:", "blob:"} {
		if len(ref) >= len(p) && bytes.EqualFold(ref[:len(p)], []byte(p)) {
			return true
		}
	}
	return false
}
