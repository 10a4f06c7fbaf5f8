// Package ontology is mneme's vocabulary: the Turtle definition of the
// mneme: terms (mneme.ttl, embedded in the binary) and Go constants for
// every term mneme writes, its own and those it reuses from PROV-O, SIOC,
// schema.org, DCTerms and FOAF, so that other packages name terms through
// these constants, never through string literals.
//
// docs/data-model.md describes how the terms fit together: one named graph
// per crawl, captures of URLs, hyperlinks, extracted posts, revisits and
// application detection.
package ontology

import (
	_ "embed" // mneme.ttl is compiled into the binary
	"strings"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/turtle"
)

// OntologyIRI names the vocabulary itself (its owl:Ontology); MnemeNS is
// the namespace of its terms.
const (
	OntologyIRI = "https://w3id.org/mneme"
	MnemeNS     = OntologyIRI + "#"
)

// Version is the owl:versionInfo of the vocabulary in mneme.ttl.
const Version = "0.1.0"

//go:embed mneme.ttl
var source string

// Turtle returns the vocabulary in Turtle, as compiled into the binary.
func Turtle() string { return source }

// Reader parses the embedded vocabulary, for loading it into a store next
// to the data it describes. Its triples come in the default graph; the
// loader chooses the graph to put them in (docs/data-model.md suggests
// OntologyIRI).
func Reader() rdf.Reader {
	return turtle.NewReader(strings.NewReader(source), rdf.ParseOptions{Name: "mneme.ttl", Base: OntologyIRI})
}
