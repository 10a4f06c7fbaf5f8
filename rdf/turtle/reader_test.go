package turtle

import (
	"errors"
	"io"
	"maps"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

func openReader(in io.Reader, opts rdf.ParseOptions, trig bool) *Reader {
	if trig {
		return NewTriGReader(in, opts)
	}
	return NewReader(in, opts)
}

// parseAll reads a whole document and returns its quads as N-Quads lines.
func parseAll(t *testing.T, doc string, trig bool) ([]string, error) {
	t.Helper()
	opts := rdf.ParseOptions{Name: "doc", Base: "http://base.example/dir/file"}
	r := openReader(strings.NewReader(doc), opts, trig)
	var out []string
	for {
		q, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if err := q.Validate(); err != nil {
			t.Fatalf("invalid quad %v: %v", q, err)
		}
		out = append(out, q.String())
	}
}

func TestGrammarCorners(t *testing.T) {
	const ex = "@prefix ex: <http://ex/> .\n"
	cases := []struct {
		name, doc string
		want      []string
	}{
		{"relative IRIs against the base", `<s> <#p> <../o> .`,
			[]string{`<http://base.example/dir/s> <http://base.example/dir/file#p> <http://base.example/o> .`}},
		{"@base then relative @base", "@base <http://a/b/> . BASE <c/> <s> <p> <o> .",
			[]string{`<http://a/b/c/s> <http://a/b/c/p> <http://a/b/c/o> .`}},
		{"SPARQL PREFIX in any case", "pReFiX p: <http://p/> p:s p:p p:o .",
			[]string{`<http://p/s> <http://p/p> <http://p/o> .`}},
		{"UCHAR in IRI", `<http://ex/\u00E9\U0001F600> <http://ex/p> "x" .`,
			[]string{`<http://ex/é😀> <http://ex/p> "x" .`}},
		{"a, numbers, booleans", ex + "ex:s a ex:C ; ex:p 1, -2.5, .5e3, +3, 1.E2, true, false .",
			[]string{
				`<http://ex/s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://ex/C> .`,
				`<http://ex/s> <http://ex/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
				`<http://ex/s> <http://ex/p> "-2.5"^^<http://www.w3.org/2001/XMLSchema#decimal> .`,
				`<http://ex/s> <http://ex/p> ".5e3"^^<http://www.w3.org/2001/XMLSchema#double> .`,
				`<http://ex/s> <http://ex/p> "+3"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
				`<http://ex/s> <http://ex/p> "1.E2"^^<http://www.w3.org/2001/XMLSchema#double> .`,
				`<http://ex/s> <http://ex/p> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> .`,
				`<http://ex/s> <http://ex/p> "false"^^<http://www.w3.org/2001/XMLSchema#boolean> .`,
			}},
		{"integer directly before the final dot", ex + "ex:s ex:p 7.",
			[]string{`<http://ex/s> <http://ex/p> "7"^^<http://www.w3.org/2001/XMLSchema#integer> .`}},
		{"strings, escapes, language and datatype", ex + `ex:s ex:p 'a\'b', """l1
""l2""", "\u00e9\t"@en-GB, "5" ^^ ex:t, ''''''.`,
			[]string{
				`<http://ex/s> <http://ex/p> "a'b" .`,
				`<http://ex/s> <http://ex/p> "l1\n\"\"l2" .`,
				`<http://ex/s> <http://ex/p> "é\t"@en-GB .`,
				`<http://ex/s> <http://ex/p> "5"^^<http://ex/t> .`,
				`<http://ex/s> <http://ex/p> "" .`,
			}},
		{"local names: dots, colons, escapes, %-escapes", ex + `ex:a.b:c ex:\~\.x ex:%41b. ex:s ex:p ex:1 .`,
			[]string{
				`<http://ex/a.b:c> <http://ex/~.x> <http://ex/%41b> .`,
				`<http://ex/s> <http://ex/p> <http://ex/1> .`,
			}},
		{"empty prefix and prefix-only name", "@prefix : <http://e/> . : : :.",
			[]string{`<http://e/> <http://e/> <http://e/> .`}},
		{"blank labels kept, '_' labels shifted, generated ones distinct", ex + "_:b1 ex:p _:_g1 . [] ex:p [ ex:q _:b1 ] .",
			[]string{
				`_:b1 <http://ex/p> _:__g1 .`,
				`_:_g1 <http://ex/p> _:_g2 .`,
				`_:_g2 <http://ex/q> _:b1 .`,
			}},
		{"blank node property list as subject, alone", ex + "[ ex:p 1 ] .",
			[]string{`_:_g1 <http://ex/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .`}},
		{"collections: empty, nested, as subject", ex + "ex:s ex:p (), (1 (ex:a) []) . (ex:x) ex:q ex:o .",
			[]string{
				`<http://ex/s> <http://ex/p> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .`,
				`<http://ex/s> <http://ex/p> _:_g1 .`,
				`_:_g1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
				`_:_g1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> _:_g3 .`,
				`_:_g3 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> _:_g2 .`,
				`_:_g2 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> <http://ex/a> .`,
				`_:_g2 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .`,
				`_:_g3 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> _:_g5 .`,
				`_:_g5 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> _:_g4 .`,
				`_:_g5 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .`,
				`_:_g6 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> <http://ex/x> .`,
				`_:_g6 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .`,
				`_:_g6 <http://ex/q> <http://ex/o> .`,
			}},
		{"byte order mark at the start", "\uFEFF<s> <p> <o> .",
			[]string{`<http://base.example/dir/s> <http://base.example/dir/p> <http://base.example/dir/o> .`}},
		{"repeated semicolons and comments", ex + "ex:s ex:p ex:o ;; # c\n ex:q ex:r ; . # end",
			[]string{`<http://ex/s> <http://ex/p> <http://ex/o> .`, `<http://ex/s> <http://ex/q> <http://ex/r> .`}},
	}
	for _, c := range cases {
		got, err := parseAll(t, c.doc, false)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", c.name, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

func TestTriGGraphs(t *testing.T) {
	doc := `@prefix ex: <http://ex/> .
ex:s ex:p ex:o .
ex:g { ex:s ex:p ex:o1 . ex:s ex:p ex:o2 }
GRAPH _:b { ex:s ex:p [ ex:q 1 ] . }
{ ex:d ex:p ex:o }
[] { ex:x ex:y ex:z }
graph [] { }
`
	got, err := parseAll(t, doc, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`<http://ex/s> <http://ex/p> <http://ex/o> .`,
		`<http://ex/s> <http://ex/p> <http://ex/o1> <http://ex/g> .`,
		`<http://ex/s> <http://ex/p> <http://ex/o2> <http://ex/g> .`,
		`<http://ex/s> <http://ex/p> _:_g1 _:b .`,
		`_:_g1 <http://ex/q> "1"^^<http://www.w3.org/2001/XMLSchema#integer> _:b .`,
		`<http://ex/d> <http://ex/p> <http://ex/o> .`,
		`<http://ex/x> <http://ex/y> <http://ex/z> _:_g2 .`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		doc  string
		trig bool
		want string // exact ParseError text
	}{
		{"<s> <p> <o>", false, "doc:1:12: expected ',', ';' or '.', found end of input"},
		{"<s> <p>\n  \"x\" ; <q> 12 ]", false, "doc:2:16: expected ',', ';' or '.', found ']'"},
		{"ex:s <p> <o> .", false, `doc:1:1: undefined prefix "ex:"`},
		{"<s> <p> \"a\nb\" .", false, "doc:1:11: line break in a single-line string literal (use \"\"\" or \\n)"},
		{"<s> <p> \"\\ud800\" .", false, "doc:1:10: numeric escape U+D800 is not a Unicode scalar value"},
		{"<s> <p> \"é\xff\" .", false, "doc:1:11: invalid UTF-8 in string literal"},
		{"<s> <p> <a b> .", false, "doc:1:11: character ' ' is not allowed in an IRI"},
		{"<s> <p> \"x\"^^\"y\" .", false, "doc:1:14: expected datatype IRI after '^^', found string literal"},
		{"\"lit\" <p> <o> .", false, "doc:1:1: expected subject or directive, found string literal"},
		{"<s> \"p\" <o> .", false, "doc:1:5: expected predicate (IRI, prefixed name or 'a'), found string literal"},
		{"@prefix ex: <http://ex/>\n<s> <p> <o> .", false, "doc:2:1: expected '.' to end the directive, found IRI <s>"},
		{"@keywords a .", false, "doc:1:1: unknown directive @keywords (expected @prefix or @base)"},
		{"<s> <p> 1e .", false, "doc:1:11: expected digit in exponent, found ' '"},
		{"<s> <p> [ <q> 1. ] .", false, "doc:1:16: expected ',', ';' or ']', found '.'"},
		{"<g> { <s> <p> <o> }", false, "doc:1:5: expected predicate (IRI, prefixed name or 'a'), found '{'"},
		{"<g> { <s> <p> <o> ", true, "doc:1:19: expected ',', ';', '.' or '}', found end of input"},
		{"{ <g> { } }", true, "doc:1:7: expected predicate (IRI, prefixed name or 'a'), found '{'"},
		{"{ @prefix ex: <http://ex/> . }", true, "doc:1:3: directive '@prefix' is not allowed inside a graph block"},
		{"GRAPH ( ) { }", true, "doc:1:7: expected graph name (IRI or blank node) after GRAPH, found '('"},
		{"<s> <p> <o> } ", true, "doc:1:13: expected ',', ';' or '.', found '}'"},
		{"{ <s> <p> <o> } .", true, "doc:1:17: expected subject, graph block or directive, found '.'"},
		{"<s> <p> \"x\" ,\n\t\t  ", false, "doc:2:5: expected object, found end of input"},
	}
	for _, c := range cases {
		_, err := parseAll(t, c.doc, c.trig)
		var pe *rdf.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%q: got %v, want a *rdf.ParseError", c.doc, err)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.doc, err, c.want)
		}
	}
}

func TestErrorIsSticky(t *testing.T) {
	r := NewReader(strings.NewReader("<http://s> <http://p> <http://o> . <http://s> <http://p> . <http://s> <http://p> <http://o2> ."), rdf.ParseOptions{})
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	_, err1 := r.Next()
	_, err2 := r.Next()
	if err1 == nil || err1 != err2 {
		t.Fatalf("errors %v then %v, want the same error twice", err1, err2)
	}
}

func TestMaxDepth(t *testing.T) {
	doc := "<s> <p> " + strings.Repeat("[ <p> ", MaxDepth+1)
	_, err := parseAll(t, doc, false)
	if err == nil || !strings.Contains(err.Error(), "nesting deeper than") {
		t.Fatalf("got %v, want a nesting depth error", err)
	}
	doc = "<s> <p> " + strings.Repeat("(", MaxDepth-1) + strings.Repeat(")", MaxDepth-1) + " ."
	if _, err := parseAll(t, doc, false); err != nil {
		t.Fatalf("nesting at the limit: %v", err)
	}
}

func TestPrefixes(t *testing.T) {
	r := NewTriGReader(strings.NewReader("@prefix a: <http://a/> . PREFIX : <http://d/>\n@prefix a: <http://a2/> .\n:s :p :o ."), rdf.ParseOptions{})
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "http://a2/", "": "http://d/"}
	got := r.Prefixes()
	if !maps.Equal(got, want) {
		t.Fatalf("Prefixes() = %v, want %v", got, want)
	}
	got["x"] = "http://x/"
	if _, ok := r.Prefixes()["x"]; ok {
		t.Fatal("Prefixes() returned the reader's own map")
	}
}

func TestRelativeIRIWithoutBase(t *testing.T) {
	r := NewReader(strings.NewReader("<s> <http://p> <http://o> ."), rdf.ParseOptions{Name: "x.ttl"})
	_, err := r.Next()
	if err == nil || err.Error() != "x.ttl:1:1: relative IRI <s> but no base IRI is set" {
		t.Fatalf("got %v", err)
	}
}

// failingReader returns its data, then an error instead of io.EOF.
type failingReader struct{ data string }

var errDisk = errors.New("disk on fire")

func (f *failingReader) Read(p []byte) (int, error) {
	if f.data == "" {
		return 0, errDisk
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

func TestReadErrorIsNotASyntaxError(t *testing.T) {
	r := NewReader(&failingReader{data: "<http://s> <http://p> \"unfinished"}, rdf.ParseOptions{Name: "f.ttl"})
	_, err := r.Next()
	if !errors.Is(err, errDisk) || err.Error() != "f.ttl:1:34: reading input: disk on fire" {
		t.Fatalf("got %v, want the reader's error with its position", err)
	}
}
