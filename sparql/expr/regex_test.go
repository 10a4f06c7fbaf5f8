package expr

import (
	"errors"
	"strings"
	"testing"
)

func TestRegex(t *testing.T) {
	runCases(t, []exprCase{
		{`REGEX("abcd", "bc")`, `"true"^^xsd:boolean`},
		{`REGEX("abcd"@en, "^bc")`, `"false"^^xsd:boolean`},
		{`REGEX("ABC", "b", "i")`, `"true"^^xsd:boolean`},
		{`REGEX("a\nc", "a.c")`, `"false"^^xsd:boolean`},
		{`REGEX("a\rc", "a.c")`, `"false"^^xsd:boolean`},
		{`REGEX("a\nc", "a.c", "s")`, `"true"^^xsd:boolean`},
		{`REGEX("a\nb\nc", "^b$")`, `"false"^^xsd:boolean`},
		{`REGEX("a\nb\nc", "^b$", "m")`, `"true"^^xsd:boolean`},
		{`REGEX("abc", " a b c ", "x")`, `"true"^^xsd:boolean`},
		{`REGEX("a c", "a[ ]c", "x")`, `"true"^^xsd:boolean`},
		{`REGEX("a?+*.{}()[]c", "a?+*.{}()[]c", "q")`, `"true"^^xsd:boolean`},
		{`REGEX("A?+*.{}()[]C", "a?+*.{}()[]c", "iq")`, `"true"^^xsd:boolean`},
		{`REGEX("x٣y", "x\\dy")`, `"true"^^xsd:boolean`},
		{`REGEX("x-y", "x\\wy")`, `"false"^^xsd:boolean`},
		{`REGEX("xéy", "x\\wy")`, `"true"^^xsd:boolean`},
		{`REGEX("a\fb", "a\\sb")`, `"false"^^xsd:boolean`},
		{`REGEX("x1y", "x[\\d]y")`, `"true"^^xsd:boolean`},
		{`REGEX("xAy", "x\\p{Lu}y")`, `"true"^^xsd:boolean`},
		{`REGEX(ex:x, "x")`, `error`},
		{`REGEX(STR(ex:x), "example\\.org")`, `"true"^^xsd:boolean`},
		{`REGEX("abc", ?s)`, `"true"^^xsd:boolean`},
		{`REGEX("abc", ?s, "z")`, `error`},
		{`REGEX("abc", CONCAT("(", ?s))`, `error`},
		{`REPLACE("abcd", "b", "Z")`, `"aZcd"`},
		{`REPLACE("abab", "B", "Z", "i")`, `"aZaZ"`},
		{`REPLACE("abab"@en, "B.", "Z", "i")`, `"aZb"@en`},
		{`REPLACE("abracadabra", "bra", "*")`, `"a*cada*"`},
		{`REPLACE("abracadabra", "a(.)", "a$1$1")`, `"abbraccaddabbra"`},
		{`REPLACE("darted", "^(.*?)d(.*)$", "$1c$2")`, `"carted"`},
		{`REPLACE("abc", "(ab)|(a)", "[1=$1][2=$2]")`, `"[1=ab][2=]c"`},
		{`REPLACE("a$b", "\\$", "\\$\\\\")`, `"a$\\b"`},
		{`REPLACE("abc", "b", "$")`, `error`},
		{`REPLACE("abc", ?s, "x")`, `"x"`},
		{`REPLACE("abc", CONCAT("x", "?"), "y")`, `error`}, // matches the empty string
	})
}

func TestRegexCompileErrors(t *testing.T) {
	for _, c := range []struct{ expr, msg string }{
		{`REGEX("aa", "(a)\\1")`, `back-reference \1 is not supported`},
		{`REGEX("a", "[a-z-[aeiou]]")`, `character class subtraction`},
		{`REGEX("a", "\\p{IsBasicLatin}")`, `(a Unicode block) is not supported`},
		{`REGEX("a", "a", "g")`, `flag 'g'`},
		{`REGEX("a", "(a")`, `missing closing )`},
		{`REPLACE("a", "x*", "y")`, `matches the empty string`},
	} {
		_, err := Compile(parseExpr(t, c.expr), NewScope())
		var ce *CompileError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want one containing %q", c.expr, err, c.msg)
		}
	}
}

func TestTranslateRegex(t *testing.T) {
	for _, c := range []struct{ in, flags, want string }{
		{`a.c`, ``, `a[^\n\r]c`},
		{`a.c`, `s`, `(?s)a.c`},
		{`[^\s]\S`, `im`, `(?im)[^ \t\n\r][^ \t\n\r]`},
		{`\i\c*`, ``, `[\p{L}_:][\p{L}\p{Nd}\p{Mn}\p{Mc}._:\-]*`},
		{`a b [ ]`, `x`, `ab[ ]`},
	} {
		got, err := translateRegex(c.in, c.flags)
		if err != nil || got != c.want {
			t.Errorf("translateRegex(%q, %q) = %q, %v; want %q", c.in, c.flags, got, err, c.want)
		}
	}
}
