// Package jsonld writes the RDF graphs that CONSTRUCT and DESCRIBE
// answer with as JSON-LD 1.1 in expanded document form
// (application/ld+json): an array of node objects whose keys are
// absolute IRIs and whose values are arrays of node references and value
// objects, which any JSON-LD processor reads without a context. It
// streams: a node object holds the triples of one subject that arrive
// one after the other (a later run of the same subject starts another
// node object, which JSON-LD merges), so memory does not grow with the
// graph. Parse reads JSON-LD back, with the json-gold processor.
package jsonld

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/piprate/json-gold/ld"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/ntriples"
)

// MediaType is JSON-LD's media type.
const MediaType = "application/ld+json"

// Writer writes triples as expanded JSON-LD. Quads' graphs are ignored
// (a graph answer has none).
type Writer struct {
	w     *bufio.Writer
	subj  rdf.Term
	types []rdf.Term // @type values of the subject: IRIs and blank nodes
	preds []string   // the subject's other predicates, in first-seen order
	objs  map[string][]rdf.Term
	nodes int // node objects written
	buf   []byte
	err   error
}

// NewWriter returns a Writer writing to w; Close ends the document.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriter(w), objs: map[string][]rdf.Term{}}
}

// Write adds one triple.
func (jw *Writer) Write(q rdf.Quad) error {
	if jw.err != nil {
		return jw.err
	}
	if q.S.Kind != rdf.KindIRI && q.S.Kind != rdf.KindBlank || q.P.Kind != rdf.KindIRI || q.O.IsZero() {
		return errors.New("jsonld: a triple needs an IRI or blank subject, an IRI predicate and an object")
	}
	// The terms kept until the subject's node object is written are
	// copied: a reader or a result may reuse the memory of its terms.
	if q.S != jw.subj {
		jw.flush()
		jw.subj = q.S.Clone()
	}
	// rdf:type with an IRI or blank object is @type, as JSON-LD's
	// conversion from RDF writes it; a literal type stays a property.
	if q.P.Value == rdf.RDFType && !q.O.IsLiteral() {
		jw.types = append(jw.types, q.O.Clone())
		return jw.err
	}
	objs, ok := jw.objs[q.P.Value]
	if !ok {
		p := strings.Clone(q.P.Value)
		jw.preds = append(jw.preds, p)
		jw.objs[p] = append(objs, q.O.Clone())
		return jw.err
	}
	jw.objs[q.P.Value] = append(objs, q.O.Clone())
	return jw.err
}

// flush writes the node object of the current subject.
func (jw *Writer) flush() {
	if jw.subj.IsZero() {
		return
	}
	b := jw.buf[:0]
	if jw.nodes == 0 {
		b = append(b, "[\n"...)
	} else {
		b = append(b, ",\n"...)
	}
	b = append(b, `{"@id":`...)
	b = appendString(b, id(jw.subj))
	if len(jw.types) > 0 {
		b = append(b, `,"@type":[`...)
		for i, t := range jw.types {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, id(t))
		}
		b = append(b, ']')
	}
	for _, p := range jw.preds {
		b = append(b, ',')
		b = appendString(b, p)
		b = append(b, ":["...)
		for i, o := range jw.objs[p] {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendObject(b, o)
		}
		b = append(b, ']')
		delete(jw.objs, p)
	}
	b = append(b, '}')
	jw.buf = b
	if _, err := jw.w.Write(b); err != nil && jw.err == nil {
		jw.err = err
	}
	jw.nodes++
	jw.subj, jw.types, jw.preds = rdf.Term{}, jw.types[:0], jw.preds[:0]
}

// Close writes the last node object and ends the document.
func (jw *Writer) Close() error {
	jw.flush()
	if jw.err != nil {
		return jw.err
	}
	end := "\n]\n"
	if jw.nodes == 0 {
		end = "[]\n"
	}
	if _, err := jw.w.WriteString(end); err != nil {
		return err
	}
	return jw.w.Flush()
}

// id is the @id of an IRI or blank node.
func id(t rdf.Term) string {
	if t.Kind == rdf.KindBlank {
		return "_:" + t.Value
	}
	return t.Value
}

// appendObject appends a node reference or a value object: a plain
// string has no @type, a language-tagged one its @language, any other
// literal its datatype as @type (its lexical form kept as a string).
func appendObject(b []byte, o rdf.Term) []byte {
	if !o.IsLiteral() {
		b = append(b, `{"@id":`...)
		return append(appendString(b, id(o)), '}')
	}
	b = append(b, `{"@value":`...)
	b = appendString(b, o.Value)
	switch {
	case o.Lang != "":
		b = append(b, `,"@language":`...)
		b = appendString(b, o.Lang)
	case o.Datatype != "" && o.Datatype != rdf.XSDString:
		b = append(b, `,"@type":`...)
		b = appendString(b, o.Datatype)
	}
	return append(b, '}')
}

// appendString appends s as a JSON string. Marshalling a string cannot
// fail (invalid UTF-8 becomes U+FFFD, which a store's terms never hold).
func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}

// Parse reads a JSON-LD document in any form (expanded, compacted,
// flattened; remote contexts are not fetched) into the triples of its
// default graph and quads of its named graphs, by json-gold's toRdf
// algorithm: the reading half of what Writer writes, for clients and
// tests of the endpoint's JSON-LD answers.
func Parse(r io.Reader) ([]rdf.Quad, error) {
	var doc any
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("jsonld: %w", err)
	}
	opts := ld.NewJsonLdOptions("")
	opts.Format = "application/n-quads"
	opts.DocumentLoader = noLoader{}
	nq, err := ld.NewJsonLdProcessor().ToRDF(doc, opts)
	if err != nil {
		return nil, fmt.Errorf("jsonld: %w", err)
	}
	s, _ := nq.(string)
	qr := ntriples.NewQuadReader(strings.NewReader(s), rdf.ParseOptions{Name: "jsonld"})
	var out []rdf.Quad
	for {
		q, err := qr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("jsonld: reading json-gold's N-Quads: %w", err)
		}
		out = append(out, q.Clone()) // the reader reuses its terms' memory
	}
}

// noLoader refuses remote contexts: parsing never touches the network.
type noLoader struct{}

func (noLoader) LoadDocument(u string) (*ld.RemoteDocument, error) {
	return nil, fmt.Errorf("remote context %s not loaded", u)
}
