package turtle

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

var fuzzSeeds = []string{
	"",
	"<http://a/s> <http://a/p> <http://a/o> .",
	"@prefix : <http://ex/> . :s a :C ; :p 1, 2.5, 3e1, true, \"x\"@en, 'y'^^:t .",
	"PREFIX ex: <http://ex/> BASE <http://b/> <s> ex:p ( 1 ( 2 ) [ ex:q _:b ] ) .",
	"@base <http://b/a/> . <../x> <#p> \"\"\"long\n'str'\"\"\" .",
	"@prefix e: <http://e/> . e:a\\.b e:p.q e:%41:c . [ e:p [ e:q () ] ] .",
	"_:a <http://p> \"\\u00e9\\U0001F600\\t\" .",
	"<s> <p> [ <p> [ <p> ( ( ( [ ] ) ) ) ] ] .",
	"@prefix : <http://ex/> . :g { :s :p :o } GRAPH :h { :s :p :o . } { :d :d :d . } [] { } ",
	"<a> <b> <c> ; ; <d> <e> , <f> ; .",
}

func FuzzTurtle(f *testing.F) { fuzzRoundTrip(f, false) }

func FuzzTriG(f *testing.F) { fuzzRoundTrip(f, true) }

// fuzzRoundTrip checks that no input makes the reader panic or hang, and
// that whatever it accepts survives write and re-parse unchanged.
func fuzzRoundTrip(f *testing.F, trig bool) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		opts := rdf.ParseOptions{Name: "fuzz", Base: "http://base.example/d/f"}
		first, prefixes, err := readLimited(t, doc, opts, trig)
		if err != nil {
			return
		}
		var out bytes.Buffer
		var w *Writer
		if trig {
			w = NewTriGWriter(&out, rdf.WriteOptions{Prefixes: prefixes})
		} else {
			w = NewWriter(&out, rdf.WriteOptions{Prefixes: prefixes})
		}
		for _, q := range first {
			if err := w.Write(q); err != nil {
				t.Fatalf("writing a parsed quad %v: %v", q, err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		second, _, err := readLimited(t, out.Bytes(), opts, trig)
		if err != nil {
			t.Fatalf("re-parsing the writer's output: %v\ninput:\n%s\noutput:\n%s", err, doc, out.Bytes())
		}
		if msg := sameQuads(first, second); msg != "" {
			t.Fatalf("%s\ninput:\n%s\noutput:\n%s", msg, doc, out.Bytes())
		}
	})
}

// readLimited parses doc; documents with more than 10000 quads are
// skipped (reported as an error) to keep each fuzz run small.
// A quad that breaks the RDF rules fails the test: the reader must never
// produce one.
func readLimited(t testing.TB, doc []byte, opts rdf.ParseOptions, trig bool) ([]rdf.Quad, map[string]string, error) {
	r := openReader(bytes.NewReader(doc), opts, trig)
	var qs []rdf.Quad
	for len(qs) < 10000 {
		q, err := r.Next()
		if err == io.EOF {
			return qs, r.Prefixes(), nil
		}
		if err != nil {
			return nil, nil, err
		}
		if err := q.Validate(); err != nil {
			t.Fatalf("reader produced an invalid quad %v: %v\ninput:\n%s", q, err, doc)
		}
		qs = append(qs, q.Clone())
	}
	return nil, nil, io.ErrShortBuffer
}

// TestFuzzSeeds makes sure the seeds themselves parse, so the round-trip
// property is exercised by every plain go test run.
func TestFuzzSeeds(t *testing.T) {
	for _, s := range fuzzSeeds {
		trig := strings.Contains(s, "{")
		if _, _, err := readLimited(t, []byte(s), rdf.ParseOptions{Base: "http://base.example/"}, trig); err != nil {
			t.Errorf("seed %q: %v", s, err)
		}
	}
}
