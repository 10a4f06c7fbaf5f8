package rdfxml

import (
	"errors"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/internal/w3c"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/ntriples"
)

const (
	head = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex.org/">` + "\n"
	tail = "\n</rdf:RDF>"
	base = "http://base.org/dir/doc"
)

func parse(t *testing.T, doc string) ([]rdf.Quad, error) {
	t.Helper()
	return w3c.Collect(NewReader(strings.NewReader(doc), rdf.ParseOptions{Name: "test.rdf", Base: base}))
}

func nt(t *testing.T, s string) []rdf.Quad {
	t.Helper()
	qs, err := w3c.Collect(ntriples.NewReader(strings.NewReader(s), rdf.ParseOptions{Name: "want"}))
	if err != nil {
		t.Fatalf("bad expected N-Triples: %v", err)
	}
	return qs
}

// The first cases are the documents github.com/knakk/rdf got wrong (see
// the package comment); the rest cover the other constructs.
var cases = []struct{ name, doc, want string }{
	{"nested rdf:Description with rdf:about",
		`<rdf:Description rdf:about="http://a"><ex:p><rdf:Description rdf:about="http://b"><ex:q>v</ex:q></rdf:Description></ex:p></rdf:Description>`,
		`<http://a> <http://ex.org/p> <http://b> .
		<http://b> <http://ex.org/q> "v" .`},
	{"typed node element as object",
		`<rdf:Description rdf:about="http://a"><ex:p><ex:T><ex:q>v</ex:q></ex:T></ex:p></rdf:Description>`,
		`<http://a> <http://ex.org/p> _:t .
		_:t <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://ex.org/T> .
		_:t <http://ex.org/q> "v" .`},
	{"relative and urn IRIs",
		`<rdf:Description rdf:about="x"><ex:p rdf:resource="../y"/><ex:r rdf:resource="urn:isbn:1"/><ex:s rdf:resource=""/></rdf:Description>`,
		`<http://base.org/dir/x> <http://ex.org/p> <http://base.org/y> .
		<http://base.org/dir/x> <http://ex.org/r> <urn:isbn:1> .
		<http://base.org/dir/x> <http://ex.org/s> <http://base.org/dir/doc> .`},
	{"rdf:type attribute next to a property attribute",
		`<rdf:Description rdf:about="http://a" rdf:type="http://T" ex:name="n"/>`,
		`<http://a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://T> .
		<http://a> <http://ex.org/name> "n" .`},
	{"collection of described and typed nodes",
		`<rdf:Description rdf:about="http://a"><ex:p rdf:parseType="Collection"><rdf:Description rdf:about="http://x"/><ex:T/></ex:p></rdf:Description>`,
		`<http://a> <http://ex.org/p> _:l1 .
		_:l1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> <http://x> .
		_:l1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> _:l2 .
		_:l2 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> _:t .
		_:l2 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .
		_:t <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://ex.org/T> .`},
	{"empty collection",
		`<rdf:Description rdf:about="http://a"><ex:p rdf:parseType="Collection"></ex:p></rdf:Description>`,
		`<http://a> <http://ex.org/p> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .`},
	{"rdf:li in a Seq",
		`<rdf:Seq rdf:about="http://s"><rdf:li>a</rdf:li><rdf:li rdf:resource="http://b"/><rdf:_7>c</rdf:_7></rdf:Seq>`,
		`<http://s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/1999/02/22-rdf-syntax-ns#Seq> .
		<http://s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#_1> "a" .
		<http://s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#_2> <http://b> .
		<http://s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#_7> "c" .`},
	{"rdf:datatype, empty literal",
		`<rdf:Description rdf:about="http://a" xml:lang="en"><ex:p rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">1</ex:p><ex:e></ex:e></rdf:Description>`,
		`<http://a> <http://ex.org/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .
		<http://a> <http://ex.org/e> ""@en .`},
	{"parseType Literal",
		`<rdf:Description rdf:about="http://a"><ex:p rdf:parseType="Literal"><ex:b z="2" a="1&amp;">x &lt; y</ex:b><i/></ex:p></rdf:Description>`,
		`<http://a> <http://ex.org/p> "<ex:b xmlns:ex=\"http://ex.org/\" a=\"1&amp;\" z=\"2\">x &lt; y</ex:b><i></i>"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#XMLLiteral> .`},
	{"parseType Resource",
		`<rdf:Description rdf:about="http://a"><ex:p rdf:parseType="Resource"><ex:q>v</ex:q></ex:p><ex:r>w</ex:r></rdf:Description>`,
		`<http://a> <http://ex.org/p> _:r .
		_:r <http://ex.org/q> "v" .
		<http://a> <http://ex.org/r> "w" .`},
	{"rdf:nodeID",
		`<rdf:Description rdf:nodeID="n1"><ex:p rdf:nodeID="n1"/></rdf:Description><rdf:Description><ex:p rdf:nodeID="n1"/></rdf:Description>`,
		`_:n1 <http://ex.org/p> _:n1 .
		_:x <http://ex.org/p> _:n1 .`},
	{"xml:base, rdf:ID",
		`<rdf:Description xml:base="http://other.org/a/b" rdf:about="c"><ex:p rdf:resource="#f"/><ex:q><rdf:Description rdf:ID="i" xml:base="/z"/></ex:q></rdf:Description>`,
		`<http://other.org/a/c> <http://ex.org/p> <http://other.org/a/b#f> .
		<http://other.org/a/c> <http://ex.org/q> <http://other.org/z#i> .`},
	{"xml:lang inherited from rdf:RDF and reset",
		`<rdf:Description rdf:about="http://a" ex:t="attr"><ex:p>hi</ex:p><ex:q xml:lang="">plain</ex:q><ex:r xml:lang="fr-CA">salut</ex:r></rdf:Description>`,
		`<http://a> <http://ex.org/t> "attr"@en .
		<http://a> <http://ex.org/p> "hi"@en .
		<http://a> <http://ex.org/q> "plain" .
		<http://a> <http://ex.org/r> "salut"@fr-CA .`},
	{"reification with rdf:ID on a property element",
		`<rdf:Description rdf:about="http://a"><ex:p rdf:ID="st">v</ex:p></rdf:Description>`,
		`<http://a> <http://ex.org/p> "v" .
		<http://base.org/dir/doc#st> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/1999/02/22-rdf-syntax-ns#Statement> .
		<http://base.org/dir/doc#st> <http://www.w3.org/1999/02/22-rdf-syntax-ns#subject> <http://a> .
		<http://base.org/dir/doc#st> <http://www.w3.org/1999/02/22-rdf-syntax-ns#predicate> <http://ex.org/p> .
		<http://base.org/dir/doc#st> <http://www.w3.org/1999/02/22-rdf-syntax-ns#object> "v" .`},
	{"unqualified about and resource, xml-prefixed attribute ignored",
		`<rdf:Description about="http://a" xmlfoo="x"><ex:p resource="http://b"/></rdf:Description>`,
		`<http://a> <http://ex.org/p> <http://b> .`},
	{"property attributes on empty property elements",
		`<rdf:Description rdf:about="http://a"><ex:p ex:n="1"/><ex:q rdf:resource="http://b" ex:m="2"/></rdf:Description>`,
		`<http://a> <http://ex.org/p> _:b .
		_:b <http://ex.org/n> "1" .
		<http://a> <http://ex.org/q> <http://b> .
		<http://b> <http://ex.org/m> "2" .`},
}

