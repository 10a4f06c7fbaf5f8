package turtle

import (
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

func exIRI(s string) rdf.Term { return rdf.IRI("http://ex/" + s) }

func writeAll(t *testing.T, trig bool, opts rdf.WriteOptions, qs ...rdf.Quad) string {
	t.Helper()
	var b strings.Builder
	var w *Writer
	if trig {
		w = NewTriGWriter(&b, opts)
	} else {
		w = NewWriter(&b, opts)
	}
	for _, q := range qs {
		if err := w.Write(q); err != nil {
			t.Fatalf("Write(%v): %v", q, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriterTurtleGolden(t *testing.T) {
	opts := rdf.WriteOptions{Prefixes: map[string]string{"ex": "http://ex/", "xsd": rdf.XSDNS, "": "http://ex/d/"}}
	got := writeAll(t, false, opts,
		rdf.Quad{S: exIRI("s"), P: rdf.IRI(rdf.RDFType), O: exIRI("C")},
		rdf.Quad{S: exIRI("s"), P: exIRI("p"), O: rdf.Literal("1", rdf.XSDInteger)},
		rdf.Quad{S: exIRI("s"), P: exIRI("p"), O: rdf.Literal("01.50", rdf.XSDDecimal)},
		rdf.Quad{S: exIRI("s"), P: exIRI("p"), O: rdf.Literal("1e3", rdf.XSDDouble)},
		rdf.Quad{S: exIRI("s"), P: exIRI("p"), O: rdf.Literal("true", rdf.XSDBoolean)},
		rdf.Quad{S: exIRI("s"), P: exIRI("p"), O: rdf.Literal("1.", rdf.XSDDecimal)},
		rdf.Quad{S: exIRI("s"), P: exIRI("p"), O: rdf.Literal("TRUE", rdf.XSDBoolean)},
		rdf.Quad{S: exIRI("s"), P: exIRI("p"), O: rdf.Literal("2", rdf.XSDDouble)},
		rdf.Quad{S: exIRI("s"), P: exIRI("q"), O: rdf.String("say \"hi\"\\\t")},
		rdf.Quad{S: exIRI("s"), P: exIRI("q"), O: rdf.String("line 1\nline \"2\"")},
		rdf.Quad{S: exIRI("s"), P: exIRI("q"), O: rdf.LangLiteral("chat", "fr-CA")},
		rdf.Quad{S: exIRI("s"), P: exIRI("q"), O: rdf.Literal("x", "http://other/dt")},
		rdf.Quad{S: rdf.Blank("b0"), P: rdf.IRI("http://ex/d/p"), O: rdf.IRI("http://ex/a/b")},
		rdf.Quad{S: rdf.Blank("b0"), P: exIRI("p.x"), O: exIRI("x.")},
		rdf.Quad{S: exIRI("%41"), P: exIRI("p"), O: exIRI("%4")},
	)
	want := `@prefix : <http://ex/d/> .
@prefix ex: <http://ex/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

ex:s a ex:C ;
    ex:p 1, 01.50, 1e3, true, "1."^^xsd:decimal, "TRUE"^^xsd:boolean, "2"^^xsd:double ;
    ex:q "say \"hi\"\\\t", """line 1
line \"2\"""", "chat"@fr-CA, "x"^^<http://other/dt> .
_:b0 :p <http://ex/a/b> ;
    ex:p.x <http://ex/x.> .
ex:%41 ex:p <http://ex/%4> .
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWriterTriGGolden(t *testing.T) {
	opts := rdf.WriteOptions{Prefixes: map[string]string{"ex": "http://ex/"}, Base: "http://base/"}
	got := writeAll(t, true, opts,
		rdf.Quad{S: exIRI("s"), P: exIRI("p"), O: exIRI("o")},
		rdf.Quad{S: exIRI("s"), P: exIRI("p"), O: exIRI("o2"), G: exIRI("g")},
		rdf.Quad{S: exIRI("s"), P: exIRI("q"), O: exIRI("o"), G: exIRI("g")},
		rdf.Quad{S: exIRI("t"), P: exIRI("q"), O: exIRI("o"), G: exIRI("g")},
		rdf.Quad{S: exIRI("t"), P: exIRI("q"), O: exIRI("o"), G: rdf.Blank("g2")},
		rdf.Quad{S: exIRI("u"), P: exIRI("p"), O: exIRI("o")},
	)
	want := `@base <http://base/> .
@prefix ex: <http://ex/> .

ex:s ex:p ex:o .

ex:g {
    ex:s ex:p ex:o2 ;
        ex:q ex:o .
    ex:t ex:q ex:o .
}

_:g2 {
    ex:t ex:q ex:o .
}
ex:u ex:p ex:o .
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWriterEmptyDocument(t *testing.T) {
	got := writeAll(t, false, rdf.WriteOptions{Prefixes: map[string]string{"ex": "http://ex/"}})
	if want := "@prefix ex: <http://ex/> .\n\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestWriterRefuses(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b, rdf.WriteOptions{})
	err := w.Write(rdf.Quad{S: exIRI("s"), P: exIRI("p"), O: exIRI("o"), G: exIRI("g")})
	if err == nil || !strings.Contains(err.Error(), "TriG") {
		t.Errorf("named graph quad in Turtle: got %v, want an error suggesting TriG", err)
	}
	if err := w.Write(rdf.Quad{S: rdf.String("lit"), P: exIRI("p"), O: exIRI("o")}); err == nil {
		t.Error("literal subject accepted")
	}
	if err := w.Write(rdf.Quad{S: rdf.Blank("a b"), P: exIRI("p"), O: exIRI("o")}); err == nil {
		t.Error("blank node label with a space accepted")
	}
	if err := w.Write(rdf.Quad{S: exIRI("s"), P: exIRI("p"), O: exIRI("a>b")}); err == nil {
		t.Error("IRI with '>' accepted")
	}
	if err := w.Write(rdf.Quad{S: exIRI("s"), P: exIRI("p"), O: rdf.Literal("x", "http://dt/a b")}); err == nil {
		t.Error("datatype IRI with a space accepted")
	}
	w = NewWriter(&b, rdf.WriteOptions{Prefixes: map[string]string{"1x": "http://x/"}})
	if err := w.Write(rdf.Quad{S: exIRI("s"), P: exIRI("p"), O: exIRI("o")}); err == nil {
		t.Error("invalid prefix name accepted")
	}
}

// TestRoundTrip parses documents, writes them back and parses the output:
// both parses must give the same quads (see sameQuads for blank nodes).
func TestRoundTrip(t *testing.T) {
	docs := []struct {
		doc  string
		trig bool
	}{
		{`@prefix ex: <http://ex/> . @prefix e2: <http://ex/a/> .
ex:s a ex:C ; ex:p ( 1 2.0 3e0 "x"@en ) , [ ex:q _:_x ; ex:r """multi
line""" ] .
_:_x ex:p ex:a\.b, e2:c, "tab\there", -0, +.5, "\u0001\u007f" .`, false},
		{`@prefix ex: <http://ex/> .
ex:g { ex:s ex:p ex:o . ex:s ex:p [] } _:g { ex:s ex:p ex:o } { ex:d ex:d ex:d }
ex:s ex:p ex:o .`, true},
	}
	for _, d := range docs {
		first, prefixes := readQuads(t, d.doc, d.trig)
		var b strings.Builder
		var w *Writer
		if d.trig {
			w = NewTriGWriter(&b, rdf.WriteOptions{Prefixes: prefixes})
		} else {
			w = NewWriter(&b, rdf.WriteOptions{Prefixes: prefixes})
		}
		for _, q := range first {
			if err := w.Write(q); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		second, _ := readQuads(t, b.String(), d.trig)
		if msg := sameQuads(first, second); msg != "" {
			t.Errorf("round trip of\n%s\nvia\n%s\n%s", d.doc, b.String(), msg)
		}
	}
}

func readQuads(t testing.TB, doc string, trig bool) ([]rdf.Quad, map[string]string) {
	t.Helper()
	qs, prefixes, err := readLimited(t, []byte(doc), rdf.ParseOptions{Name: "doc"}, trig)
	if err != nil {
		t.Fatalf("%v in\n%s", err, doc)
	}
	return qs, prefixes
}

// sameQuads compares the quads of a document with those of its
// re-serialization. The writer keeps blank node labels and the reader
// prefixes labels starting with '_' with one more '_', so dropping that
// '_' from the second parse must give back exactly the first.
func sameQuads(first, second []rdf.Quad) string {
	unshift := func(t rdf.Term) rdf.Term {
		if t.IsBlank() && strings.HasPrefix(t.Value, "_") {
			t.Value = t.Value[1:]
		}
		return t
	}
	want := map[rdf.Quad]bool{}
	for _, q := range first {
		want[q] = true
	}
	got := map[rdf.Quad]bool{}
	for _, q := range second {
		q.S, q.O, q.G = unshift(q.S), unshift(q.O), unshift(q.G)
		if !want[q] {
			return "unexpected quad " + q.String()
		}
		got[q] = true
	}
	if len(got) != len(want) {
		return "quads lost in the round trip"
	}
	return ""
}
