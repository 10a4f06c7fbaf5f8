package eval

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/expr"
)

// valueTerms are objects whose equality under = differs from their
// identity: numbers of four types with equal values, strings with and
// without language, dates with time zones, booleans, terms of unknown
// datatypes, ill-formed numbers, IRIs and blank nodes.
func valueTerms() []rdf.Term {
	dt := func(v, t string) rdf.Term { return rdf.Literal(v, rdf.XSDNS+t) }
	return []rdf.Term{
		dt("1", "integer"), dt("01", "integer"), dt("1.0", "decimal"), dt("1e0", "double"), dt("1", "float"),
		dt("0.1", "decimal"), dt("0.1", "float"), dt("0.1", "double"), dt("-0", "double"), dt("0", "integer"),
		dt("NaN", "double"), dt("2", "int"), dt("2", "byte"), dt("abc", "integer"), dt("1", "string"),
		rdf.String("a"), rdf.LangLiteral("a", "en"), rdf.LangLiteral("a", "EN"), rdf.LangLiteral("a", "de"),
		dt("true", "boolean"), dt("1", "boolean"), dt("false", "boolean"),
		dt("2008-01-01T00:00:00Z", "dateTime"), dt("2008-01-01T01:00:00+01:00", "dateTime"), dt("2008-01-01T00:00:00", "dateTime"),
		dt("2008-01-01", "date"),
		rdf.Literal("x", "http://e.org/dt"), rdf.Literal("x", "http://e.org/other"),
		rdf.IRI(ex + "i1"), rdf.IRI(ex + "i2"), rdf.Blank("b1"), rdf.Blank("b2"),
	}
}

// TestValueJoinAgreesWithDefinition runs FILTER(?a = ?b) and
// FILTER(sameTerm(?a, ?b)) between two unconnected patterns, as a value
// join by bind and by hash and in small chunks of the left side, and
// compares with the definition: every pair of triples whose objects the
// operator relates (expr.Equal, term identity).
func TestValueJoinAgreesWithDefinition(t *testing.T) {
	s, err := graph.Open(t.TempDir(), graph.OpenOptions{CacheBytes: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	terms := valueTerms()
	type pair struct{ s, o rdf.Term }
	var ps, qs []pair
	b := s.NewBatch()
	add := func(list *[]pair, p string, i int, o rdf.Term) {
		subj := rdf.IRI(fmt.Sprintf("%s%s%d", ex, p, i))
		b.Add(rdf.Quad{S: subj, P: rdf.IRI(ex + p), O: o})
		*list = append(*list, pair{subj, o})
	}
	for i, o := range terms {
		add(&ps, "p", i, o)
		add(&qs, "q", i, o)
		add(&qs, "q", i+len(terms), o) // two matches per value
	}
	// Many IRIs on the right, few on the left: the lookups per left
	// value are cheaper than reading the right side.
	for i := range 200 {
		add(&qs, "q", 1000+i, rdf.IRI(fmt.Sprintf("%sn%d", ex, i)))
	}
	add(&ps, "p", 1000, rdf.IRI(ex+"n7"))
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := func(same, iriOnly bool) []string {
		var out []string
		for _, p := range ps {
			if iriOnly && p.o.Kind == rdf.KindLiteral {
				continue
			}
			for _, q := range qs {
				ok := p.o == q.o
				if !same {
					ok, _ = expr.Equal(p.o, q.o)
				}
				if ok {
					out = append(out, fmt.Sprintf("%s %s %s %s ", p.s, p.o, q.s, q.o))
				}
			}
		}
		slices.Sort(out)
		return out
	}
	cases := []struct {
		q             string
		same, iriOnly bool
	}{
		{`SELECT ?x ?a ?y ?b WHERE { ?x :p ?a . ?y :q ?b FILTER(?a = ?b) }`, false, false},
		{`SELECT ?x ?a ?y ?b WHERE { ?x :p ?a . ?y :q ?b FILTER(?b = ?a) }`, false, false},
		{`SELECT ?x ?a ?y ?b WHERE { ?x :p ?a . ?y :q ?b FILTER(sameTerm(?a, ?b)) }`, true, false},
		{`SELECT ?x ?a ?y ?b WHERE { ?x :p ?a . ?y :q ?b FILTER(?a = ?b && !isLiteral(?a)) }`, false, true},
	}
	for _, c := range cases {
		for _, maxRows := range []int{0, 3} {
			p, aq := compileQuery(t, s.View, c.q, maxRows)
			got := sorted(rows(t, p, aq.Vars))
			if w := want(c.same, c.iriOnly); !slices.Equal(got, w) {
				t.Errorf("%s (max rows %d):\n got %d %v\nwant %d %v", c.q, maxRows, len(got), got, len(w), w)
			}
			if ex := p.Explain(); !strings.Contains(ex, "value join") {
				t.Errorf("%s: not planned as a value join:\n%s", c.q, ex)
			}
		}
	}
	// Both ways of looking up the right side ran: by bind where the left
	// values are IRIs only, by hash where they include literals.
	p, aq := compileQuery(t, s.View, `SELECT ?x ?a ?y ?b WHERE { ?x :p ?a . ?y :q ?b FILTER(?a = ?b && isIRI(?a)) }`, 0)
	rows(t, p, aq.Vars)
	if ex := p.Explain(); !strings.Contains(ex, "hash") {
		t.Errorf("literal keys not joined by hash:\n%s", ex)
	}
	p, aq = compileQuery(t, s.View, `SELECT ?x ?y WHERE { ?x :p ?a . ?y :q ?b FILTER(?a = ?b) FILTER(?x = :p1000) }`, 0)
	if got := rows(t, p, aq.Vars); len(got) != 1 {
		t.Errorf("the one IRI joined: %v", got)
	}
	if ex := p.Explain(); !strings.Contains(ex, "bind") {
		t.Errorf("an IRI key not looked up:\n%s", ex)
	}
}
