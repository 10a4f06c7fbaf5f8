package ntriples

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/mneme-archive/mneme/rdf"
)

// mixedDoc has every kind of line break, comments, blank lines, escapes
// and bad lines, so that cutting it anywhere exercises the chunking.
var mixedDoc = strings.Join([]string{
	"# a comment ü",
	"<http://example.org/s> <http://example.org/p> <http://example.org/o> .",
	"",
	"_:b1 <http://example.org/p> \"caf\\u00E9\\n\"@fr-CA . # trailing",
	"<http://example.org/s> <http://example.org/p> \"bad \\z\" .",
	"<http://example.org/\\u0073> <http://example.org/p> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> .\r",
	"\r<http://example.org/s> <http://example.org/p> _:o.\r\r",
	"<http://example.org/s> <http://example.org/p> \"日本語\" <http://example.org/g> .",
	"<s> <http://example.org/p> <http://example.org/o> .",
	"\t<http://example.org/s> <http://example.org/p> \"last\"",
}, "\n")

// TestChunkedEqualsStreaming splits a document into chunks of complete
// lines at every possible pair of line breaks, parses each chunk with its
// own ChunkParser numbered by CountLines, and expects exactly what the
// streaming reader returns: same quads, same errors at the same places.
func TestChunkedEqualsStreaming(t *testing.T) {
	for _, syn := range []Syntax{NTriples, NQuads} {
		want := parse(t, syn, mixedDoc).seq
		if len(want) < 8 {
			t.Fatalf("%s: only %d results: %q", syn, len(want), want)
		}
		cuts := chunkCuts([]byte(mixedDoc))
		for a := 0; a < len(cuts); a++ {
			for b := a; b < len(cuts); b++ {
				doc := []byte(mixedDoc)
				parts := [][]byte{doc[:cuts[a]], doc[cuts[a]:cuts[b]], doc[cuts[b]:]}
				var got []string
				line := 1
				for _, part := range parts {
					cp := NewChunkParser(syn, rdf.ParseOptions{Name: "in"})
					cp.Reset(part, line)
					got = append(got, readAll(t, cp, len(part)).seq...)
					if cp.Line() != line+CountLines(part) {
						t.Fatalf("%s: chunk %q ends on line %d, CountLines says %d", syn, part, cp.Line(), line+CountLines(part))
					}
					line += CountLines(part)
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Fatalf("%s: cut at %d and %d:\n got %q\nwant %q", syn, cuts[a], cuts[b], got, want)
				}
			}
		}
	}
}

// chunkCuts returns the offsets where a document may be cut into chunks,
// as ChunkParser documents: after each '\n' and before each '\r'.
func chunkCuts(doc []byte) []int {
	var cuts []int
	for i, c := range doc {
		switch {
		case c == '\n':
			cuts = append(cuts, i+1)
		case c == '\r':
			cuts = append(cuts, i)
		}
	}
	return cuts
}

// TestReaderBoundaries reads the document through readers that return
// one byte, half the data, or data together with io.EOF, so that chunks
// end everywhere, including between '\r' and '\n'.
func TestReaderBoundaries(t *testing.T) {
	want := parse(t, NQuads, mixedDoc).seq
	for name, r := range map[string]func() io.Reader{
		"one byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(mixedDoc)) },
		"half":     func() io.Reader { return iotest.HalfReader(strings.NewReader(mixedDoc)) },
		"data+EOF": func() io.Reader { return iotest.DataErrReader(strings.NewReader(mixedDoc)) },
	} {
		got := readAll(t, NewQuadReader(r(), rdf.ParseOptions{Name: "in"}), len(mixedDoc)).seq
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", name, got, want)
		}
	}
}

// TestLongLines checks that a line longer than the initial buffer is read
// whole (the buffer grows) and that a line longer than the bound is
// reported and skipped without holding it.
func TestLongLines(t *testing.T) {
	long := strings.Repeat("x", bigBuffer+1000)
	line := "<http://example.org/s> <http://example.org/p> \"" + long + "\" .\n"
	doc := line + line
	res := readAll(t, NewReader(iotest.HalfReader(strings.NewReader(doc)), rdf.ParseOptions{}), len(doc))
	if len(res.errs) != 0 || len(res.quads) != 2 || res.quads[1].O.Value != long {
		t.Fatalf("long lines: %d quads, errors %q", len(res.quads), res.errs)
	}

	doc = "<http://example.org/s> <http://example.org/p> \"short\" .\n" +
		"<http://example.org/s> <http://example.org/p> \"" + strings.Repeat("y", 5000) + "\" .\r\n" +
		"<http://example.org/s> <http://example.org/p> \"after\" .\n"
	r := NewReader(strings.NewReader(doc), rdf.ParseOptions{Name: "big.nt"})
	r.chunks.max = 1024
	res = readAll(t, r, len(doc))
	want := []string{
		`<http://example.org/s> <http://example.org/p> "short" .`,
		"error big.nt:2:1: line longer than 1024 bytes: skipped",
		`<http://example.org/s> <http://example.org/p> "after" .`,
	}
	if strings.Join(res.seq, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q\nwant %q", res.seq, want)
	}
	if len(r.chunks.buf) > 1024 {
		t.Errorf("buffer grew to %d bytes, bound is 1024", len(r.chunks.buf))
	}
}

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	in := io.MultiReader(strings.NewReader("<http://example.org/s> <http://example.org/p> <http://example.org/o> .\n"), iotest.ErrReader(boom))
	r := NewReader(in, rdf.ParseOptions{Name: "f.nt"})
	if _, err := r.Next(); err != nil {
		t.Fatalf("first statement: %v", err)
	}
	_, err := r.Next()
	if !errors.Is(err, boom) || err.Error() != "f.nt: boom" {
		t.Errorf("got %v, want f.nt: boom", err)
	}
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

func TestReaderWithoutProgress(t *testing.T) {
	if _, err := NewReader(emptyReader{}, rdf.ParseOptions{}).Next(); !errors.Is(err, io.ErrNoProgress) {
		t.Errorf("got %v, want io.ErrNoProgress", err)
	}
}

func TestCountLines(t *testing.T) {
	for in, want := range map[string]int{"": 0, "a": 0, "a\n": 1, "a\r\n": 1, "a\r": 1, "\r\r\n\n\r": 4, "a\rb\nc": 2} {
		if got := CountLines([]byte(in)); got != want {
			t.Errorf("CountLines(%q) = %d, want %d", in, got, want)
		}
	}
}

// TestQuadsAliasBuffer documents the rdf.Reader contract the reader
// relies on: a returned quad is overwritten by later reading, Clone keeps
// it.
func TestQuadsAliasBuffer(t *testing.T) {
	var doc bytes.Buffer
	for i := 0; i < 20000; i++ {
		doc.WriteString("<http://example.org/s> <http://example.org/p> \"v\\t" + strings.Repeat("z", i%7) + "\" .\n")
	}
	r := NewReader(&doc, rdf.ParseOptions{})
	first, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	kept := first.Clone()
	for {
		if _, err := r.Next(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if kept.O.Value != "v\t" {
		t.Errorf("clone changed: %q", kept.O.Value)
	}
}
