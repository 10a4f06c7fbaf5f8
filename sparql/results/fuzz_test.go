package results

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// FuzzRead feeds arbitrary documents to every reader: they must return
// results or an error, never panic, and what they return must write and
// read back equivalently in a lossless format.
func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	for _, fm := range []Format{JSON, XML, TSV, CSV} {
		buf.Reset()
		if err := Write(&buf, fm, sample()); err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(fm), buf.String())
	}
	f.Add(uint8(TSV), "?x\n\"a\\u00\"\n")
	f.Add(uint8(XML), `<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head/><boolean>true</boolean></sparql>`)
	f.Fuzz(func(t *testing.T, fm uint8, doc string) {
		format := Format(fm % 4)
		r, err := Read(bytes.NewReader([]byte(doc)), format, "fuzz")
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := Write(&out, JSON, r); err != nil {
			t.Fatalf("write: %v", err)
		}
		back, err := ReadJSON(&out, "rewritten")
		if err != nil {
			t.Fatalf("rewritten document does not parse: %v\n%s", err, out.String())
		}
		if err := Equivalent(r, back, CompareOptions{Ordered: true}); err != nil && validUTF8(r) {
			t.Fatalf("round trip changed the results: %v", err)
		}
	})
}

// validUTF8 reports whether every string in r is valid UTF-8; JSON
// output replaces invalid bytes, so only such results round-trip exactly.
func validUTF8(r *Results) bool {
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
