package eval

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/expr"
	"github.com/mneme-archive/mneme/sparql/optimize"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// TestOptionalToMinusAgrees: OPTIONAL … FILTER(!BOUND(?v)) rewritten into
// MINUS (optimize.OptionalToMinus) gives the same solutions as the left
// join and filter of the definition, on queries it applies to and on
// queries it must leave alone (no shared variable, ?v possibly bound on
// the left, ?v not bound by every solution of the right).
func TestOptionalToMinusAgrees(t *testing.T) {
	s, _ := mixedStore(t, 9, 200)
	cases := []struct {
		q       string
		rewrite bool
	}{
		{`SELECT ?x WHERE { ?x a :T OPTIONAL { ?x :v ?v } FILTER(!BOUND(?v)) }`, true},
		{`SELECT ?x ?k WHERE { ?x a :T OPTIONAL { ?x :k ?k } OPTIONAL { ?x :v ?v } FILTER(!BOUND(?v) && BOUND(?k)) }`, true},
		{`SELECT (COUNT(?x) AS ?n) WHERE { ?x :w ?w OPTIONAL { ?x :k ?k . ?y :k ?k . ?y :v ?v } FILTER(!bound(?y)) }`, true},
		{`SELECT ?x ?w WHERE { ?x :w ?w OPTIONAL { ?y :w ?w ; :v ?v } FILTER(!BOUND(?y) || ?w > 3) }`, false},
		{`SELECT ?x WHERE { ?x :w ?w OPTIONAL { ?y :v ?v } FILTER(!BOUND(?v)) }`, false},
		{`SELECT ?x WHERE { ?x a :T OPTIONAL { ?x :k ?v } OPTIONAL { ?x :v ?v } FILTER(!BOUND(?v)) }`, false},
		{`SELECT ?x WHERE { ?x a :T OPTIONAL { ?x :v ?v OPTIONAL { ?v :k ?k } } FILTER(!BOUND(?k)) }`, false},
		{`SELECT ?x WHERE { ?x a :T OPTIONAL { ?x :w ?w FILTER(?w > 2) } FILTER(!BOUND(?w)) }`, false},
	}
	for _, c := range cases {
		sq, err := syntax.Parse("PREFIX : <"+ex+">\n"+c.q, syntax.Options{})
		if err != nil {
			t.Fatal(err)
		}
		aq := algebra.Translate(sq)
		plain := optimize.PushFilters(optimize.FoldConstants(aq.Op))
		rewritten := optimize.OptionalToMinus(plain)
		if got := strings.Contains(algebra.String(rewritten), "(minus"); got != c.rewrite {
			t.Errorf("%s: rewritten %v, want %v:\n%s", c.q, got, c.rewrite, algebra.String(rewritten))
		}
		var got [2][]string
		for i, op := range []algebra.Op{plain, rewritten} {
			e := NewExec(context.Background(), s.View, Dataset{UnionDefault: true, AllNamed: true}, expr.NewScope(aq.Vars...), expr.NewContext())
			p, err := Compile(e, op)
			if err != nil {
				t.Fatal(err)
			}
			got[i] = sorted(rows(t, p, aq.Vars))
		}
		if len(got[0]) == 0 && c.rewrite {
			t.Fatalf("%s: no rows", c.q)
		}
		if !slices.Equal(got[0], got[1]) {
			t.Errorf("%s:\n MINUS      %q\n definition %q", c.q, got[1], got[0])
		}
	}
}
