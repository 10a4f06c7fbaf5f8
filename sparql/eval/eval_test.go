package eval

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/expr"
	"github.com/mneme-archive/mneme/sparql/optimize"
	"github.com/mneme-archive/mneme/sparql/plan"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

const ex = "http://e.org/"

// testStore holds 300 resources in two named graphs: ?x a :A (every
// second), a :B (every third), :val (i mod 7), :knows (a permutation),
// with the :val triples of every fifth resource in both graphs (the
// union of the graphs must count them once).
func testStore(t testing.TB) *graph.Store {
	t.Helper()
	s, err := graph.Open(t.TempDir(), graph.OpenOptions{CacheBytes: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	b := s.NewBatch()
	iri := func(f string, a ...any) rdf.Term { return rdf.IRI(ex + fmt.Sprintf(f, a...)) }
	for i := range 300 {
		x := iri("x%d", i)
		g := iri("g%d", i%2)
		if i%2 == 0 {
			b.Add(rdf.Quad{S: x, P: rdf.IRI(rdf.RDFType), O: iri("A"), G: g})
		}
		if i%3 == 0 {
			b.Add(rdf.Quad{S: x, P: rdf.IRI(rdf.RDFType), O: iri("B"), G: g})
		}
		val := rdf.Literal(fmt.Sprint(i%7), rdf.XSDInteger)
		b.Add(rdf.Quad{S: x, P: iri("val"), O: val, G: g})
		if i%5 == 0 {
			b.Add(rdf.Quad{S: x, P: iri("val"), O: val, G: iri("g%d", 1-i%2)})
		}
		b.Add(rdf.Quad{S: x, P: iri("knows"), O: iri("x%d", i*7%300), G: g})
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// compileQuery compiles src for v with the given memory bound, the
// default graph the union of all graphs.
// writtenOrder returns p's one basic graph pattern with its steps in the
// order the query writes its patterns, for a test to choose their joins.
func writtenOrder(p *Plan) *bgpNode {
	var bn *bgpNode
	for _, n := range p.bgps {
		bn = n
	}
	for i := range bn.steps {
		bn.steps[i].Pattern = i
	}
	return bn
}

func compileQuery(t testing.TB, v *graph.View, src string, maxRows int) (*Plan, *algebra.Query) {
	t.Helper()
	return compileIn(t, v, src, maxRows, Dataset{UnionDefault: true, AllNamed: true})
}

// compileIn is compileQuery on the dataset data.
func compileIn(t testing.TB, v *graph.View, src string, maxRows int, data Dataset) (*Plan, *algebra.Query) {
	t.Helper()
	sq, err := syntax.Parse("PREFIX : <"+ex+">\n"+src, syntax.Options{})
	if err != nil {
		t.Fatal(err)
	}
	aq := algebra.Translate(sq)
	ec := expr.NewContext()
	e := NewExec(context.Background(), v, data, expr.NewScope(aq.Vars...), ec)
	e.MaxRows, e.TempDir = maxRows, t.TempDir()
	p, err := Compile(e, optimize.Optimize(aq.Op))
	if err != nil {
		t.Fatal(err)
	}
	return p, aq
}

// rows runs a compiled plan and returns its solutions as strings, one per
// row, in order, an unbound variable as an empty term.
func rows(t testing.TB, p *Plan, vars []string) []string {
	t.Helper()
	return rowStrings(t, p, vars, "")
}

// rowsUndef is rows with UNDEF for an unbound variable.
func rowsUndef(t testing.TB, p *Plan, vars []string) []string {
	t.Helper()
	return rowStrings(t, p, vars, "UNDEF")
}

func rowStrings(t testing.TB, p *Plan, vars []string, undef string) []string {
	t.Helper()
	r, err := p.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []string
	for {
		row, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if row == nil {
			return out
		}
		var sb strings.Builder
		for _, v := range vars {
			id := row[p.ex.Scope.Slot(v)]
			if id == 0 {
				sb.WriteString(undef + " ")
				continue
			}
			term, err := p.ex.Dict.Term(id)
			if err != nil {
				t.Fatal(err)
			}
			sb.WriteString(term.String() + " ")
		}
		out = append(out, sb.String())
	}
}

func run(t *testing.T, v *graph.View, src string, maxRows int) []string {
	t.Helper()
	p, aq := compileQuery(t, v, src, maxRows)
	return rows(t, p, aq.Vars)
}

func sorted(rs []string) []string {
	out := slices.Clone(rs)
	slices.Sort(out)
	return out
}

// TestJoinKindsAgree runs one BGP with every physical join its steps can
// take (bind, hash, and merge for the two sorted type scans) and expects
// the same solutions, and the number the data implies.
func TestJoinKindsAgree(t *testing.T) {
	s := testStore(t)
	const q = `SELECT ?x ?v ?y WHERE { ?x a :A . ?x a :B . ?x :val ?v . ?x :knows ?y }`
	var want []string
	for _, j1 := range []plan.Join{plan.Bind, plan.Hash, plan.Merge} {
		for _, j2 := range []plan.Join{plan.Bind, plan.Hash} {
			p, aq := compileQuery(t, s.View, q, 0)
			// Put the two type patterns first, both sorted on ?x.
			bn := writtenOrder(p)
			bn.steps[1].Join = j1
			bn.steps[2].Join = j2
			bn.steps[3].Join = j2
			bn.keys = [][]int{nil, {0}, {0}, {0}}
			got := sorted(rows(t, p, aq.Vars))
			// x multiple of 6 in 0..299: 50 resources, :val once each
			// in the union of the graphs, one :knows each.
			if len(got) != 50 {
				t.Fatalf("joins %v/%v: %d rows, want 50", j1, j2, len(got))
			}
			if want == nil {
				want = got
			} else if !slices.Equal(got, want) {
				t.Fatalf("joins %v/%v disagree with bind joins", j1, j2)
			}
			if j1 == plan.Merge && !strings.Contains(p.Explain(), "merge") {
				t.Errorf("merge join not used:\n%s", p.Explain())
			}
		}
	}
}

// TestMergeJoinSkips checks the zig-zag merge of two scans whose values
// interleave (multiples of 2 and of 3) against the same join as a filter.
func TestMergeJoinSkips(t *testing.T) {
	s := testStore(t)
	want := run(t, s.View, `SELECT ?x WHERE { ?x a :B . FILTER EXISTS { ?x a :A } }`, 0)
	p, aq := compileQuery(t, s.View, `SELECT ?x WHERE { ?x a :B . ?x a :A }`, 0)
	for _, n := range p.bgps {
		n.steps[1].Join = plan.Merge
	}
	got := rows(t, p, aq.Vars)
	if !slices.Equal(sorted(got), sorted(want)) || len(got) != 50 {
		t.Fatalf("merge join: %d rows, want the 50 of the filter", len(got))
	}
	if !strings.Contains(p.Explain(), "merge") {
		t.Errorf("merge join not used:\n%s", p.Explain())
	}
}

// TestSpillingAgrees runs queries with memory bounds small enough that
// ORDER BY, DISTINCT, GROUP BY and the hash tables spill or fall back, and
// expects exactly the in-memory answers (in order, where there is one).
func TestSpillingAgrees(t *testing.T) {
	s := testStore(t)
	for _, tc := range []struct {
		q       string
		ordered bool
	}{
		// Many ties on ?v: the sort must stay stable across runs.
		{`SELECT ?x ?v WHERE { ?x :val ?v } ORDER BY ?v`, true},
		{`SELECT ?x ?v WHERE { ?x :val ?v } ORDER BY DESC(?v) ?x`, true},
		{`SELECT DISTINCT ?v WHERE { ?x :val ?v }`, true},
		{`SELECT DISTINCT ?v ?t WHERE { ?x :val ?v ; a ?t } ORDER BY ?t`, true},
		{`SELECT ?v (COUNT(*) AS ?n) (SUM(?v) AS ?s) WHERE { ?x :val ?v } GROUP BY ?v`, false},
		{`SELECT ?t (GROUP_CONCAT(?v) AS ?all) WHERE { ?x a ?t ; :val ?v } GROUP BY ?t`, false},
		{`SELECT ?x ?y WHERE { ?x :knows ?y . ?y :knows ?x2 . ?x2 a :A }`, false},
		{`SELECT ?x ?w WHERE { ?x a :A OPTIONAL { ?x :knows ?y . ?y :val ?w } }`, false},
		// Right sides that are not plain patterns are hashed (and, past
		// the bound, partitioned: a grace hash join).
		{`SELECT ?x WHERE { ?x a :A MINUS { ?x :val ?v FILTER(?v > 3) } }`, false},
		{`SELECT ?x ?v WHERE { ?x a :B OPTIONAL { ?x :val ?v FILTER(?v > 2) } }`, false},
		{`SELECT ?x ?n WHERE { ?x a :B { SELECT ?x (COUNT(*) AS ?n) WHERE { ?x :knows ?y } GROUP BY ?x } }`, false},
	} {
		want := run(t, s.View, tc.q, 0)
		if len(want) == 0 {
			t.Fatalf("%s: no rows", tc.q)
		}
		for _, bound := range []int{1, 3, 50} {
			got := run(t, s.View, tc.q, bound)
			if !tc.ordered {
				got, want = sorted(got), sorted(want)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s with a %d-row bound: %d rows differ from the %d in memory", tc.q, bound, len(got), len(want))
			}
		}
	}
}

// TestMemoryReleased checks that operators return what they counted
// against the bound, so that a long query does not drift into spilling.
func TestMemoryReleased(t *testing.T) {
	s := testStore(t)
	p, aq := compileQuery(t, s.View, `SELECT DISTINCT ?v WHERE { ?x :val ?v } ORDER BY ?v`, 0)
	if got := rows(t, p, aq.Vars); len(got) != 7 {
		t.Fatalf("%d rows, want 7", len(got))
	}
	if p.ex.memRows != 0 {
		t.Errorf("%d rows still counted in memory after the query", p.ex.memRows)
	}
}

// TestUnionOfGraphsOnce checks that the default graph (the union of the
// named graphs) yields a triple held by two graphs once, while GRAPH ?g
// sees it in each graph, whichever join reads it.
func TestUnionOfGraphsOnce(t *testing.T) {
	s := testStore(t)
	if n := len(run(t, s.View, `SELECT ?x ?v WHERE { ?x :val ?v }`, 0)); n != 300 {
		t.Errorf("union: %d :val triples, want 300", n)
	}
	if n := len(run(t, s.View, `SELECT ?g ?x ?v WHERE { GRAPH ?g { ?x :val ?v } }`, 0)); n != 360 {
		t.Errorf("GRAPH ?g: %d :val quads, want 360", n)
	}
	// A bind join re-targets its scan per row: the looked-up triples in
	// two graphs must still come once each.
	if n := len(run(t, s.View, `SELECT ?x ?y ?v WHERE { ?x :knows ?y . ?y :val ?v }`, 0)); n != 300 {
		t.Errorf("bind join on the union: %d rows, want 300", n)
	}
}