func TestReader(t *testing.T) {
	for _, c := range cases {
		doc := `<rdf:RDF xml:lang="en" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex.org/">` + c.doc + tail
		if !strings.Contains(c.name, "xml:lang") {
			doc = head + c.doc + tail
		}
		got, err := parse(t, doc)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if d := rdf.IsomorphismDiff(got, nt(t, c.want)); d != "" {
			t.Errorf("%s:\n%s", c.name, d)
		}
		for _, q := range got {
			if err := q.Validate(); err != nil {
				t.Errorf("%s: invalid quad %v: %v", c.name, q, err)
			}
		}
	}
}

// A lone node element may stand without rdf:RDF around it.
func TestDocumentElementIsNode(t *testing.T) {
	r := NewReader(strings.NewReader(`<?xml version="1.0"?>
<ex:Person xmlns:ex="http://ex.org/" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" rdf:about="#me"><ex:name>Me</ex:name></ex:Person>`), rdf.ParseOptions{Base: base})
	var _ rdf.PrefixReader = r
	got, err := w3c.Collect(r)
	if err != nil {
		t.Fatal(err)
	}
	if p := r.Prefixes(); len(p) != 2 || p["ex"] != "http://ex.org/" || p["rdf"] != rdf.RDFNS {
		t.Errorf("Prefixes() = %v", p)
	}
	want := nt(t, `<http://base.org/dir/doc#me> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://ex.org/Person> .
	<http://base.org/dir/doc#me> <http://ex.org/name> "Me" .`)
	if d := rdf.IsomorphismDiff(got, want); d != "" {
		t.Error(d)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name, doc  string
		line, col  int
		msgContain string
	}{
		{"unclosed element", head + "<rdf:Description rdf:about=\"http://a\">\n<ex:p>v</ex:p>\n", 4, 1, "XML"},
		{"rdf:about with rdf:nodeID", head + "<rdf:Description rdf:about=\"http://a\">\n  <ex:p>\n    <rdf:Description rdf:about=\"http://b\" rdf:nodeID=\"x\"/>", 4, 5, "only one of"},
		{"relative IRI without base", head + `<rdf:Description rdf:about="rel"/>`, 2, 1, "no base"},
		{"text between node elements", head + "<rdf:Description/>é stray text", 2, 19, "not allowed"},
		{"mixed content", head + `<rdf:Description><ex:p>text<rdf:Description/></ex:p></rdf:Description>`, 2, 28, "mix"},
		{"undeclared prefix", head + `<rdf:Description><zz:p>v</zz:p></rdf:Description>`, 2, 18, "not declared"},
		{"bad language tag", head + `<rdf:Description xml:lang="en_US"/>`, 2, 1, "language tag"},
		{"unqualified attribute", head + `<rdf:Description zz="x"/>`, 2, 1, "no namespace"},
		{"rdf:li attribute", head + `<rdf:Description rdf:li="x"/>`, 2, 1, "rdf:li"},
		{"bad rdf:nodeID", head + `<rdf:Description rdf:nodeID="1x"/>`, 2, 1, "NCName"},
		{"two node elements in a property", head + `<rdf:Description><ex:p><rdf:Description/><rdf:Description/></ex:p></rdf:Description>`, 2, 42, "only one node"},
		{"node in a datatyped property", head + `<rdf:Description><ex:p rdf:datatype="http://d"><rdf:Description/></ex:p></rdf:Description>`, 2, 48, "only text"},
		{"empty document", "", 1, 1, "no RDF/XML document element"},
	}
	for _, c := range cases {
		r := NewReader(strings.NewReader(c.doc), rdf.ParseOptions{Name: "bad.rdf"})
		_, err := w3c.Collect(r)
		var pe *rdf.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v (%T), want *rdf.ParseError", c.name, err, err)
			continue
		}
		if pe.Name != "bad.rdf" || pe.Line != c.line || pe.Col != c.col || !strings.Contains(pe.Msg, c.msgContain) {
			t.Errorf("%s: got %v, want bad.rdf:%d:%d: ...%s...", c.name, err, c.line, c.col, c.msgContain)
		}
		// The error sticks.
		if _, again := r.Next(); again != err {
			t.Errorf("%s: second Next = %v, want the same error", c.name, again)
		}
	}
}
