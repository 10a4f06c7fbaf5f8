package crawler

import (
	"net/http"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/rdf"
)

// Analyzer reads every fetched page in place of the standard link
// extractor: it chooses the links to follow and may describe what the
// page holds (the application-aware crawler's posts, comments, wiki
// pages). It is called concurrently by the workers.
type Analyzer interface {
	Analyze(p Page) (Analysis, error)
}

// Page is a fetched document with a 2xx status and a body.
type Page struct {
	URL       canon.URL
	MediaType string // lowercase type/subtype
	Header    http.Header
	Body      []byte // the content as UTF-8 text
}

// Analysis is what an Analyzer found in a page.
type Analysis struct {
	// Links are the references found in the page, described with its
	// capture (mneme:Link) and in its WARC metadata record.
	Links []extract.Outlink
	// Follow are the links to schedule (still subject to the scope).
	Follow []extract.Outlink
	// Quads, when set, describes the page's content; it is called once the
	// capture is recorded, with the capture's IRI and the crawl's graph.
	Quads func(capture, graph rdf.Term) []rdf.Quad
	// Annotation, when set, is added to the page's crawl.log line (for
	// instance "app:wordpress/post").
	Annotation string
}
