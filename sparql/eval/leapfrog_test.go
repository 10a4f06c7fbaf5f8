package eval

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/plan"
)

// forceLeapfrog makes every basic graph pattern of p with a cycle start
// with a leapfrog triejoin of it, its other patterns bind-joined after,
// and keeps the planned left-deep steps as the fallback.
func forceLeapfrog(t testing.TB, p *Plan) {
	t.Helper()
	forced := 0
	for _, bn := range p.bgps {
		core := plan.Cycle(bn.planned)
		if bn.lf != nil {
			forced++
		}
		if len(core) == 0 || bn.lf != nil {
			continue
		}
		left := bn.steps
		var steps []plan.Step
		for _, i := range core {
			steps = append(steps, plan.Step{Pattern: i, Join: plan.Leapfrog})
		}
		for _, s := range left {
			if !slices.Contains(core, s.Pattern) {
				steps = append(steps, plan.Step{Pattern: s.Pattern, Join: plan.Bind})
			}
		}
		bn.alt = &bgpNode{pats: bn.pats, sortPos: bn.sortPos}
		bn.alt.setSteps(nil, left, nil, false)
		bn.keys, bn.stats = nil, nil
		bn.setSteps(nil, steps, nil, false)
		bn.compileLeapfrog()
		forced++
	}
	if forced == 0 {
		t.Fatal("no cycle to join")
	}
}

// forceLeftDeep makes every basic graph pattern of p run left-deep.
func forceLeftDeep(p *Plan) {
	for op, bn := range p.bgps {
		if bn.lf != nil {
			p.bgps[op] = bn.alt
			*bn = *bn.alt
		}
	}
}

// runLeftDeep runs src with every basic graph pattern left-deep.
func runLeftDeep(t *testing.T, src string) []string {
	p, aq := compileQuery(t, testStore(t).View, src, 0)
	forceLeftDeep(p)
	return rows(t, p, aq.Vars)
}

// TestLeapfrogAgrees runs cyclic patterns as a triejoin and left-deep
// and expects the same solutions: a directed triangle of :knows (whose
// third pattern must be sorted in memory), a triangle through :val
// values (whose triples in both graphs must count once) with a type
// pattern after it, and a two-pattern cycle.
func TestLeapfrogAgrees(t *testing.T) {
	s := testStore(t)
	for _, tc := range []struct {
		q    string
		want int
	}{
		// x → 7x → 49x → 343x = x (mod 300) for the multiples of 50.
		{`SELECT ?x ?y ?z WHERE { ?x :knows ?y . ?y :knows ?z . ?z :knows ?x }`, 6},
		{`SELECT ?x ?y ?v WHERE { ?x :knows ?y . ?y :val ?v . ?x :val ?v . ?x a :B }`, -1},
		{`SELECT ?x ?y WHERE { ?x :knows ?y . ?y :knows ?x }`, -1},
	} {
		want := sorted(runLeftDeep(t, tc.q))
		if tc.want >= 0 && len(want) != tc.want {
			t.Fatalf("%s: %d rows, want %d", tc.q, len(want), tc.want)
		}
		if len(want) == 0 && tc.want != 0 {
			t.Fatalf("%s: no rows to compare", tc.q)
		}
		p, aq := compileQuery(t, s.View, tc.q, 0)
		forceLeapfrog(t, p)
		got := sorted(rows(t, p, aq.Vars))
		if !slices.Equal(got, want) {
			t.Errorf("%s: triejoin gives %d rows, left-deep %d", tc.q, len(got), len(want))
		}
		if ex := p.Explain(); !strings.Contains(ex, "leapfrog ?") || !strings.Contains(ex, "scan") {
			t.Errorf("%s: triejoin not shown:\n%s", tc.q, ex)
		}
		// Every pattern read in two halves of its values.
		splitRows = 1
		p, aq = compileQuery(t, s.View, tc.q, 0)
		forceLeapfrog(t, p)
		got = sorted(rows(t, p, aq.Vars))
		splitRows = 1 << 15
		if !slices.Equal(got, want) {
			t.Errorf("%s: triejoin of halves gives %d rows, left-deep %d", tc.q, len(got), len(want))
		}
		// Too little memory for the arrays: the left-deep plan runs.
		p, aq = compileQuery(t, s.View, tc.q, 10)
		forceLeapfrog(t, p)
		if got := sorted(rows(t, p, aq.Vars)); !slices.Equal(got, want) {
			t.Errorf("%s with a 10-row bound: %d rows, want %d", tc.q, len(got), len(want))
		}
		if ex := p.Explain(); strings.Contains(ex, "leapfrog") {
			t.Errorf("%s with a 10-row bound: triejoin shown, not the fallback:\n%s", tc.q, ex)
		}
	}
}

