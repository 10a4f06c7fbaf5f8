package turtle

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// BenchmarkRead parses a typical prefixed Turtle document.
func BenchmarkRead(b *testing.B) {
	var doc bytes.Buffer
	doc.WriteString("@prefix ex: <http://example.org/ns/> .\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&doc, "ex:item%d a ex:Thing ;\n    ex:name \"Item number %d\"@en ;\n    ex:size %d ;\n    ex:link <http://example.org/other/%d>, [ ex:note \"n\" ] .\n", i, i, i, i+1)
	}
	b.SetBytes(int64(doc.Len()))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(doc.Bytes()), rdf.ParseOptions{})
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}
