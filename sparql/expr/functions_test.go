package expr

import (
	"strings"
	"testing"
)

// The examples of §17.4.3 and §17.4.4 - §17.4.6.
func TestStringFunctions(t *testing.T) {
	runCases(t, []exprCase{
		{`STRLEN("chat")`, `"4"^^xsd:integer`},
		{`STRLEN("chat"@en)`, `"4"^^xsd:integer`},
		{`STRLEN("日本語")`, `"3"^^xsd:integer`},
		{`STRLEN(1)`, `error`},
		{`SUBSTR("foobar", 4)`, `"bar"`},
		{`SUBSTR("foobar"@en, 4, 1)`, `"b"@en`},
		{`SUBSTR("foobar"^^xsd:string, 4, 1)`, `"b"`},
		{`SUBSTR("motor car", 6)`, `" car"`},
		{`SUBSTR("metadata", 4, 3)`, `"ada"`},
		{`SUBSTR("12345", 1.5, 2.6)`, `"234"`},
		{`SUBSTR("12345", 0, 3)`, `"12"`},
		{`SUBSTR("12345", 5, -3)`, `""`},
		{`SUBSTR("12345", -3, 5)`, `"1"`},
		{`SUBSTR("12345", 0e0/0e0, 3)`, `""`},
		{`SUBSTR("12345", -42, 1e0/0e0)`, `"12345"`},
		{`SUBSTR("日本語です", 2, 2)`, `"本語"`},
		{`SUBSTR("abc", "2")`, `error`},
		{`UCASE("foo")`, `"FOO"`},
		{`UCASE("foo"@en)`, `"FOO"@en`},
		{`LCASE("BAR"^^xsd:string)`, `"bar"`},
		{`LCASE(ex:x)`, `error`},
		{`STRSTARTS("foobar", "foo")`, `"true"^^xsd:boolean`},
		{`STRSTARTS("foobar"@en, "foo"@en)`, `"true"^^xsd:boolean`},
		{`STRSTARTS("foobar"^^xsd:string, "foo"^^xsd:string)`, `"true"^^xsd:boolean`},
		{`STRSTARTS("foobar", "foo"^^xsd:string)`, `"true"^^xsd:boolean`},
		{`STRSTARTS("foobar"@en, "foo")`, `"true"^^xsd:boolean`},
		{`STRSTARTS("foobar", "foo"@en)`, `error`},
		{`STRSTARTS("foobar"@en, "foo"@fr)`, `error`},
		{`STRENDS("foobar", "bar")`, `"true"^^xsd:boolean`},
		{`STRENDS("foobar", "foo")`, `"false"^^xsd:boolean`},
		{`CONTAINS("foobar", "bar")`, `"true"^^xsd:boolean`},
		{`CONTAINS("foobar"@en, "foo"@en)`, `"true"^^xsd:boolean`},
		{`CONTAINS(1, "1")`, `error`},
		{`STRBEFORE("abc", "b")`, `"a"`},
		{`STRBEFORE("abc"@en, "bc")`, `"a"@en`},
		{`STRBEFORE("abc"@en, "b"@cy)`, `error`},
		{`STRBEFORE("abc"^^xsd:string, "")`, `""`},
		{`STRBEFORE("abc", "xyz")`, `""`},
		{`STRBEFORE("abc"@en, "z"@en)`, `""`},
		{`STRBEFORE("abc"@en, "z")`, `""`},
		{`STRBEFORE("abc"@en, ""@en)`, `""@en`},
		{`STRBEFORE("abc"@en, "")`, `""@en`},
		{`STRAFTER("abc", "b")`, `"c"`},
		{`STRAFTER("abc"@en, "ab")`, `"c"@en`},
		{`STRAFTER("abc"@en, "b"@cy)`, `error`},
		{`STRAFTER("abc"^^xsd:string, "")`, `"abc"`},
		{`STRAFTER("abc", "xyz")`, `""`},
		{`STRAFTER("abc"@en, "z"@en)`, `""`},
		{`STRAFTER("abc"@en, "z")`, `""`},
		{`STRAFTER("abc"@en, ""@en)`, `"abc"@en`},
		{`STRAFTER("abc"@en, "")`, `"abc"@en`},
		{`ENCODE_FOR_URI("Los Angeles")`, `"Los%20Angeles"`},
		{`ENCODE_FOR_URI("Los Angeles"@en)`, `"Los%20Angeles"`},
		{`ENCODE_FOR_URI("~bébé/a_b.c-d")`, `"~b%C3%A9b%C3%A9%2Fa_b.c-d"`},
		{`CONCAT("foo", "bar")`, `"foobar"`},
		{`CONCAT("foo"@en, "bar"@en)`, `"foobar"@en`},
		{`CONCAT("foo"^^xsd:string, "bar"^^xsd:string)`, `"foobar"`},
		{`CONCAT("foo", "bar"@en)`, `"foobar"`},
		{`CONCAT("foo"@en, "bar")`, `"foobar"`},
		{`CONCAT("foo"@en, "bar"@fr)`, `"foobar"`},
		{`CONCAT()`, `""`},
		{`CONCAT("a", 1)`, `error`},
		{`LANGMATCHES("fr", "FR")`, `"true"^^xsd:boolean`},
		{`LANGMATCHES("fr-BE", "fr")`, `"true"^^xsd:boolean`},
		{`LANGMATCHES("fra", "fr")`, `"false"^^xsd:boolean`},
		{`LANGMATCHES("en", "*")`, `"true"^^xsd:boolean`},
		{`LANGMATCHES("", "*")`, `"false"^^xsd:boolean`},
		{`LANGMATCHES(LANG(?l), "fr")`, `"true"^^xsd:boolean`},
		{`LANGMATCHES("en"@en, "en")`, `error`},
	})
}

