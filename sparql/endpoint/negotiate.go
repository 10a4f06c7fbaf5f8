package endpoint

import (
	"io"
	"mime"
	"slices"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/rdfio"
	"github.com/mneme-archive/mneme/sparql/results"
)

// format is one serialization the endpoint can answer with: a results
// format for SELECT and ASK, or an RDF format for CONSTRUCT and DESCRIBE.
type format struct {
	contentType string
	// accepts are the media types this format is served for, the
	// canonical one first; names are the format/output parameter values.
	accepts []string
	names   []string
	results results.Format
	// graph opens a writer of the RDF format; nil for a results format.
	graph func(io.Writer, rdf.WriteOptions) (rdf.Writer, error)
}

// solutionFormats answer SELECT and ASK, in order of preference when the
// client accepts several equally (JSON first, as most clients want it).
var solutionFormats = []*format{
	{contentType: "application/sparql-results+json", accepts: []string{"application/sparql-results+json", "application/json"},
		names: []string{"json", "srj"}, results: results.JSON},
	{contentType: "application/sparql-results+xml", accepts: []string{"application/sparql-results+xml", "application/xml", "text/xml"},
		names: []string{"xml", "srx"}, results: results.XML},
	{contentType: "text/csv; charset=utf-8", accepts: []string{"text/csv"}, names: []string{"csv"}, results: results.CSV},
	{contentType: "text/tab-separated-values; charset=utf-8", accepts: []string{"text/tab-separated-values"},
		names: []string{"tsv"}, results: results.TSV},
}

// graphFormats answer CONSTRUCT and DESCRIBE. Turtle is also valid N3,
// so it is served to N3 clients too; JSON-LD is written in expanded form,
// which needs no context.
var graphFormats = []*format{
	{contentType: "text/turtle; charset=utf-8",
		accepts: []string{"text/turtle", "application/turtle", "application/x-turtle", "text/n3", "text/rdf+n3", "application/n3"},
		names:   []string{"turtle", "ttl", "n3"}, graph: rdfio.Turtle.NewWriter},
	{contentType: "application/n-triples; charset=utf-8", accepts: []string{"application/n-triples", "text/plain"},
		names: []string{"ntriples", "n-triples", "nt"}, graph: rdfio.NTriples.NewWriter},
	{contentType: rdfio.JSONLD.MediaType, accepts: []string{rdfio.JSONLD.MediaType, "application/json"},
		names: []string{"jsonld", "json-ld"}, graph: rdfio.JSONLD.NewWriter},
}

// byName returns the offered format a format/output parameter names,
// by short name or media type; nil when none fits (the parameter is then
// ignored, as other endpoints do, and the Accept header decides).
func byName(offers []*format, values []string) *format {
	for _, v := range values {
		v = strings.ToLower(strings.TrimSpace(v))
		if mt, _, err := mime.ParseMediaType(v); err == nil {
			v = mt
		}
		for _, f := range offers {
			if slices.Contains(f.names, v) || slices.Contains(f.accepts, v) {
				return f
			}
		}
	}
	return nil
}

// negotiate picks the offer the Accept header prefers: the highest
// quality of the most specific range matching each offer, ties going to
// the order of offers. Wildcards match an offer's canonical type only. An empty header accepts anything; nil means
// nothing offered is acceptable.
func negotiate(offers []*format, accept string) *format {
	if strings.TrimSpace(accept) == "" {
		return offers[0]
	}
	ranges := parseAccept(accept)
	var best *format
	bestQ := 0.0
	for _, f := range offers {
		q := -1.0
		spec := -1
		for i, t := range f.accepts {
			for _, r := range ranges {
				// Aliases match only when named: text/* means CSV or
				// TSV, not XML by way of text/xml.
				if s := r.specificity(t); s > spec && (i == 0 || s == 2) {
					spec, q = s, r.q
				}
			}
		}
		if q > bestQ {
			best, bestQ = f, q
		}
	}
	return best
}

// mediaRange is one element of an Accept header.
type mediaRange struct {
	typ, sub string
	q        float64
}

// specificity says how closely the range matches media type t: 2 for
// type/subtype, 1 for type/*, 0 for */*, -1 for no match.
func (r mediaRange) specificity(t string) int {
	typ, sub, _ := strings.Cut(t, "/")
	switch {
	case r.typ == "*":
		return 0
	case r.typ != typ:
		return -1
	case r.sub == "*":
		return 1
	case r.sub == sub:
		return 2
	}
	return -1
}

func parseAccept(h string) []mediaRange {
	var out []mediaRange
	for _, part := range strings.Split(h, ",") {
		part = strings.TrimSpace(part)
		if part == "*" || strings.HasPrefix(part, "*;") {
			part = "*/*" + part[1:] // an old client's shorthand
		}
		mt, params, err := mime.ParseMediaType(part)
		if err != nil {
			continue
		}
		typ, sub, ok := strings.Cut(mt, "/")
		if !ok {
			continue
		}
		q := 1.0
		if s, ok := params["q"]; ok {
			if v, err := strconv.ParseFloat(s, 64); err == nil && v >= 0 && v <= 1 {
				q = v
			}
		}
		out = append(out, mediaRange{typ: typ, sub: sub, q: q})
	}
	return out
}
