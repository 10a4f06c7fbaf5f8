package eval

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// objectsOf maps each subject of predicate p among triples to its objects.
func objectsOf(triples []rdf.Triple, p string) map[rdf.Term][]rdf.Term {
	m := map[rdf.Term][]rdf.Term{}
	for _, tr := range triples {
		if tr.P == rdf.IRI(p) {
			m[tr.S] = append(m[tr.S], tr.O)
		}
	}
	return m
}

// solutionString writes a solution's terms as the row helpers do, UNDEF
// for an unbound one.
func solutionString(ts ...rdf.Term) string {
	var sb strings.Builder
	for _, x := range ts {
		if x == (rdf.Term{}) {
			sb.WriteString("UNDEF ")
			continue
		}
		sb.WriteString(x.String() + " ")
	}
	return sb.String()
}

// TestLeftHashAgreesWithDefinition runs OPTIONALs of one triple pattern
// as hash left joins on the pattern's quads and compares their solutions
// with the definition (§18.5 LeftJoin) computed from the store's triples:
// each left solution extended by every compatible solution of the
// pattern, or alone when there is none. The cases key on the subject, on
// the object (a variable of the pattern the left side leaves free), chain
// two OPTIONALs, and run under a COUNT (rows reused by the group) and
// with a memory bound too small for the table (the general left join).
func TestLeftHashAgreesWithDefinition(t *testing.T) {
	s, triples := mixedStore(t, 13, 300)
	isT, k, v, w := objectsOf(triples, rdf.RDFType), objectsOf(triples, ex+"k"), objectsOf(triples, ex+"v"), objectsOf(triples, ex+"w")
	str := solutionString
	opt := func(vals []rdf.Term) []rdf.Term {
		if len(vals) == 0 {
			return []rdf.Term{{}}
		}
		return vals
	}
	var subjectKey, twoOptionals, objectKey []string
	for x := range isT {
		for _, vv := range opt(v[x]) {
			subjectKey = append(subjectKey, str(x, vv))
		}
	}
	for x, ws := range w {
		for range ws {
			for _, kk := range opt(k[x]) {
				for _, vv := range opt(v[x]) {
					twoOptionals = append(twoOptionals, str(x, kk, vv))
				}
			}
		}
	}
	for x, ws := range w {
		for _, ww := range ws {
			var ys []rdf.Term
			for y, ws2 := range w {
				if slices.Contains(ws2, ww) {
					ys = append(ys, y)
				}
			}
			for _, y := range opt(ys) {
				objectKey = append(objectKey, str(x, ww, y))
			}
		}
	}
	cases := []struct {
		q    string
		vars []string
		want []string
	}{
		{`SELECT ?x ?v WHERE { ?x a :T OPTIONAL { ?x :v ?v } }`, []string{"x", "v"}, subjectKey},
		{`SELECT ?x ?k ?v WHERE { ?x :w ?w OPTIONAL { ?x :k ?k } OPTIONAL { ?x :v ?v } }`, []string{"x", "k", "v"}, twoOptionals},
		{`SELECT ?x ?w ?y WHERE { ?x :w ?w OPTIONAL { ?y :w ?w } }`, []string{"x", "w", "y"}, objectKey},
	}
	for _, c := range cases {
		for _, maxRows := range []int{0, 50} {
			p, _ := compileQuery(t, s.View, c.q, maxRows)
			got := rowsUndef(t, p, c.vars)
			if !slices.Equal(sorted(got), sorted(c.want)) {
				t.Errorf("%s (max rows %d): %d solutions, want %d", c.q, maxRows, len(got), len(c.want))
			}
			if plan := p.Explain(); maxRows == 0 && !strings.Contains(plan, "hash on the pattern's quads") {
				t.Errorf("%s: not a hash left join on the pattern:\n%s", c.q, plan)
			}
		}
	}
	// Counted: the group folds rows the left join writes into one buffer.
	p, _ := compileQuery(t, s.View, `SELECT (COUNT(*) AS ?n) (COUNT(?k) AS ?nk) (COUNT(?v) AS ?nv) WHERE { ?x :w ?w OPTIONAL { ?x :k ?k } OPTIONAL { ?x :v ?v } }`, 0)
	var nk, nv int
	for _, r := range twoOptionals {
		f := strings.Fields(r)
		if f[1] != "UNDEF" {
			nk++
		}
		if f[2] != "UNDEF" {
			nv++
		}
	}
	got := rows(t, p, []string{"n", "nk", "nv"})
	want := []string{str(rdf.Literal(itoa(len(twoOptionals)), rdf.XSDInteger), rdf.Literal(itoa(nk), rdf.XSDInteger), rdf.Literal(itoa(nv), rdf.XSDInteger))}
	if !slices.Equal(got, want) {
		t.Errorf("counts %q, want %q", got, want)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
