package ntriples

import (
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

const (
	ex    = "http://example.org/"
	exDT  = ex + "dt"
	nsXSD = rdf.XSDNS
)

var (
	s = rdf.IRI(ex + "s")
	p = rdf.IRI(ex + "p")
	o = rdf.IRI(ex + "o")
	g = rdf.IRI(ex + "g")
)

func TestParseValid(t *testing.T) {
	cases := []struct {
		name, in string
		want     rdf.Quad
	}{
		{"iris", "<http://example.org/s> <http://example.org/p> <http://example.org/o> .", rdf.Quad{S: s, P: p, O: o}},
		{"minimal whitespace", "<http://example.org/s><http://example.org/p><http://example.org/o>.", rdf.Quad{S: s, P: p, O: o}},
		{"tabs and spaces", "\t<http://example.org/s> \t<http://example.org/p>  <http://example.org/o>\t.\t", rdf.Quad{S: s, P: p, O: o}},
		{"comment after dot", "<http://example.org/s> <http://example.org/p> <http://example.org/o> .# done", rdf.Quad{S: s, P: p, O: o}},
		{"blank nodes", "_:a <http://example.org/p> _:b1 .", rdf.Quad{S: rdf.Blank("a"), P: p, O: rdf.Blank("b1")}},
		{"blank label starting with digit", "_:1a <http://example.org/p> _:_x .", rdf.Quad{S: rdf.Blank("1a"), P: p, O: rdf.Blank("_x")}},
		{"blank label with dots and dashes", "_:a.b-c <http://example.org/p> _:a..b .", rdf.Quad{S: rdf.Blank("a.b-c"), P: p, O: rdf.Blank("a..b")}},
		{"blank label trailing dot ends statement", "_:s <http://example.org/p> _:o.", rdf.Quad{S: rdf.Blank("s"), P: p, O: rdf.Blank("o")}},
		{"blank label unicode", "_:été <http://example.org/p> _:a·\u0301‿ .", rdf.Quad{S: rdf.Blank("été"), P: p, O: rdf.Blank("a·\u0301‿")}},
		{"blank label astral", "_:\U00010000x <http://example.org/p> _:b .", rdf.Quad{S: rdf.Blank("\U00010000x"), P: p, O: rdf.Blank("b")}},
		{"blank followed by literal", "_:s<http://example.org/p>\"v\".", rdf.Quad{S: rdf.Blank("s"), P: p, O: rdf.String("v")}},
		{"simple literal", `<http://example.org/s> <http://example.org/p> "hello" .`, rdf.Quad{S: s, P: p, O: rdf.String("hello")}},
		{"empty literal", `<http://example.org/s> <http://example.org/p> "" .`, rdf.Quad{S: s, P: p, O: rdf.String("")}},
		{"language tag", `<http://example.org/s> <http://example.org/p> "chat"@fr .`, rdf.Quad{S: s, P: p, O: rdf.LangLiteral("chat", "fr")}},
		{"language subtags", `<http://example.org/s> <http://example.org/p> "colour"@en-GB-x-1a .`, rdf.Quad{S: s, P: p, O: rdf.LangLiteral("colour", "en-GB-x-1a")}},
		{"language tag then dot", `<http://example.org/s> <http://example.org/p> "x"@en.`, rdf.Quad{S: s, P: p, O: rdf.LangLiteral("x", "en")}},
		{"datatype", `<http://example.org/s> <http://example.org/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .`, rdf.Quad{S: s, P: p, O: rdf.Literal("1", nsXSD+"integer")}},
		{"explicit xsd:string is the simple literal", `<http://example.org/s> <http://example.org/p> "a"^^<http://www.w3.org/2001/XMLSchema#string> .`, rdf.Quad{S: s, P: p, O: rdf.String("a")}},
		{"spaces around ^^", `<http://example.org/s> <http://example.org/p> "1" ^^ <http://example.org/dt> .`, rdf.Quad{S: s, P: p, O: rdf.Literal("1", exDT)}},
		{"ECHAR", `<http://example.org/s> <http://example.org/p> "\t\b\n\r\f\"\'\\" .`, rdf.Quad{S: s, P: p, O: rdf.String("\t\b\n\r\f\"'\\")}},
		{"UCHAR", `<http://example.org/s> <http://example.org/p> "\u00e9\U0001F600\u0000" .`, rdf.Quad{S: s, P: p, O: rdf.String("é😀\x00")}},
		{"raw controls and quotes", "<http://example.org/s> <http://example.org/p> \"a\x01\x7f'b\tc\" .", rdf.Quad{S: s, P: p, O: rdf.String("a\x01\x7f'b\tc")}},
		{"UTF-8 literal", `<http://example.org/s> <http://example.org/p> "日本語 ß 𝄞" .`, rdf.Quad{S: s, P: p, O: rdf.String("日本語 ß 𝄞")}},
		{"escaped literal with datatype and escaped IRI", `<http://example.org/\u0073> <http://example.org/p> "a\nb"^^<http://example.org/d\U00000074> .`, rdf.Quad{S: s, P: p, O: rdf.Literal("a\nb", exDT)}},
		{"UCHAR in IRI", `<http://example.org/\u0053> <http://example.org/p> <http://example.org/a\u0020b> .`, rdf.Quad{S: rdf.IRI(ex + "S"), P: p, O: rdf.IRI(ex + "a b")}},
		{"UTF-8 in IRI", `<http://example.org/été> <http://example.org/p> <urn:x:日本> .`, rdf.Quad{S: rdf.IRI(ex + "été"), P: p, O: rdf.IRI("urn:x:日本")}},
		{"IRI punctuation", "<http://example.org/s> <http://example.org/p> <scheme:!$%25&'()*+,-./0123456789:/@ABZ_az~?#\x7f> .", rdf.Quad{S: s, P: p, O: rdf.IRI("scheme:!$%25&'()*+,-./0123456789:/@ABZ_az~?#\x7f")}},
	}
	for _, c := range cases {
		for _, syn := range []Syntax{NTriples, NQuads} {
			res := parse(t, syn, c.in)
			if len(res.errs) > 0 || len(res.quads) != 1 || res.quads[0] != c.want {
				t.Errorf("%s (%s): %q\n got %q\nwant %v", c.name, syn, c.in, res.seq, c.want)
			}
		}
	}
}

func TestParseQuads(t *testing.T) {
	in := "<http://example.org/s> <http://example.org/p> <http://example.org/o> <http://example.org/g> .\n" +
		"<http://example.org/s> <http://example.org/p> \"v\"@en _:g1 .\n" +
		"<http://example.org/s> <http://example.org/p> \"v\"^^<http://example.org/dt><http://example.org/g>.\n" +
		"<http://example.org/s> <http://example.org/p> _:o _:g.\n" +
		"<http://example.org/s> <http://example.org/p> <http://example.org/o> .\n"
	want := []rdf.Quad{
		{S: s, P: p, O: o, G: g},
		{S: s, P: p, O: rdf.LangLiteral("v", "en"), G: rdf.Blank("g1")},
		{S: s, P: p, O: rdf.Literal("v", exDT), G: g},
		{S: s, P: p, O: rdf.Blank("o"), G: rdf.Blank("g")},
		{S: s, P: p, O: o},
	}
	res := parse(t, NQuads, in)
	if len(res.errs) > 0 || len(res.quads) != len(want) {
		t.Fatalf("got %q", res.seq)
	}
	for i := range want {
		if res.quads[i] != want[i] {
			t.Errorf("quad %d = %v, want %v", i, res.quads[i], want[i])
		}
	}
}

// TestLines checks line breaks (LF, CRLF, lone CR), blank and comment
// lines, a last line without break, and the line numbers errors get.
func TestLines(t *testing.T) {
	const st = "<http://example.org/s> <http://example.org/p> <http://example.org/o> ."
	cases := []struct {
		name, in string
		quads    int
		errs     []string
	}{
		{"empty", "", 0, nil},
		{"only blank lines", "\n\r\n\r \t\n", 0, nil},
		{"only comments", "# one\n   # two ü\r\n#", 0, nil},
		{"no final break", st + "\n" + st, 2, nil},
		{"LF", st + "\n\n" + st + "\n@\n", 2, []string{"in:4:1: expected a subject (IRI or blank node), found '@'"}},
		{"CRLF", st + "\r\n\r\n" + st + "\r\n@\r\n", 2, []string{"in:4:1: expected a subject (IRI or blank node), found '@'"}},
		{"lone CR", st + "\r\r" + st + "\r@\r", 2, []string{"in:4:1: expected a subject (IRI or blank node), found '@'"}},
		{"LF CR counts two lines", st + "\n\r@", 1, []string{"in:3:1: expected a subject (IRI or blank node), found '@'"}},
		{"comment lines counted", "# c\n#d\r\n" + st + " # trailing\n  @", 1, []string{"in:4:3: expected a subject (IRI or blank node), found '@'"}},
	}
	for _, c := range cases {
		res := parse(t, NTriples, c.in)
		if len(res.quads) != c.quads || strings.Join(res.errs, "|") != strings.Join(c.errs, "|") {
			t.Errorf("%s: got %d quads and errors %q, want %d and %q", c.name, len(res.quads), res.errs, c.quads, c.errs)
		}
	}
}

// TestResumeAfterError checks that each bad line yields one error and
// reading goes on with the next line, as --skip-invalid needs.
func TestResumeAfterError(t *testing.T) {
	in := "<http://example.org/s> <http://example.org/p> <http://example.org/o> .\n" +
		"<http://example.org/s> <http://example.org/p> \"unterminated .\n" +
		"<http://example.org/s> <http://example.org/p> \"v\" . <http://example.org/s> <http://example.org/p> <http://example.org/o> .\r" +
		"<http://example.org/s> <http://example.org/p> \"last\" ."
	res := parse(t, NTriples, in)
	want := []string{
		"<http://example.org/s> <http://example.org/p> <http://example.org/o> .",
		"error in:2:62: expected '\"' to end the literal, found end of line",
		"error in:3:53: expected the end of the line after '.', found '<' (one statement per line)",
		`<http://example.org/s> <http://example.org/p> "last" .`,
	}
	if strings.Join(res.seq, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(res.seq, "\n"), strings.Join(want, "\n"))
	}
}
