package ntriples

import (
	"testing"
)

// TestErrors checks the message and the exact line:column (in characters)
// of every kind of syntax error.
func TestErrors(t *testing.T) {
	const sp = "<http://example.org/s> <http://example.org/p> " // 46 characters
	cases := []struct {
		syn      Syntax
		in, want string
	}{
		// statement structure
		{NTriples, `"s" <http://example.org/p> <http://example.org/o> .`, "in:1:1: a literal cannot be a subject: expected an IRI or a blank node"},
		{NTriples, `  s <http://example.org/p> <http://example.org/o> .`, "in:1:3: expected a subject (IRI or blank node), found 's'"},
		{NTriples, `<http://example.org/s> _:p <http://example.org/o> .`, "in:1:24: a blank node cannot be a predicate: expected an IRI"},
		{NTriples, `<http://example.org/s> "p" <http://example.org/o> .`, "in:1:24: a literal cannot be a predicate: expected an IRI"},
		{NTriples, `<http://example.org/s>`, "in:1:23: expected a predicate (IRI), found end of line"},
		{NTriples, sp + "1 .", "in:1:47: expected an object (IRI, blank node or literal), found '1'"},
		{NTriples, sp + "\x00 .", "in:1:47: expected an object (IRI, blank node or literal), found control character U+0000"},
		{NTriples, sp + "<http://example.org/o>", "in:1:69: expected '.' to end the triple, found end of line"},
		{NTriples, sp + "<http://example.org/o> ; .", "in:1:70: expected '.' to end the triple, found ';'"},
		{NTriples, sp + "<http://example.org/o> <http://example.org/g> .", "in:1:70: expected '.' to end the triple, found '<' (N-Triples has no graph label: use N-Quads)"},
		{NTriples, sp + "<http://example.org/o> _:g .", "in:1:70: expected '.' to end the triple, found '_' (N-Triples has no graph label: use N-Quads)"},
		{NTriples, sp + "<http://example.org/o> . x", "in:1:72: expected the end of the line after '.', found 'x' (one statement per line)"},
		{NQuads, sp + "<http://example.org/o> \"g\" .", "in:1:70: a literal cannot be a graph label: expected an IRI or a blank node"},
		{NQuads, sp + "<http://example.org/o> , .", "in:1:70: expected a graph label (IRI or blank node) or '.', found ','"},
		{NQuads, sp + "<http://example.org/o> _:g _:h .", "in:1:74: expected '.' to end the quad, found '_' (a statement has at most one graph label)"},
		{NQuads, sp + "<http://example.org/o> _:g", "in:1:73: expected '.' to end the quad, found end of line"},
		// IRIs
		{NTriples, `<s> <http://example.org/p> <http://example.org/o> .`, "in:1:1: relative IRI <s>: N-Triples allows only absolute IRIs (with a scheme such as http:)"},
		{NQuads, sp + `<http://example.org/o> <g> .`, "in:1:70: relative IRI <g>: N-Quads allows only absolute IRIs (with a scheme such as http:)"},
		{NTriples, sp + `"x"^^<dt> .`, "in:1:52: relative IRI <dt>: N-Triples allows only absolute IRIs (with a scheme such as http:)"},
		{NTriples, sp + `<1http:x> .`, "in:1:47: relative IRI <1http:x>: N-Triples allows only absolute IRIs (with a scheme such as http:)"},
		{NTriples, sp + `<\u0068ttp://x> .`, ""},
		{NTriples, sp + `<h\u003Ax> .`, ""},
		{NTriples, sp + `<é:x> .`, "in:1:47: relative IRI <é:x>: N-Triples allows only absolute IRIs (with a scheme such as http:)"},
		{NTriples, sp + `<http://a b> .`, "in:1:56: space is not allowed in an IRI (write it as \\u0020)"},
		{NTriples, sp + "<http://a\tb> .", "in:1:56: tab is not allowed in an IRI (write it as \\u0009)"},
		{NTriples, sp + `<http://a{b> .`, "in:1:56: '{' is not allowed in an IRI (write it as \\u007B)"},
		{NTriples, sp + `<http://a"b> .`, "in:1:56: '\"' is not allowed in an IRI (write it as \\u0022)"},
		{NTriples, sp + `<http://a<b> .`, "in:1:56: '<' is not allowed in an IRI (write it as \\u003C)"},
		{NTriples, sp + "<http://é\x01> .", "in:1:56: control character U+0001 is not allowed in an IRI (write it as \\u0001)"},
		{NTriples, sp + "<http://a", "in:1:56: expected '>' to end the IRI, found end of line"},
		{NTriples, sp + "<http://é\n", "in:1:56: expected '>' to end the IRI, found end of line"},
		{NTriples, sp + `<http://a\n> .`, "in:1:57: expected 'u' or 'U' after '\\' in an IRI (only \\uXXXX and \\UXXXXXXXX escapes are allowed there), found 'n'"},
		{NTriples, sp + `<http://a\u00G1> .`, "in:1:60: expected 4 hex digits after \\u, found 'G'"},
		{NTriples, sp + `<http://a\U0000001> .`, "in:1:65: expected 8 hex digits after \\U, found '>'"},
		{NTriples, sp + `<http://a\uD800> .`, "in:1:56: escape \\uD800 is not a Unicode character"},
		{NTriples, sp + `<http://a\U00110000> .`, "in:1:56: escape \\U00110000 is not a Unicode character"},
		{NTriples, sp + "<http://\xff> .", "in:1:55: invalid UTF-8 byte 0xFF in an IRI"},
		// literals
		{NTriples, sp + `"abc .`, "in:1:53: expected '\"' to end the literal, found end of line"},
		{NTriples, sp + "\"é\\\"\r", "in:1:51: expected '\"' to end the literal, found end of line"},
		{NTriples, sp + `"a\zb" .`, "in:1:50: invalid escape: expected one of t b n r f \" ' \\ u U after '\\', found 'z'"},
		{NTriples, sp + `"a\`, "in:1:50: invalid escape: expected one of t b n r f \" ' \\ u U after '\\', found end of line"},
		{NTriples, sp + `"日本\u12" .`, "in:1:54: expected 4 hex digits after \\u, found '\"'"},
		{NTriples, sp + `"\uDFFF" .`, "in:1:48: escape \\uDFFF is not a Unicode character"},
		{NTriples, sp + "\"a\xc3\" .", "in:1:49: invalid UTF-8 byte 0xC3 in a literal"},
		{NTriples, sp + "\"\xed\xa0\x80\" .", "in:1:48: invalid UTF-8 byte 0xED in a literal"},
		{NTriples, sp + `"x"@1 .`, "in:1:51: expected a letter to start the language tag after '@', found '1'"},
		{NTriples, sp + `"x"@ .`, "in:1:51: expected a letter to start the language tag after '@', found space"},
		{NTriples, sp + `"x"@en- .`, "in:1:54: expected letters or digits after '-' in the language tag, found space"},
		{NTriples, sp + `"x"@en_US .`, "in:1:53: expected '.' to end the triple, found '_' (N-Triples has no graph label: use N-Quads)"},
		{NTriples, sp + `"x"^<http://example.org/dt> .`, "in:1:51: expected '^^' before the datatype IRI, found '^' then '<'"},
		{NTriples, sp + `"x"^^"y" .`, "in:1:52: expected a datatype IRI after '^^', found '\"'"},
		{NTriples, sp + `"x"^^_:b .`, "in:1:52: expected a datatype IRI after '^^', found '_'"},
		{NTriples, sp + `'x' .`, "in:1:47: expected an object (IRI, blank node or literal), found '\\''"},
		{NTriples, sp + `"""x""" .`, "in:1:49: expected '.' to end the triple, found '\"'"},
		// blank nodes
		{NTriples, `_a <http://example.org/p> <http://example.org/o> .`, "in:1:2: expected ':' after '_' to start a blank node, found 'a'"},
		{NTriples, `_: <http://example.org/p> <http://example.org/o> .`, "in:1:3: expected a blank node label after '_:', found space"},
		{NTriples, `_::a <http://example.org/p> <http://example.org/o> .`, "in:1:3: expected a blank node label after '_:', found ':'"},
		{NTriples, `_:-a <http://example.org/p> <http://example.org/o> .`, "in:1:3: expected a blank node label after '_:', found '-'"},
		{NTriples, `_:.a <http://example.org/p> <http://example.org/o> .`, "in:1:3: expected a blank node label after '_:', found '.'"},
		{NTriples, "_:·a <http://example.org/p> <http://example.org/o> .", "in:1:3: expected a blank node label after '_:', found '·'"},
		{NTriples, "_:\xff <http://example.org/p> <http://example.org/o> .", "in:1:3: expected a blank node label after '_:', found invalid UTF-8 byte 0xFF"},
		{NTriples, `_:a:b <http://example.org/p> <http://example.org/o> .`, "in:1:4: expected a predicate (IRI), found ':'"},
		{NTriples, "_:a\xff <http://example.org/p> <http://example.org/o> .", "in:1:4: expected a predicate (IRI), found invalid UTF-8 byte 0xFF"},
		{NTriples, "_:a\u00a0 <http://example.org/p> <http://example.org/o> .", "in:1:4: expected a predicate (IRI), found '\\u00a0'"},
		// comments and directives
		{NTriples, "# ok\n# bad \xfe\n", "in:2:7: invalid UTF-8 byte 0xFE in a comment"},
		{NTriples, sp + "<http://example.org/o> . # \xfe", "in:1:74: invalid UTF-8 byte 0xFE in a comment"},
		{NTriples, `@prefix ex: <http://example.org/> .`, "in:1:1: expected a subject (IRI or blank node), found '@'"},
		{NTriples, `BASE <http://example.org/>`, "in:1:1: expected a subject (IRI or blank node), found 'B'"},
	}
	for _, c := range cases {
		res := parse(t, c.syn, c.in)
		got := ""
		if len(res.errs) > 0 {
			got = res.errs[0]
		}
		if len(res.errs) > 1 || got != c.want {
			t.Errorf("%s %q:\n got %q\nwant %q", c.syn, c.in, res.errs, c.want)
		}
	}
}