// TestLeapfrogGraphByGraph runs a triejoin whose default graph is two
// named graphs: the scans come graph by graph, unsorted, with the :val
// triples that both graphs hold twice.
func TestLeapfrogGraphByGraph(t *testing.T) {
	s := testStore(t)
	var data Dataset
	for _, g := range []string{"g0", "g1"} {
		id, ok, err := s.View.Lookup(rdf.IRI(ex + g))
		if err != nil || !ok {
			t.Fatalf("graph %s: %v", g, err)
		}
		data.Default = append(data.Default, id)
	}
	const q = `SELECT ?x ?y ?v WHERE { ?x :knows ?y . ?y :val ?v . ?x :val ?v }`
	p, aq := compileIn(t, s.View, q, 0, data)
	forceLeftDeep(p)
	want := sorted(rows(t, p, aq.Vars))
	if len(want) == 0 {
		t.Fatal("no rows to compare")
	}
	p, aq = compileIn(t, s.View, q, 0, data)
	forceLeapfrog(t, p)
	if got := sorted(rows(t, p, aq.Vars)); !slices.Equal(got, want) {
		t.Errorf("triejoin gives %d rows, left-deep %d", len(got), len(want))
	}
}

// TestLeapfrogSeedBound checks a triejoin opened with one of its
// variables bound by the seed (here by VALUES): it runs left-deep.
func TestLeapfrogSeedBound(t *testing.T) {
	s := testStore(t)
	const q = `SELECT ?x ?y ?z WHERE { VALUES ?x { :x50 :x51 } { ?x :knows ?y . ?y :knows ?z . ?z :knows ?x } }`
	want := runLeftDeep(t, q)
	if len(want) != 1 {
		t.Fatalf("%d rows, want 1", len(want))
	}
	p, aq := compileQuery(t, s.View, q, 0)
	forceLeapfrog(t, p)
	if got := rows(t, p, aq.Vars); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestLeapfrogCount counts the solutions of cycles with COUNT(*) over a
// triejoin, which counts them without producing rows (in one part and
// split in two and three ranges of the first variable), and expects the
// number of rows of the left-deep plan.
func TestLeapfrogCount(t *testing.T) {
	s := testStore(t)
	defer func(n, r int) { countParts, splitRows = n, r }(countParts, splitRows)
	splitRows = 1 // split however small
	for _, where := range []string{
		`{ ?x :knows ?y . ?y :knows ?z . ?z :knows ?x }`,
		`{ ?x :knows ?y . ?y :val ?v . ?x :val ?v }`,
		`{ ?x :knows ?y . ?y :knows ?x }`,
	} {
		n := len(runLeftDeep(t, "SELECT * WHERE "+where))
		if n == 0 {
			t.Fatalf("%s: no rows to count", where)
		}
		want := []string{rdf.Literal(strconv.Itoa(n), rdf.XSDInteger).String() + " "}
		for _, parts := range []int{1, 2, 3} {
			countParts = parts
			p, aq := compileQuery(t, s.View, "SELECT (COUNT(*) AS ?n) WHERE "+where, 0)
			forceLeapfrog(t, p)
			if got := rows(t, p, aq.Vars); !slices.Equal(got, want) {
				t.Errorf("%s in %d parts: %v, want %v", where, parts, got, want)
			}
			if ex := p.Explain(); !strings.Contains(ex, "rows="+strconv.Itoa(n)+" leapfrog") {
				t.Errorf("%s: the triejoin's rows are not shown:\n%s", where, ex)
			}
		}
	}
}

// BenchmarkLeapfrogCount counts the :knows triangles through a triejoin
// with COUNT(*) (no rows produced) and, for comparison, with COUNT(?x),
// which aggregates the rows; the tries are
// read by the first run and kept by the execution, so this measures the
// intersections.
func BenchmarkLeapfrogCount(b *testing.B) {
	s := testStore(b)
	const where = `{ ?x :knows ?y . ?y :knows ?z . ?z :knows ?x }`
	for _, bc := range []struct{ name, q string }{
		{"count", "SELECT (COUNT(*) AS ?n) WHERE " + where},
		{"rows", "SELECT (COUNT(?x) AS ?n) WHERE " + where},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p, aq := compileQuery(b, s.View, bc.q, 0)
			forceLeapfrog(b, p)
			for b.Loop() {
				rows(b, p, aq.Vars)
			}
		})
	}
}
