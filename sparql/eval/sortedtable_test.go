package eval

import (
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// TestSortedTableAgreesWithDefinition runs joins whose second pattern
// is probed on one position, with the pattern read from its range sorted
// on that position (every pattern counts as large here) and with the
// usual hash tables, and compares both with the definition (§18.5 Join,
// LeftJoin) computed from the store's triples: on the subject (the range
// in subject order, graph.View.PredicateOrder), on the object and on
// the subject of `?x a :T` (the range as stored, probed in and out of
// order), under OPTIONAL, and with a memory bound too small to hash the
// pattern.
func TestSortedTableAgreesWithDefinition(t *testing.T) {
	s, triples := mixedStore(t, 17, 400)
	k, v, w, isT := objectsOf(triples, ex+"k"), objectsOf(triples, ex+"v"), objectsOf(triples, ex+"w"), objectsOf(triples, rdf.RDFType)
	str := solutionString
	var subject, object, optional, typed []string
	for x, vs := range v {
		if len(isT[x]) > 0 {
			for _, vv := range vs {
				typed = append(typed, str(x, vv))
			}
		}
	}
	for x, ks := range k {
		for _, kk := range ks {
			for _, vv := range v[x] {
				subject = append(subject, str(x, kk, vv))
			}
		}
	}
	for x, ws := range w {
		for _, ww := range ws {
			for y, ws2 := range w {
				if slices.Contains(ws2, ww) {
					object = append(object, str(x, ww, y))
				}
			}
		}
	}
	for x := range isT {
		vs := v[x]
		if len(vs) == 0 {
			vs = []rdf.Term{{}}
		}
		for _, vv := range vs {
			optional = append(optional, str(x, vv))
		}
	}
	cases := []struct {
		q    string
		vars []string
		want []string
	}{
		{`SELECT ?x ?k ?v WHERE { ?x :k ?k . ?x :v ?v }`, []string{"x", "k", "v"}, subject},
		{`SELECT ?x ?w ?y WHERE { ?x :w ?w . ?y :w ?w }`, []string{"x", "w", "y"}, object},
		{`SELECT ?x ?v WHERE { ?x a :T OPTIONAL { ?x :v ?v } }`, []string{"x", "v"}, optional},
		{`SELECT ?x ?v WHERE { ?x :v ?v . ?x a :T }`, []string{"x", "v"}, typed},
	}
	defer func(n int) { sortedTableRows = n }(sortedTableRows)
	sortedUsed := false
	for _, threshold := range []int{1 << 30, 1} {
		sortedTableRows = threshold
		for _, c := range cases {
			for _, maxRows := range []int{0, 50} {
				p, _ := compileQuery(t, s.View, c.q, maxRows)
				got := rowsUndef(t, p, c.vars)
				if !slices.Equal(sorted(got), sorted(c.want)) {
					t.Errorf("%s (sorted from %d rows, max rows %d): %d solutions, want %d", c.q, threshold, maxRows, len(got), len(c.want))
				}
				if strings.Contains(p.Explain(), "on the sorted range") {
					sortedUsed = true
					if threshold > 1 {
						t.Errorf("%s: a sorted range below its size:\n%s", c.q, p.Explain())
					}
				}
			}
		}
	}
	if !sortedUsed {
		t.Error("no join read a sorted range")
	}
}
