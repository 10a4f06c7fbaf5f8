package rdfxml

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// FuzzRDFXML checks that no input makes the reader panic or hang, that
// every error is a positioned *rdf.ParseError and every quad is valid
// RDF. Inputs are small, and the reader emits at most a few quads per
// XML token, so memory stays bounded.
func FuzzRDFXML(f *testing.F) {
	for _, c := range cases {
		f.Add(head + c.doc + tail)
	}
	f.Add(`<ex:T xmlns:ex="http://ex.org/" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" rdf:about="x"/>`)
	f.Fuzz(func(t *testing.T, doc string) {
		r := NewReader(strings.NewReader(doc), rdf.ParseOptions{Name: "fuzz", Base: base})
		for n := 0; ; n++ {
			q, err := r.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				var pe *rdf.ParseError
				if !errors.As(err, &pe) || pe.Line < 1 || pe.Col < 1 {
					t.Fatalf("error %v (%T) is not a positioned *rdf.ParseError", err, err)
				}
				return
			}
			if err := q.Validate(); err != nil {
				t.Fatalf("invalid quad %v: %v", q, err)
			}
			if n > 100*len(doc)+10 {
				t.Fatalf("%d quads from %d bytes", n, len(doc))
			}
		}
	})
}
