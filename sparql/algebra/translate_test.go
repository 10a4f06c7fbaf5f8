package algebra

import (
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/sparql/syntax"
)

func translate(t *testing.T, query string) *Query {
	t.Helper()
	q, err := syntax.Parse("PREFIX : <http://ex/>\n"+query, syntax.Options{})
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return Translate(q)
}

// sse flattens the printed algebra to one line for comparison.
func sse(op Op) string { return strings.Join(strings.Fields(String(op)), " ") }

func TestTranslate(t *testing.T) {
	cases := []struct{ query, want string }{
		{"SELECT * { ?s :p ?o . ?o :q 1 }",
			"(project (?s ?o) (bgp (triple ?s <http://ex/p> ?o) (triple ?o <http://ex/q> 1)))"},
		// Filters of a group apply to the whole group, wherever written.
		{"SELECT ?s { FILTER(?o > 1) ?s :p ?o }",
			"(project (?s) (filter (> ?o 1) (bgp (triple ?s <http://ex/p> ?o))))"},
		// The OPTIONAL's own filter becomes the left join's condition.
		{"SELECT * { ?s :p ?o OPTIONAL { ?s :q ?x FILTER(?x != ?o) } }",
			"(project (?s ?o ?x) (leftjoin (bgp (triple ?s <http://ex/p> ?o)) (bgp (triple ?s <http://ex/q> ?x)) (!= ?x ?o)))"},
		{"SELECT * { { ?s :p ?o } UNION { ?s :q ?o } UNION { ?s :r ?o } MINUS { ?s :x ?o } }",
			"(project (?s ?o) (minus (union (union (bgp (triple ?s <http://ex/p> ?o)) (bgp (triple ?s <http://ex/q> ?o))) (bgp (triple ?s <http://ex/r> ?o))) (bgp (triple ?s <http://ex/x> ?o))))"},
		{"SELECT * { ?s :p ?o BIND(?o * 2 AS ?d) GRAPH ?g { ?s :q ?d } }",
			"(project (?s ?o ?d ?g) (join (extend ((?d (* ?o 2))) (bgp (triple ?s <http://ex/p> ?o))) (graph ?g (bgp (triple ?s <http://ex/q> ?d)))))"},
		// Blank nodes become internal variables; paths expand per §18.2.2.4.
		{"SELECT * { _:a :p/^:q ?o . [] :r* ?o }",
			"(project (?o) (join (bgp (triple ??a <http://ex/p> ??.p1) (triple ?o <http://ex/q> ??.p1)) (path ??.1 (path* <http://ex/r>) ?o)))"},
		{"SELECT ?g (COUNT(DISTINCT ?s) AS ?n) { ?s :in ?g } GROUP BY ?g HAVING (COUNT(DISTINCT ?s) > 2) ORDER BY DESC(?n) LIMIT 10",
			"(slice 0 10 (project (?g ?n) (order ((desc ?n)) (extend ((?n ?.agg1)) (filter (> ?.agg1 2) (group ((?g ?g)) ((?.agg1 (count distinct ?s))) (bgp (triple ?s <http://ex/in> ?g))))))))"},
		{"SELECT (SUM(?v) AS ?t) { ?s :v ?v }",
			"(project (?t) (extend ((?t ?.agg1)) (group () ((?.agg1 (sum ?v))) (bgp (triple ?s <http://ex/v> ?v)))))"},
		{"SELECT DISTINCT ?s { ?s :p ?o { SELECT ?o { ?o :q ?z } LIMIT 1 } } OFFSET 3",
			"(slice 3 _ (distinct (project (?s) (join (bgp (triple ?s <http://ex/p> ?o)) (slice 0 1 (project (?o) (bgp (triple ?o <http://ex/q> ?z))))))))"},
		{"SELECT * { ?s :p ?o FILTER NOT EXISTS { ?o :q ?s } } VALUES ?o { :a UNDEF }",
			"(project (?s ?o) (join (filter (notexists (bgp (triple ?o <http://ex/q> ?s))) (bgp (triple ?s <http://ex/p> ?o))) (table (vars ?o) (row [?o <http://ex/a>]) (row))))"},
		{"ASK {}", "(table unit)"},
		{"SELECT * { OPTIONAL { ?s :p ?o } }",
			"(project (?s ?o) (leftjoin (table unit) (bgp (triple ?s <http://ex/p> ?o))))"},
		{"SELECT ?k (SAMPLE(?v) AS ?x) { ?s :p ?v } GROUP BY (STR(?s) AS ?k) (LANG(?v))",
			"(project (?k ?x) (extend ((?x ?.agg1)) (group ((?k (str ?s)) (?.key1 (lang ?v))) ((?.agg1 (sample ?v))) (bgp (triple ?s <http://ex/p> ?v)))))"},
		{"SELECT * { SERVICE <http://remote/> { ?s ?p ?o } }",
			"(project (?s ?p ?o) (service <http://remote/> (bgp (triple ?s ?p ?o))))"},
	}
	for _, c := range cases {
		if got := sse(translate(t, c.query).Op); got != c.want {
			t.Errorf("%s\n got  %s\n want %s", c.query, got, c.want)
		}
	}
}

func TestTranslateForms(t *testing.T) {
	q := translate(t, "DESCRIBE * { ?s :p ?o }")
	if len(q.Describe) != 2 || q.Describe[0].Var != "s" || q.Describe[1].Var != "o" {
		t.Errorf("DESCRIBE * targets = %v", q.Describe)
	}
	q = translate(t, "CONSTRUCT { ?s :q _:b } WHERE { ?s :p _:x }")
	if len(q.Template) != 1 || !q.Template[0].O.Term.IsBlank() {
		t.Errorf("template = %v", q.Template)
	}
	if got := sse(q.Op); got != "(bgp (triple ?s <http://ex/p> ??x))" {
		t.Errorf("CONSTRUCT op = %s", got)
	}
	q = translate(t, "SELECT * { ?s :p ?o }")
	if strings.Join(q.Vars, ",") != "s,o" {
		t.Errorf("vars = %v", q.Vars)
	}
}

func TestFormatNotes(t *testing.T) {
	q := translate(t, "SELECT ?s { ?s :p ?o FILTER(?o = 'x') }")
	out := Format(q.Op, func(op Op) string {
		switch op.(type) {
		case *Project:
			return "est=10"
		case *BGP:
			return "est=1000"
		}
		return ""
	})
	want := "  est=10  (project (?s)\n" +
		"            (filter (= ?o \"x\")\n" +
		"est=1000      (bgp (triple ?s <http://ex/p> ?o))))\n"
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}
