package ntriples

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

func TestWriterRoundTrip(t *testing.T) {
	quads := []rdf.Quad{
		{S: s, P: p, O: o},
		{S: rdf.Blank("b.1"), P: p, O: rdf.String("tab\there \"quoted\" \\ \n\r\x01\x7f é 😀")},
		{S: rdf.IRI("http://example.org/a b<>\"{}|^`\\"), P: p, O: rdf.LangLiteral("chat", "fr-CA")},
		{S: s, P: p, O: rdf.Literal("1", rdf.XSDInteger), G: g},
		{S: s, P: p, O: rdf.Blank("日本"), G: rdf.Blank("g")},
	}
	var buf bytes.Buffer
	w := NewQuadWriter(&buf)
	for _, q := range quads {
		if err := w.Write(q); err != nil {
			t.Fatal(err)
		}
	}
	if buf.Len() != 0 {
		t.Errorf("writer did not buffer: %d bytes before Close", buf.Len())
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	wantText := `<http://example.org/s> <http://example.org/p> <http://example.org/o> .
_:b.1 <http://example.org/p> "tab\there \"quoted\" \\ \n\r\u0001\u007F é 😀" .
<http://example.org/a\u0020b\u003C\u003E\u0022\u007B\u007D\u007C\u005E\u0060\u005C> <http://example.org/p> "chat"@fr-CA .
<http://example.org/s> <http://example.org/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> <http://example.org/g> .
<http://example.org/s> <http://example.org/p> _:日本 _:g .
`
	if buf.String() != wantText {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), wantText)
	}
	res := parse(t, NQuads, buf.String())
	if len(res.errs) != 0 || len(res.quads) != len(quads) {
		t.Fatalf("read back %q", res.seq)
	}
	for i := range quads {
		if res.quads[i] != quads[i] {
			t.Errorf("quad %d read back as %v, want %v", i, res.quads[i], quads[i])
		}
	}
	if err := w.Write(quads[0]); err == nil {
		t.Error("Write after Close succeeded")
	}
}

func TestWriterRefuses(t *testing.T) {
	cases := []struct {
		q    rdf.Quad
		want string
	}{
		{rdf.Quad{S: s, P: p, O: o, G: g}, "ntriples: cannot write a quad in named graph <http://example.org/g> as N-Triples, which has only the default graph: use N-Quads"},
		{rdf.Quad{S: rdf.String("x"), P: p, O: o}, `ntriples: cannot write "x" <http://example.org/p> <http://example.org/o> .: subject "x" must be an IRI or a blank node`},
		{rdf.Quad{S: rdf.IRI("rel"), P: p, O: o}, "ntriples: cannot write <rel> <http://example.org/p> <http://example.org/o> .: <rel> is a relative IRI"},
		{rdf.Quad{S: rdf.Blank("a b"), P: p, O: o}, "ntriples: cannot write _:a b <http://example.org/p> <http://example.org/o> .: _:a b is not a valid blank node label"},
		{rdf.Quad{S: rdf.Blank("a."), P: p, O: o}, "ntriples: cannot write _:a. <http://example.org/p> <http://example.org/o> .: _:a. is not a valid blank node label"},
		{rdf.Quad{S: rdf.Blank(""), P: p, O: o}, "ntriples: cannot write _: <http://example.org/p> <http://example.org/o> .: _: is not a valid blank node label"},
		{rdf.Quad{S: s, P: p, O: rdf.Literal("x", "dt")}, `ntriples: cannot write <http://example.org/s> <http://example.org/p> "x"^^<dt> .: "x"^^<dt> has a relative datatype IRI`},
		{rdf.Quad{S: s, P: p, O: rdf.LangLiteral("x", "en_US")}, `ntriples: cannot write <http://example.org/s> <http://example.org/p> "x"@en_US .: "x"@en_US has a malformed language tag`},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		w := NewWriter(&buf)
		err := w.Write(c.q)
		if err == nil || err.Error() != c.want {
			t.Errorf("Write(%v) = %v\nwant %s", c.q, err, c.want)
		}
		// the writer stays usable and wrote nothing for the refused quad
		if err := w.Write(rdf.Quad{S: s, P: p, O: o}); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if got := buf.String(); got != "<http://example.org/s> <http://example.org/p> <http://example.org/o> .\n" {
			t.Errorf("after refusing %v the output is %q", c.q, got)
		}
	}
}

func TestWriterFlushesAndReportsErrors(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	q := rdf.Quad{S: s, P: p, O: rdf.String(strings.Repeat("v", 1000))}
	n := 0
	for buf.Len() == 0 {
		if err := w.Write(q); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n > flushAt/1000+1 {
		t.Errorf("first flush after %d quads of ~1 KB", n)
	}

	boom := errors.New("disk full")
	w = NewWriter(errWriter{boom})
	var err error
	for i := 0; i < 1000 && err == nil; i++ {
		err = w.Write(q)
	}
	if !errors.Is(err, boom) {
		t.Fatalf("write error not reported: %v", err)
	}
	if err := w.Close(); !errors.Is(err, boom) {
		t.Errorf("Close after a failed write = %v", err)
	}
}

type errWriter struct{ err error }

func (w errWriter) Write([]byte) (int, error) { return 0, w.err }
