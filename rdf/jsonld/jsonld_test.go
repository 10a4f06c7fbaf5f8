package jsonld

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/ntriples"
)

// roundTrip writes triples as JSON-LD and reads the document back with
// Parse (an independent JSON-LD processor, json-gold); it returns the
// triples read and the document.
func roundTrip(t *testing.T, triples []rdf.Quad) ([]rdf.Quad, string) {
	t.Helper()
	// The triples come from an N-Triples reader, which reuses its terms'
	// memory as writers' callers may.
	var nt []byte
	for _, q := range triples {
		nt = append(q.Append(nt), '\n')
	}
	r := ntriples.NewReader(bytes.NewReader(nt), rdf.ParseOptions{})
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for {
		q, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	return got, buf.String()
}

// TestRoundTrip checks that a JSON-LD processor reads back the graph
// written: IRIs, blank nodes, plain, language-tagged and typed literals
// with characters JSON escapes, rdf:type with IRI, blank and literal
// objects, a predicate with several objects, and a subject whose triples
// come in two runs.
func TestRoundTrip(t *testing.T) {
	iri := func(s string) rdf.Term { return rdf.IRI("http://e.org/" + s) }
	typ := rdf.IRI(rdf.RDFType)
	triples := []rdf.Quad{
		{S: iri("a"), P: typ, O: iri("C")},
		{S: iri("a"), P: iri("name"), O: rdf.String("Ann \"the\" <b>\n\ttab\\ é ☃ \U0001F600")},
		{S: iri("a"), P: iri("name"), O: rdf.LangLiteral("Anne", "fr")},
		{S: iri("a"), P: iri("nick"), O: rdf.String("\"A\"\r")},
		{S: iri("a"), P: iri("age"), O: rdf.Literal("42", rdf.XSDInteger)},
		{S: iri("a"), P: iri("knows"), O: rdf.Blank("b1")},
		{S: iri("a"), P: typ, O: rdf.Blank("t")},
		{S: iri("a"), P: typ, O: rdf.String("not a class")},
		{S: rdf.Blank("b1"), P: iri("knows"), O: iri("a")},
		{S: rdf.Blank("b1"), P: iri("ok"), O: rdf.Literal("true", rdf.XSDBoolean)},
		{S: iri("a"), P: iri("name"), O: rdf.String("")},
		{S: iri("a"), P: iri("weird"), O: rdf.Literal("x y", "http://e.org/dt#1")},
	}
	got, doc := roundTrip(t, triples)
	if d := rdf.IsomorphismDiff(got, triples); d != "" {
		t.Errorf("read back differently:\n%s\ndocument:\n%s", d, doc)
	}
	if strings.Count(doc, `"@id":"http://e.org/a"`) != 3 { // two node objects and a reference
		t.Errorf("the second run of http://e.org/a is not its own node object:\n%s", doc)
	}
}

// TestEmpty writes an empty graph: an empty array.
func TestEmpty(t *testing.T) {
	got, doc := roundTrip(t, nil)
	if len(got) != 0 || doc != "[]\n" {
		t.Errorf("empty graph: %q, %d triples", doc, len(got))
	}
}

// TestBadTriple refuses a literal subject rather than writing an
// unreadable document.
func TestBadTriple(t *testing.T) {
	w := NewWriter(io.Discard)
	err := w.Write(rdf.Quad{S: rdf.String("x"), P: rdf.IRI("http://e.org/p"), O: rdf.String("y")})
	if err == nil {
		t.Fatal("literal subject accepted")
	}
}

// TestParseCompacted reads a compacted document with a context, as other
// servers write, and refuses a remote context rather than fetching it.
func TestParseCompacted(t *testing.T) {
	doc := `{"@context": {"ex": "http://e.org/", "name": {"@id": "ex:name", "@language": "en"}},
		"@id": "ex:a", "@type": "ex:C", "name": "Ann", "ex:knows": {"@id": "_:x"}}`
	got, err := Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []rdf.Quad{
		{S: rdf.IRI("http://e.org/a"), P: rdf.IRI(rdf.RDFType), O: rdf.IRI("http://e.org/C")},
		{S: rdf.IRI("http://e.org/a"), P: rdf.IRI("http://e.org/name"), O: rdf.LangLiteral("Ann", "en")},
		{S: rdf.IRI("http://e.org/a"), P: rdf.IRI("http://e.org/knows"), O: rdf.Blank("y")},
	}
	if d := rdf.IsomorphismDiff(got, want); d != "" {
		t.Error(d)
	}
	if _, err := Parse(strings.NewReader(`{"@context": "http://127.0.0.1:1/ctx.jsonld", "@id": "http://e.org/a"}`)); err == nil {
		t.Error("remote context accepted")
	}
	if _, err := Parse(strings.NewReader(`[{"@id": `)); err == nil || !strings.Contains(err.Error(), "jsonld") {
		t.Errorf("truncated document: %v", err)
	}
}
