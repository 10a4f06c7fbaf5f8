package analysis

import (
	"hash/fnv"
	"net/url"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
)

// CrawlIRI is the IRI of crawl id, which names its graph.
func CrawlIRI(id string) string { return "urn:mneme:crawl:" + id }

// GraphIRI is the IRI of the analysis of crawl id, which names the graph
// holding its results.
func GraphIRI(id string) string { return "urn:mneme:analysis:" + id }

// CrawlID returns the crawl id of a crawl IRI.
func CrawlID(iri string) (string, bool) { return strings.CutPrefix(iri, "urn:mneme:crawl:") }

// EntityIRI is the IRI of the entity of key (nlp.Key): the same in every
// document and crawl.
func EntityIRI(key string) string {
	return "urn:mneme:entity:" + url.PathEscape(strings.ReplaceAll(key, " ", "_"))
}

// node is the IRI of a result node of the analysis of crawl id: kind and
// a hash of the parts it is about, so that a run writes the same IRIs
// again.
func node(id, kind string, parts ...string) rdf.Term {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return rdf.IRI(GraphIRI(id) + ":" + kind + ":" + strconv.FormatUint(h.Sum64(), 36))
}
