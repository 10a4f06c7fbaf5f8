package eval

import (
	"context"
	"slices"
	"testing"

	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/expr"
	"github.com/mneme-archive/mneme/sparql/optimize"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// TestDistinctBeforeOrderAgrees: SELECT DISTINCT … ORDER BY … [LIMIT]
// with DISTINCT moved below the ORDER BY (optimize.DistinctBeforeOrder)
// gives the same sequence of rows as the definition's order — sort,
// project, then remove duplicates — on keys with ties, descending keys,
// expressions of projected variables, and keys the rewrite must leave
// alone (an unprojected variable).
func TestDistinctBeforeOrderAgrees(t *testing.T) {
	s, _ := mixedStore(t, 5, 200)
	moved := 0
	for _, q := range []string{
		`SELECT DISTINCT ?w WHERE { ?x :w ?w } ORDER BY ?w`,
		`SELECT DISTINCT ?k ?w WHERE { ?x :w ?w OPTIONAL { ?x :k ?k } } ORDER BY DESC(?w)`,
		`SELECT DISTINCT ?v WHERE { ?x :v ?v } ORDER BY STR(?v) DESC(?v)`,
		`SELECT DISTINCT ?k WHERE { ?x :k ?k ; :w ?w } ORDER BY ?w ?k`,
		`SELECT DISTINCT ?k ?v WHERE { ?x :k ?k OPTIONAL { ?x :v ?v } } ORDER BY ?v`,
	} {
		for _, slice := range []string{"", " LIMIT 3", " LIMIT 5 OFFSET 2", " OFFSET 4"} {
			src := q + slice
			sq, err := syntax.Parse("PREFIX : <"+ex+">\n"+src, syntax.Options{})
			if err != nil {
				t.Fatal(err)
			}
			aq := algebra.Translate(sq)
			plain := optimize.BindConstants(optimize.PushFilters(optimize.FoldConstants(aq.Op)))
			var got [2][]string
			for i, op := range []algebra.Op{plain, optimize.DistinctBeforeOrder(plain)} {
				e := NewExec(context.Background(), s.View, Dataset{UnionDefault: true, AllNamed: true}, expr.NewScope(aq.Vars...), expr.NewContext())
				e.TempDir = t.TempDir()
				p, err := Compile(e, op)
				if err != nil {
					t.Fatal(err)
				}
				got[i] = rows(t, p, aq.Vars)
			}
			if !orderAboveDistinct(plain) && orderAboveDistinct(optimize.DistinctBeforeOrder(plain)) {
				moved++
			}
			if len(got[0]) == 0 && slice == "" {
				t.Fatalf("%s: no rows", src)
			}
			if !slices.Equal(got[0], got[1]) {
				t.Errorf("%s:\n DISTINCT below ORDER BY %q\n definition             %q", src, got[1], got[0])
			}
		}
	}
	// The first three queries' keys read projected variables only.
	if moved < 3*4 {
		t.Fatalf("DISTINCT moved below ORDER BY in %d queries, want at least 12", moved)
	}
}

// orderAboveDistinct reports whether the first ORDER BY or DISTINCT met
// going down op is an ORDER BY.
func orderAboveDistinct(op algebra.Op) bool {
	switch op.(type) {
	case *algebra.OrderBy:
		return true
	case *algebra.Distinct:
		return false
	}
	for _, ch := range algebra.Children(op) {
		if orderAboveDistinct(ch) {
			return true
		}
	}
	return false
}
