package optimize

import (
	"testing"

	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// FuzzPipeline checks that every query the parser accepts also
// translates, optimizes and prints without panicking.
func FuzzPipeline(f *testing.F) {
	for _, s := range []string{
		"SELECT ?x (COUNT(*) AS ?c) { ?x <p>/<q>* [ <r> (1 2) ] OPTIONAL { ?x <s> ?y FILTER(?y > 2) } } GROUP BY ?x HAVING (?c > 1) ORDER BY DESC(?c) LIMIT 3",
		"SELECT * { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o FILTER(?o && ?g) } } MINUS { ?s a ?t } BIND(str(?o) AS ?l) FILTER(?l != '' && EXISTS { ?s ?p ?l }) }",
		"ASK { FILTER NOT EXISTS { ?s !(<a>|^<b>) ?o } } VALUES ?v { 1 UNDEF }",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := syntax.Parse(s, syntax.Options{})
		if err != nil {
			return
		}
		op := algebra.Translate(q).Op
		if algebra.String(Optimize(op)) == "" {
			t.Fatal("empty plan")
		}
	})
}
