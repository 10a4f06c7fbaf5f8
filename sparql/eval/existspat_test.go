package eval

import (
	"slices"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// TestExistsPatternAgreesWithDefinition evaluates EXISTS and NOT EXISTS
// of one triple pattern per row (inside IF, so that no hash semi-join
// replaces them, and plain) and compares the solutions with the
// definition computed from the store's triples: a row passes when the
// pattern with its bindings substituted has a match. The patterns bind
// the row's variable as subject, as object (terms compared by identity),
// twice, repeat a variable the row leaves unbound, and name a predicate
// the store lacks. Past the first rows the lookups of `?a p ?b` with one
// end bound go to the predicate's derived order instead of the store.
func TestExistsPatternAgreesWithDefinition(t *testing.T) {
	s, triples := mixedStore(t, 17, 300)
	has := map[[2]rdf.Term]bool{} // (subject, predicate)
	objV := map[rdf.Term]bool{}
	var xs []rdf.Term
	ws := map[rdf.Term][]rdf.Term{}
	for _, tr := range triples {
		has[[2]rdf.Term{tr.S, tr.P}] = true
		switch tr.P {
		case rdf.IRI(ex + "v"):
			objV[tr.O] = true
		case rdf.IRI(rdf.RDFType):
			xs = append(xs, tr.S)
		case rdf.IRI(ex + "w"):
			ws[tr.S] = append(ws[tr.S], tr.O)
		}
	}
	var noV, all, wInV []string
	for _, x := range xs {
		all = append(all, x.String()+" ")
		if !has[[2]rdf.Term{x, rdf.IRI(ex + "v")}] {
			noV = append(noV, x.String()+" ")
		}
		for _, w := range ws[x] {
			if objV[w] {
				wInV = append(wInV, x.String()+" ")
			}
		}
	}
	cases := []struct {
		q    string
		want []string
	}{
		{`SELECT ?x WHERE { ?x a :T FILTER(IF(EXISTS { ?x :v ?v }, false, true)) }`, noV},
		{`SELECT ?x WHERE { ?x a :T FILTER NOT EXISTS { ?x :v ?v } }`, noV},
		{`SELECT ?x WHERE { ?x a :T ; :w ?w FILTER(IF(EXISTS { ?y :v ?w }, true, false)) }`, wInV},
		{`SELECT ?x WHERE { ?x a :T ; :w ?w FILTER EXISTS { ?y :v ?w } }`, wInV},
		{`SELECT ?x WHERE { ?x a :T FILTER(IF(EXISTS { ?x :k ?x }, false, true)) }`, all},
		{`SELECT ?x WHERE { ?x a :T FILTER(IF(EXISTS { ?y :k ?y }, false, true)) }`, all},
		{`SELECT ?x WHERE { ?x a :T FILTER(IF(EXISTS { ?x :absent ?z }, false, true)) }`, all},
	}
	for _, c := range cases {
		p, _ := compileQuery(t, s.View, c.q, 0)
		if got := rows(t, p, []string{"x"}); !slices.Equal(sorted(got), sorted(c.want)) {
			t.Errorf("%s: %d solutions, want %d", c.q, len(got), len(c.want))
		}
	}
	if len(noV) == 0 || len(wInV) == 0 || len(noV) == len(all) {
		t.Fatalf("the data does not tell the cases apart: %d, %d of %d", len(noV), len(wInV), len(all))
	}
}