func TestTermFunctions(t *testing.T) {
	runCases(t, []exprCase{
		{`STR(?iri)`, `"http://example.org/x"`},
		{`STR(?l)`, `"chat"`},
		{`STR(1.50)`, `"1.50"`},
		{`STR(1+1)`, `"2"`},
		{`STR(?b)`, `error`},
		{`LANG(?l)`, `"fr"`},
		{`LANG(?s)`, `""`},
		{`LANG(?iri)`, `error`},
		{`DATATYPE(?s)`, `<http://www.w3.org/2001/XMLSchema#string>`},
		{`DATATYPE(?l)`, `<http://www.w3.org/1999/02/22-rdf-syntax-ns#langString>`},
		{`DATATYPE(1.0 + 1)`, `<http://www.w3.org/2001/XMLSchema#decimal>`},
		{`DATATYPE(?iri)`, `error`},
		{`STRDT("123", xsd:integer)`, `"123"^^xsd:integer`},
		{`STRDT("iiii", ex:romanNumeral)`, `"iiii"^^<http://example.org/romanNumeral>`},
		{`STRDT("x"@en, ex:dt)`, `error`},
		{`STRDT("x", "dt")`, `error`},
		{`STRLANG("chat", "en")`, `"chat"@en`},
		{`STRLANG("chat"@fr, "en")`, `error`},
		{`STRLANG("chat", "not a tag")`, `error`},
		{`IRI("http://example.org/y")`, `<http://example.org/y>`},
		{`URI("rel")`, `<http://example.org/base/rel>`},
		{`IRI(?iri)`, `<http://example.org/x>`},
		{`IRI(1)`, `error`},
		{`isIRI(?iri)`, `"true"^^xsd:boolean`},
		{`isURI(?s)`, `"false"^^xsd:boolean`},
		{`isBlank(?b)`, `"true"^^xsd:boolean`},
		{`isLiteral(?s)`, `"true"^^xsd:boolean`},
		{`isLiteral(1+1)`, `"true"^^xsd:boolean`},
		{`isLiteral(?u)`, `error`},
		{`isNumeric(12)`, `"true"^^xsd:boolean`},
		{`isNumeric("12")`, `"false"^^xsd:boolean`},
		{`isNumeric("12"^^xsd:nonNegativeInteger)`, `"true"^^xsd:boolean`},
		{`isNumeric("-1"^^xsd:nonNegativeInteger)`, `"false"^^xsd:boolean`},
		{`isNumeric("1200"^^xsd:byte)`, `"false"^^xsd:boolean`},
		{`isNumeric(?bad)`, `"false"^^xsd:boolean`},
		{`isNumeric("1e5"^^xsd:double)`, `"true"^^xsd:boolean`},
		{`isNumeric("Infinity"^^xsd:double)`, `"false"^^xsd:boolean`},
	})
}

func TestNumericFunctions(t *testing.T) {
	runCases(t, []exprCase{
		{`ABS(1)`, `"1"^^xsd:integer`},
		{`ABS(-1.5)`, `"1.5"^^xsd:decimal`},
		{`ABS("-2"^^xsd:int)`, `"2"^^xsd:integer`},
		{`ABS(-1e0)`, `"1.0E0"^^xsd:double`},
		{`ABS("x")`, `error`},
		{`ROUND(2.4999)`, `"2.0"^^xsd:decimal`},
		{`ROUND(2.5)`, `"3.0"^^xsd:decimal`},
		{`ROUND(-2.5)`, `"-2.0"^^xsd:decimal`},
		{`ROUND(-2.6)`, `"-3.0"^^xsd:decimal`},
		{`ROUND(-2.5e0)`, `"-2.0E0"^^xsd:double`},
		{`ROUND(-0.4e0)`, `"-0.0E0"^^xsd:double`},
		{`ROUND(7)`, `"7"^^xsd:integer`},
		{`CEIL(10.5)`, `"11.0"^^xsd:decimal`},
		{`CEIL(-10.5)`, `"-10.0"^^xsd:decimal`},
		{`CEIL(-1.5e0)`, `"-1.0E0"^^xsd:double`},
		{`FLOOR(10.5)`, `"10.0"^^xsd:decimal`},
		{`FLOOR(-10.5)`, `"-11.0"^^xsd:decimal`},
		{`FLOOR("2.5"^^xsd:float)`, `"2.0E0"^^xsd:float`},
		{`DATATYPE(RAND())`, `<http://www.w3.org/2001/XMLSchema#double>`},
		{`RAND() >= 0 && RAND() < 1`, `"true"^^xsd:boolean`},
	})
}

