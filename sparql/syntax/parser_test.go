package syntax

import (
	"errors"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// selectExpr parses "SELECT (expr AS ?r) {}" and returns expr as SSE.
func selectExpr(t *testing.T, expr string) string {
	t.Helper()
	q, err := Parse("PREFIX ex: <http://ex/> SELECT ("+expr+" AS ?r) {}", Options{})
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return ExprString(q.Project[0].Expr)
}

func TestExpressions(t *testing.T) {
	cases := []struct{ in, want string }{
		{"1+2*3", "(+ 1 (* 2 3))"},
		{"(1+2)*3", "(* (+ 1 2) 3)"},
		{"?x-1", "(- ?x 1)"},            // "-1" lexes as a signed literal
		{"?x +1 * 2", "(+ ?x (* 1 2))"}, // the sign is the operator, * binds to the literal
		{"?x - -1", "(- ?x -1)"},
		{"-?x", "(neg ?x)"},
		{"!bound(?x) || ?a && ?b", "(|| (! (bound ?x)) (&& ?a ?b))"},
		{"?a <= ?b", "(<= ?a ?b)"},
		{"?a IN (1, 2)", "(in ?a 1 2)"},
		{"?a NOT IN ()", "(notin ?a)"},
		{"uri('x')", `(iri "x")`},
		{"isURI(?x)", "(isiri ?x)"},
		{"regex(?s, 'a', 'i')", `(regex ?s "a" "i")`},
		{"ex:f(distinct ?x, 2)", "(<http://ex/f> distinct ?x 2)"},
		{"ex:f()", "(<http://ex/f>)"},
		{"ex:c", "<http://ex/c>"},
		{"count(*)", "(count)"},
		{"count(distinct ?x)", "(count distinct ?x)"},
		{"group_concat(?x ; separator='-')", `(group_concat ?x separator="-")`},
		{"'a'@en-GB", `"a"@en-GB`},
		{"'1'^^ex:t", `"1"^^<http://ex/t>`},
		{"1.5e3", "1.5e3"},
		{".5", ".5"},
		{"TRUE", "true"},
		{"'''a''b'''", `"a''b"`},
		{`"\u00e9\t"`, `"é\t"`},
		{"not exists { ?s ?p ?o }", "(notexists 1 elements)"},
		{"rand()", "(rand)"},
		{"bnode()", "(bnode)"},
	}
	for _, c := range cases {
		if got := selectExpr(t, c.in); got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}

func TestPatterns(t *testing.T) {
	q, err := Parse(`BASE <http://ex/dir/>
PREFIX : <ns#>
PREFIX ex: <http://ex/>
select * where {
  <a> a :C ; ex:p.q ( 1 [ :r ?y ] ), "x" .
  ?s :p/:q|^:r* ?o .
  ?s !(:a|^:b) ?o
  VALUES (?u ?v) { (1 UNDEF) (UNDEF "b") }
}`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	bgp := q.Where.Elems[0].(*BGP)
	ns := "http://ex/dir/ns#"
	first := bgp.Triples[0]
	if first.S.Term != rdf.IRI("http://ex/dir/a") || first.P.Term != rdf.IRI(rdf.RDFType) || first.O.Term != rdf.IRI(ns+"C") {
		t.Errorf("first triple = %v %v %v", first.S, first.P, first.O)
	}
	// ex:p.q keeps its inner dot; the collection adds first/rest triples.
	var preds []string
	for _, tr := range bgp.Triples {
		if tr.Path != nil {
			preds = append(preds, string(tr.Path.AppendSSE(nil)))
		} else {
			preds = append(preds, tr.P.String())
		}
	}
	want := []string{
		"<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>",
		"<http://ex/dir/ns#r>", // the [ ] member's triple comes before the list's
		"<http://www.w3.org/1999/02/22-rdf-syntax-ns#first>", "<http://www.w3.org/1999/02/22-rdf-syntax-ns#rest>",
		"<http://www.w3.org/1999/02/22-rdf-syntax-ns#first>", "<http://www.w3.org/1999/02/22-rdf-syntax-ns#rest>",
		"<http://ex/p.q>", "<http://ex/p.q>",
		"(alt (seq <http://ex/dir/ns#p> <http://ex/dir/ns#q>) (reverse (path* <http://ex/dir/ns#r>)))",
		"(notoneof <http://ex/dir/ns#a> (reverse <http://ex/dir/ns#b>))",
	}
	if strings.Join(preds, "\n") != strings.Join(want, "\n") {
		t.Errorf("predicates:\n%s\nwant:\n%s", strings.Join(preds, "\n"), strings.Join(want, "\n"))
	}
	vals := q.Where.Elems[1].(*Values)
	if len(vals.Rows) != 2 || !vals.Rows[0][1].IsZero() || vals.Rows[1][1] != rdf.String("b") {
		t.Errorf("VALUES rows = %v", vals.Rows)
	}
	if got := ProjectedVars(q); strings.Join(got, " ") != "y s o u v" {
		t.Errorf("SELECT * vars = %v", got)
	}
}

func TestQueryForms(t *testing.T) {
	q, err := Parse("CONSTRUCT WHERE { ?s <p> ?o } LIMIT 5 OFFSET 2", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if q.Form != Construct || len(q.Template) != 1 || q.Limit != 5 || q.Offset != 2 {
		t.Errorf("CONSTRUCT WHERE: %+v", q)
	}
	q, err = Parse("DESCRIBE <http://a> ?x FROM <http://g> FROM NAMED <http://n>", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if q.Form != Describe || len(q.Describe) != 2 || q.Where != nil || q.From[0] != "http://g" || q.FromNamed[0] != "http://n" {
		t.Errorf("DESCRIBE: %+v", q)
	}
	q, err = Parse("ask { SERVICE SILENT <http://remote/sparql> { ?s ?p ?o } }", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := q.Where.Elems[0].(*Service); !ok || !s.Silent {
		t.Errorf("SERVICE not parsed: %#v", q.Where.Elems[0])
	}
}

func TestErrorPositions(t *testing.T) {
	cases := []struct {
		in        string
		line, col int
		msg       string
	}{
		{"SELECT * WHERE { ?s ?p }", 1, 24, "expected an object (variable, IRI, literal, blank node or collection), found '}'"},
		{"SELECT *\nWHERE {\n  ?s ex:p ?o }", 3, 6, "undefined prefix 'ex:'"},
		{"SELECT * { FILTER(?x = ) }", 1, 24, "expected an expression, found ')'"},
		{"SELECT ?x { } GROUP BY ?y", 1, 8, "?x is projected but neither grouped nor aggregated"},
		{"SELECT * { ?s ?p ?o BIND(1 AS ?o) }", 1, 21, "BIND assigns ?o, which is already in scope"},
		{"SELECT * { FILTER(COUNT(?x) > 1) }", 1, 19, "aggregate COUNT is only allowed in SELECT, HAVING and ORDER BY, and not nested"},
		{"SELECT (SUM(COUNT(?x)) AS ?c) {}", 1, 13, "aggregate COUNT is only allowed"},
		{"SELECT * { ?s ?p 'abc\n' }", 1, 22, "line break in a short string"},
		{"SELECT * { ?s ?p <a b> }", 1, 18, "expected an object"},
		{"SELECT * {} LIMIT -1", 1, 19, "expected a non-negative integer after LIMIT"},
		{"SELECT (substr(?x) AS ?y) {}", 1, 9, "SUBSTR takes 2 to 3 arguments, found 1"},
		{"SELECT * { ?s ?p ?o } ORDER", 1, 28, "expected BY, found end of input"},
		{"SELECT * { ?s ?p 'x'@ }", 1, 21, "expected a language tag after '@'"},
		{"é SELECT", 1, 1, `unexpected word "é"`},
		{"SELECT * { ?s ?p 'x' } trailing", 1, 24, "expected end of query, found trailing"},
	}
	for _, c := range cases {
		_, err := Parse(c.in, Options{})
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: error %v, want *Error", c.in, err)
			continue
		}
		if e.Line != c.line || e.Col != c.col || !strings.HasPrefix(e.Msg, c.msg) {
			t.Errorf("%q:\n got  %s\n want %d:%d: %s", c.in, e, c.line, c.col, c.msg)
		}
	}
}

func TestNestingIsBounded(t *testing.T) {
	deep := "SELECT * { FILTER(" + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + ") }"
	_, err := Parse(deep, Options{})
	if err == nil || !strings.Contains(err.Error(), "nesting deeper than") {
		t.Errorf("deep expression: %v", err)
	}
	groups := "SELECT * " + strings.Repeat("{", 5000) + strings.Repeat("}", 5000)
	if _, err := Parse(groups, Options{}); err == nil || !strings.Contains(err.Error(), "nesting deeper than") {
		t.Errorf("deep groups: %v", err)
	}
	// Moderate nesting is fine.
	ok := "SELECT * { FILTER(" + strings.Repeat("(", 50) + "1" + strings.Repeat(")", 50) + ") }"
	if _, err := Parse(ok, Options{}); err != nil {
		t.Errorf("50 levels: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"SELECT * { ?s ?p ?o }",
		"PREFIX : <http://ex/> SELECT ?x (COUNT(*) AS ?c) { ?x :p/:q* [ :r (1 2) ] OPTIONAL { ?x :s ?y FILTER(?y > 2) } } GROUP BY ?x HAVING (?c > 1) ORDER BY DESC(?c) LIMIT 3",
		"CONSTRUCT { ?s <p> _:b } WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } MINUS { ?s a ?t } BIND(str(?o) AS ?l) VALUES ?v { 1 UNDEF } }",
		"ASK { FILTER NOT EXISTS { ?s !(<a>|^<b>) ?o } }",
		"DESCRIBE * WHERE { ?s ?p \"\"\"x\"\"\"@en }",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Parse(s, Options{})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Line < 1 || e.Col < 1 {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		if q == nil {
			t.Fatal("nil query without error")
		}
	})
}
