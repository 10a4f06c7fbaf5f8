package results_test

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/mneme-archive/mneme/sparql/results"
	"github.com/mneme-archive/mneme/sparql/results/resultstest"
)

// FuzzRead feeds arbitrary documents to every reader: they must return
// results or an error, never panic, and what they return must write and
// read back equivalently in a lossless format.
func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	for _, fm := range []results.Format{results.JSON, results.XML, results.TSV, results.CSV} {
		buf.Reset()
		if err := results.Write(&buf, fm, sample()); err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(fm), buf.String())
	}
	f.Add(uint8(results.TSV), "?x\n\"a\\u00\"\n")
	f.Add(uint8(results.XML), `<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head/><boolean>true</boolean></sparql>`)
	f.Fuzz(func(t *testing.T, fm uint8, doc string) {
		format := results.Format(fm % 4)
		r, err := results.Read(bytes.NewReader([]byte(doc)), format, "fuzz")
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := results.Write(&out, results.JSON, r); err != nil {
			t.Fatalf("write: %v", err)
		}
		back, err := results.ReadJSON(&out, "rewritten")
		if err != nil {
			t.Fatalf("rewritten document does not parse: %v\n%s", err, out.String())
		}
		if err := resultstest.Equivalent(r, back, resultstest.CompareOptions{Ordered: true}); err != nil && validUTF8(r) {
			t.Fatalf("round trip changed the results: %v", err)
		}
	})
}

// validUTF8 reports whether every string in r is valid UTF-8; results.JSON
// output replaces invalid bytes, so only such results round-trip exactly.
func validUTF8(r *results.Results) bool {
	for _, row := range r.Rows {
		for _, t := range row {
			if !utf8.ValidString(t.Value) || !utf8.ValidString(t.Lang) || !utf8.ValidString(t.Datatype) {
				return false
			}
		}
	}
	for _, v := range r.Vars {
		if !utf8.ValidString(v) {
			return false
		}
	}
	return true
}
