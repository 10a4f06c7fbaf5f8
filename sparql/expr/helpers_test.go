package expr

import (
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

const testPrefixes = "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\nPREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>\nPREFIX ex: <http://example.org/>\n"

// parseExpr parses one SPARQL expression through the real parser and
// algebra translation, as the evaluator will receive it.
func parseExpr(t testing.TB, src string) syntax.Expr {
	t.Helper()
	q, err := syntax.Parse(testPrefixes+"SELECT (("+src+") AS ?result) {}", syntax.Options{})
	if err != nil {
		t.Fatalf("parse %s: %v", src, err)
	}
	op := algebra.Translate(q).Op
	for {
		switch x := op.(type) {
		case *algebra.Extend:
			return x.Expr
		case *algebra.Project:
			op = x.Sub
		default:
			t.Fatalf("no extend in %s", algebra.String(op))
		}
	}
}

// testVars binds ?a..?e for the tables: ?u is always unbound.
var testVars = map[string]rdf.Term{
	"i":    rdf.Literal("7", rdf.XSDInteger),
	"d":    rdf.Literal("2.5", rdf.XSDDecimal),
	"s":    rdf.String("abc"),
	"l":    rdf.LangLiteral("chat", "fr"),
	"iri":  rdf.IRI("http://example.org/x"),
	"b":    rdf.Blank("b0"),
	"t":    rdf.Literal("true", rdf.XSDBoolean),
	"dt":   rdf.Literal("2011-01-10T14:45:13.815-05:00", rdf.XSDDateTime),
	"bad":  rdf.Literal("abc", rdf.XSDInteger),
	"unk":  rdf.Literal("x", "http://example.org/dt"),
	"unk2": rdf.Literal("y", "http://example.org/dt"),
}

func newTestContext() *Context {
	c := NewContext()
	c.Now = time.Date(2024, 3, 1, 12, 30, 0, 0, time.UTC)
	c.Base = "http://example.org/base/"
	return c
}

// evalString evaluates src against testVars and renders the result in
// short form, or "error".
func evalString(t testing.TB, c *Context, src string) string {
	t.Helper()
	scope := NewScope()
	e, err := Compile(parseExpr(t, src), scope)
	if err != nil {
		t.Fatalf("compile %s: %v", src, err)
	}
	row := make(Row, len(scope.Vars()))
	for i, v := range scope.Vars() {
		row[i] = testVars[v]
	}
	v, err := e.Eval(c, row)
	if err != nil {
		return "error"
	}
	return short(v)
}

// short writes a term compactly: xsd: datatypes abbreviated, simple
// literals without datatype.
func short(t rdf.Term) string {
	if t.Kind != rdf.KindLiteral || t.Lang != "" || t.Datatype == rdf.XSDString {
		return t.String()
	}
	if strings.HasPrefix(t.Datatype, rdf.XSDNS) {
		return `"` + t.Value + `"^^xsd:` + strings.TrimPrefix(t.Datatype, rdf.XSDNS)
	}
	return t.String()
}

type exprCase struct{ expr, want string }

func runCases(t *testing.T, cases []exprCase) {
	t.Helper()
	c := newTestContext()
	for _, tc := range cases {
		if got := evalString(t, c, tc.expr); got != tc.want {
			t.Errorf("%s = %s, want %s", tc.expr, got, tc.want)
		}
	}
}
