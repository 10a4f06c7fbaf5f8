package ntriples

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// Realistic lines: an IRI triple like most of LUBM, and one with escapes
// that must be decoded into the scratch buffer.
var allocLines = []string{
	"<http://www.Department0.University0.edu/GraduateStudent12> <http://www.lehigh.edu/~zhp2/2004/0401/univ-bench.owl#memberOf> <http://www.Department0.University0.edu> .\n",
	"_:b0 <http://purl.org/dc/terms/title> \"Caf\\u00E9 \\\"Zo\\u00EB\\\"\\n\"@fr <http://example.org/graph/\\u0031> .\n",
}

func TestChunkParserAllocs(t *testing.T) {
	for _, line := range allocLines {
		cp := NewChunkParser(NQuads, rdf.ParseOptions{})
		data := []byte(line)
		allocs := testing.AllocsPerRun(1000, func() {
			cp.Reset(data, 1)
			if _, err := cp.Next(); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%d allocations per statement for %q", int(allocs), line)
		}
	}
}

// TestReaderAllocs reads many lines through the whole streaming path,
// buffer refills included; allocations must not grow with the lines.
func TestReaderAllocs(t *testing.T) {
	doc := strings.Repeat(allocLines[0]+allocLines[1], 20000)
	r := NewQuadReader(strings.NewReader(doc), rdf.ParseOptions{})
	if _, err := r.Next(); err != nil { // first read allocates the buffer
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(30000, func() {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%.3f allocations per statement", allocs)
	}
}

func TestWriterAllocs(t *testing.T) {
	var quads []rdf.Quad
	for _, line := range allocLines {
		r := NewQuadReader(strings.NewReader(line), rdf.ParseOptions{})
		q, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		quads = append(quads, q.Clone())
	}
	w := NewQuadWriter(io.Discard)
	var i int
	allocs := testing.AllocsPerRun(10000, func() {
		if err := w.Write(quads[i%2]); err != nil {
			t.Fatal(err)
		}
		i++
	})
	if allocs != 0 {
		t.Errorf("%.3f allocations per quad written", allocs)
	}
	var buf bytes.Buffer
	w = NewQuadWriter(&buf)
	for _, q := range quads {
		if err := w.Write(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := allocLines[0] + "_:b0 <http://purl.org/dc/terms/title> \"Café \\\"Zoë\\\"\\n\"@fr <http://example.org/graph/1> .\n"
	if buf.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", buf.String(), want)
	}
}