func TestDateFunctions(t *testing.T) {
	runCases(t, []exprCase{
		{`YEAR("2011-01-10T14:45:13.815-05:00"^^xsd:dateTime)`, `"2011"^^xsd:integer`},
		{`MONTH(?dt)`, `"1"^^xsd:integer`},
		{`DAY(?dt)`, `"10"^^xsd:integer`},
		{`HOURS(?dt)`, `"14"^^xsd:integer`},
		{`MINUTES(?dt)`, `"45"^^xsd:integer`},
		{`SECONDS(?dt)`, `"13.815"^^xsd:decimal`},
		{`SECONDS("2011-01-10T14:45:13Z"^^xsd:dateTime)`, `"13.0"^^xsd:decimal`},
		{`TIMEZONE(?dt)`, `"-PT5H"^^xsd:dayTimeDuration`},
		{`TIMEZONE("2011-01-10T14:45:13.815Z"^^xsd:dateTime)`, `"PT0S"^^xsd:dayTimeDuration`},
		{`TIMEZONE("2011-01-10T14:45:13.815+05:30"^^xsd:dateTime)`, `"PT5H30M"^^xsd:dayTimeDuration`},
		{`TIMEZONE("2011-01-10T14:45:13.815"^^xsd:dateTime)`, `error`},
		{`TZ(?dt)`, `"-05:00"`},
		{`TZ("2011-01-10T14:45:13.815Z"^^xsd:dateTime)`, `"Z"`},
		{`TZ("2011-01-10T14:45:13.815"^^xsd:dateTime)`, `""`},
		{`YEAR("-0044-03-15"^^xsd:date)`, `"-44"^^xsd:integer`},
		{`YEAR("2011-02-30T00:00:00Z"^^xsd:dateTime)`, `error`},
		{`YEAR("2011-01-10")`, `error`},
		{`HOURS("2011-01-10T24:00:00Z"^^xsd:dateTime)`, `"0"^^xsd:integer`},
		{`DAY("2011-12-31T24:00:00Z"^^xsd:dateTime)`, `"1"^^xsd:integer`},
		{`NOW()`, `"2024-03-01T12:30:00Z"^^xsd:dateTime`},
		{`NOW() = NOW()`, `"true"^^xsd:boolean`},
	})
}

func TestHashFunctions(t *testing.T) {
	runCases(t, []exprCase{
		{`MD5("abc")`, `"900150983cd24fb0d6963f7d28e17f72"`},
		{`MD5("abc"^^xsd:string)`, `"900150983cd24fb0d6963f7d28e17f72"`},
		{`SHA1("abc")`, `"a9993e364706816aba3e25717850c26c9cd0d89d"`},
		{`SHA256("abc")`, `"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`},
		{`SHA384("abc")`, `"cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"`},
		{`SHA512("abc")`, `"ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"`},
		{`MD5("abc"@en)`, `error`},
		{`MD5(1)`, `error`},
	})
}

func TestUUIDAndBnode(t *testing.T) {
	c := newTestContext()
	u1, u2 := evalString(t, c, `UUID()`), evalString(t, c, `UUID()`)
	if !strings.HasPrefix(u1, "<urn:uuid:") || u1 == u2 || len(u1) != len("<urn:uuid:>")+36 {
		t.Errorf("UUID() gave %s and %s", u1, u2)
	}
	if s := evalString(t, c, `STRUUID()`); len(s) != 38 || s[15] != '4' {
		t.Errorf("STRUUID() = %s, want a version 4 UUID string", s)
	}
	// BNODE(str) is one blank node per string within a solution, a new
	// one in the next solution; BNODE() is always fresh.
	scope := NewScope()
	e, err := Compile(parseExpr(t, `BNODE("x")`), scope)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := Compile(parseExpr(t, `BNODE()`), scope)
	if err != nil {
		t.Fatal(err)
	}
	a1, _ := e.Eval(c, Row{})
	a2, _ := e.Eval(c, Row{})
	f1, _ := fresh.Eval(c, Row{})
	f2, _ := fresh.Eval(c, Row{})
	c.NewSolution()
	b1, _ := e.Eval(c, Row{})
	if !a1.IsBlank() || a1 != a2 || a1 == b1 || f1 == f2 || f1 == a1 || !f1.IsBlank() {
		t.Errorf("BNODE: same row %v %v, next row %v, fresh %v %v", a1, a2, b1, f1, f2)
	}
	if got := evalString(t, c, `BNODE(1)`); got != "error" {
		t.Errorf("BNODE(1) = %s, want error", got)
	}
}

func TestUnknownFunctionIsError(t *testing.T) {
	runCases(t, []exprCase{
		{`ex:nothing(1)`, `error`},
		{`COALESCE(ex:nothing(1), 2)`, `"2"^^xsd:integer`},
	})
}
