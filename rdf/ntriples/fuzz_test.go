package ntriples

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/mneme-archive/mneme/rdf"
)

// fuzzSeeds are hand-written lines covering each construct of the two
// grammars, valid and not.
var fuzzSeeds = []string{
	"<http://example.org/s> <http://example.org/p> <http://example.org/o> .\n",
	"_:a <http://example.org/p> _:b.c .\r\n",
	"<http://example.org/s> <http://example.org/p> \"x\\ty\\u00E9\\U0001F600\"@en-GB .",
	"<http://example.org/s> <http://example.org/p> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> <http://example.org/g> .\n",
	"<http://example.org/s> <http://example.org/p> \"v\" _:g .\r",
	"# comment é\n\n<urn:a><urn:b>\"c\".#x\n",
	"_:été <urn:p> <urn:\\u0041> .\n<s> <urn:p> <urn:o> .\n",
	"<urn:s> <urn:p> \"unterminated\n<urn:s> <urn:p> \"\\uD800\" .\n",
	"<urn:s> <urn:p> <urn:o> <urn:g> <urn:h> .\n",
	"<urn:s> <urn:p> \"x\"@1 .\n_::a <urn:p> <urn:o> .\n\xff\n",
}

func FuzzNTriples(f *testing.F) { fuzzSyntax(f, NTriples) }

func FuzzNQuads(f *testing.F) { fuzzSyntax(f, NQuads) }

// fuzzSyntax checks that any input is read without panic or hang, that
// reading it one byte at a time gives the same results (chunk boundaries
// do not matter), that every quad read is valid RDF, and that writing the
// quads read and reading them again gives the same quads.
func fuzzSyntax(f *testing.F, syn Syntax) {
	for _, seed := range fuzzSeeds {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		opts := rdf.ParseOptions{Name: "fuzz"}
		whole := readAll(t, newReader(bytes.NewReader(in), syn, opts), len(in))
		bytewise := readAll(t, newReader(iotest.OneByteReader(bytes.NewReader(in)), syn, opts), len(in))
		if strings.Join(whole.seq, "\n") != strings.Join(bytewise.seq, "\n") {
			t.Fatalf("whole and byte-by-byte reading differ:\n%q\n%q", whole.seq, bytewise.seq)
		}

		var out bytes.Buffer
		w := newWriter(&out, syn)
		for _, q := range whole.quads {
			if err := q.Validate(); err != nil {
				t.Fatalf("parsed an invalid quad %v: %v", q, err)
			}
			if err := w.Write(q); err != nil {
				t.Fatalf("cannot write parsed quad %v: %v", q, err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		again := readAll(t, newReader(&out, syn, opts), out.Len())
		if len(again.errs) != 0 || len(again.quads) != len(whole.quads) {
			t.Fatalf("written output does not read back: %q\n%s", again.seq, out.String())
		}
		for i, q := range whole.quads {
			if again.quads[i] != q {
				t.Fatalf("quad %d read back as %v, want %v", i, again.quads[i], q)
			}
		}
	})
}
