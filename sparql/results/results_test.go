package results

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

func TestWriterOutput(t *testing.T) {
	r := &Results{Vars: []string{"x", "y"}, Rows: [][]rdf.Term{
		{rdf.IRI("http://e/"), rdf.Literal("1", rdf.XSDInteger)},
		{rdf.LangLiteral("a,b", "en"), rdf.Term{}},
	}}
	want := map[Format]string{
		JSON: `{"head":{"vars":["x","y"]},"results":{"bindings":[` + "\n" +
			`{"x":{"type":"uri","value":"http://e/"},"y":{"type":"literal","value":"1","datatype":"http://www.w3.org/2001/XMLSchema#integer"}},` + "\n" +
			`{"x":{"type":"literal","value":"a,b","xml:lang":"en"}}` + "\n]}}\n",
		XML: `<?xml version="1.0"?>` + "\n" + `<sparql xmlns="http://www.w3.org/2005/sparql-results#">` + "\n<head>\n" +
			`  <variable name="x"/>` + "\n" + `  <variable name="y"/>` + "\n</head>\n<results>\n" +
			`<result><binding name="x"><uri>http://e/</uri></binding><binding name="y"><literal datatype="http://www.w3.org/2001/XMLSchema#integer">1</literal></binding></result>` + "\n" +
			`<result><binding name="x"><literal xml:lang="en">a,b</literal></binding></result>` + "\n</results>\n</sparql>\n",
		CSV: "x,y\r\nhttp://e/,1\r\n\"a,b\",\r\n",
		TSV: "?x\t?y\n<http://e/>\t1\n\"a,b\"@en\t\n",
	}
	for f, w := range want {
		var buf bytes.Buffer
		if err := Write(&buf, f, r); err != nil {
			t.Fatal(err)
		}
		if buf.String() != w {
			t.Errorf("%v:\n got  %q\n want %q", f, buf.String(), w)
		}
	}
}

func TestStreamingAndMisuse(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, JSON)
	if err := w.Row([]rdf.Term{rdf.IRI("http://e/")}); err == nil {
		t.Error("Row before Head accepted")
	}
	if err := w.Head([]string{"x"}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 0 {
		t.Error("writer did not buffer")
	}
	if err := w.Row([]rdf.Term{rdf.IRI("http://e/")}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil || !strings.Contains(buf.String(), "http://e/") {
		t.Errorf("Flush did not push the row: %q, %v", buf.String(), err)
	}
	if err := w.Boolean(true); err == nil {
		t.Error("Boolean after Head accepted")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadJSON(&buf, "streamed"); err != nil {
		t.Errorf("streamed document does not parse: %v", err)
	}
}

func TestReadErrors(t *testing.T) {
	cases := []struct {
		f       Format
		doc     string
		wantErr string
	}{
		{JSON, `{"head":{"vars":["x"]},"results":{"bindings":[{"x":{"type":"iri","value":"a"}}]}}`, `binding 1 of ?x: unknown term type "iri"`},
		{JSON, `{"head":{"vars":["x"]}`, `t.srj: unexpected EOF`},
		{JSON, `{"results":{"bindings":[]}}`, `missing "head"`},
		{JSON, `{"head":{}}`, `missing "results" or "boolean"`},
		{XML, `<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head/><results><result><binding><uri>x</uri></binding></result></results></sparql>`, `t.srj:1:`},
		{XML, `<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head/><boolean>maybe</boolean></sparql>`, `<boolean> is not true or false`},
		{XML, `<sparql><head/></sparql>`, `not in the SPARQL results namespace`},
		{XML, `<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head/>`, `XML syntax error`},
		{TSV, "?x\t?y\n<a>\n", `t.srj:2: found 1 fields, want 2`},
		{TSV, "?x\tbad\n", `t.srj:1:4: header field "bad" is not a variable`},
		{TSV, "?x\t?y\n<a>\t\"unterminated\n", `t.srj:2:5: unterminated string`},
		{TSV, "?x\n\"a\"^^xsd:string\n", `unexpected "^^xsd:string" after string`},
		{TSV, "?x\n\"\\q\"\n", `invalid escape \q`},
		{TSV, "?x\n<\\u12>\n", `short \u escape`},
		{TSV, "?x\nfoo\n", `cannot read term "foo"`},
		{TSV, "", `empty document`},
		{CSV, "x,y\n1\n", `t.srj:2: found 1 fields, want 2`},
		{CSV, "x\n\"a\n", `t.srj:`},
	}
	for _, c := range cases {
		_, err := Read(strings.NewReader(c.doc), c.f, "t.srj")
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%v %q: error %v, want it to contain %q", c.f, c.doc, err, c.wantErr)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{
		"json": JSON, "application/sparql-results+json": JSON, ".srj": JSON,
		"application/sparql-results+xml; charset=utf-8": XML, ".srx": XML,
		"text/csv": CSV, "TSV": TSV, "text/tab-separated-values": TSV,
	} {
		if got, err := ParseFormat(in); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseFormat("text/html"); err == nil {
		t.Error("text/html accepted")
	}
}

func TestTSVTerms(t *testing.T) {
	for in, want := range map[string]rdf.Term{
		`4`:                 rdf.Literal("4", rdf.XSDInteger),
		`-5.5`:              rdf.Literal("-5.5", rdf.XSDDecimal),
		`.5`:                rdf.Literal(".5", rdf.XSDDecimal),
		`1.0e6`:             rdf.Literal("1.0e6", rdf.XSDDouble),
		`1E-2`:              rdf.Literal("1E-2", rdf.XSDDouble),
		`true`:              rdf.Literal("true", rdf.XSDBoolean),
		`_:b0`:              rdf.Blank("b0"),
		`<http://a/\u00E9>`: rdf.IRI("http://a/é"),
		`"a\tb\\"`:          rdf.String("a\tb\\"),
		`'it''`:             rdf.Term{},
		`"x"@en-GB`:         rdf.LangLiteral("x", "en-GB"),
		`"\U0001F600"`:      rdf.String("😀"),
	} {
		got, err := parseTSVTerm(in)
		if want.IsZero() {
			if err == nil {
				t.Errorf("parseTSVTerm(%q) = %v, want an error", in, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("parseTSVTerm(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, s := range []string{"1.", "+-1", "1e", "e5", "--1", "1.2.3"} {
		if _, ok := bareDatatype(s); ok {
			t.Errorf("bareDatatype(%q) accepted", s)
		}
	}
}
