package eval

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/expr"
)

// mixedStore holds n resources with random, often repeated values of
// mixed kinds: :k is a group key (one of six IRIs, missing for some),
// :v a value (integers, decimals and doubles equal in value but distinct
// as terms, strings, language strings, IRIs; missing for some, several
// for others), :w a small integer (ties for ORDER BY). It returns the
// triples it wrote, for brute-force answers.
func mixedStore(t testing.TB, seed uint64, n int) (*graph.Store, []rdf.Triple) {
	t.Helper()
	s, err := graph.Open(t.TempDir(), graph.OpenOptions{CacheBytes: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	r := rand.New(rand.NewPCG(seed, 7))
	values := []rdf.Term{
		rdf.Literal("1", rdf.XSDInteger), rdf.Literal("01", rdf.XSDInteger), rdf.Literal("1.0", rdf.XSDDecimal),
		rdf.Literal("1.0E0", rdf.XSDDouble), rdf.Literal("2", rdf.XSDInteger), rdf.Literal("-3", rdf.XSDInteger),
		rdf.Literal("2.5", rdf.XSDDecimal), rdf.String("a"), rdf.String("b"), rdf.LangLiteral("a", "en"),
		rdf.IRI(ex + "o1"), rdf.IRI(ex + "o2"), rdf.Literal("x", ex+"custom"), rdf.Literal("true", rdf.XSDBoolean),
	}
	var triples []rdf.Triple
	seen := map[rdf.Triple]bool{}
	b := s.NewBatch()
	add := func(tr rdf.Triple) {
		if seen[tr] {
			return // a set of triples, as the store keeps
		}
		seen[tr] = true
		triples = append(triples, tr)
		b.Add(rdf.Quad{S: tr.S, P: tr.P, O: tr.O})
	}
	for i := range n {
		x := rdf.IRI(fmt.Sprintf("%sx%d", ex, i))
		add(rdf.Triple{S: x, P: rdf.IRI(rdf.RDFType), O: rdf.IRI(ex + "T")})
		if r.IntN(8) > 0 {
			add(rdf.Triple{S: x, P: rdf.IRI(ex + "k"), O: rdf.IRI(fmt.Sprintf("%sk%d", ex, r.IntN(6)))})
		}
		for range r.IntN(3) {
			add(rdf.Triple{S: x, P: rdf.IRI(ex + "v"), O: values[r.IntN(len(values))]})
		}
		add(rdf.Triple{S: x, P: rdf.IRI(ex + "w"), O: rdf.Literal(fmt.Sprint(r.IntN(5)), rdf.XSDInteger)})
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s, triples
}

// TestTopKAgreesWithSort checks ORDER BY … LIMIT (a bounded heap) against
// the full stable sort cut to the same slice: ties (on ?w, on unbound
// values), mixed kinds of keys, descending keys, OFFSET past the end.
func TestTopKAgreesWithSort(t *testing.T) {
	for seed := range uint64(3) {
		s, _ := mixedStore(t, seed, 150)
		for _, order := range []string{
			"?w", "DESC(?w)", "?v", "DESC(?v) ?x", "?w DESC(?v)", "STR(?v)", "DESC(?k) ?w",
		} {
			q := `SELECT ?x ?k ?v ?w WHERE { ?x a :T ; :w ?w OPTIONAL { ?x :k ?k } OPTIONAL { ?x :v ?v } } ORDER BY ` + order
			full := run(t, s.View, q, 0)
			for _, sl := range [][2]int{{0, 1}, {0, 7}, {3, 10}, {0, 0}, {50, 40}, {0, 1000}, {len(full) - 2, 5}, {len(full) + 3, 2}} {
				off, lim := sl[0], sl[1]
				p, aq := compileQuery(t, s.View, fmt.Sprintf("%s LIMIT %d OFFSET %d", q, lim, off), 0)
				got := rows(t, p, aq.Vars)
				want := full[min(off, len(full)):min(off+lim, len(full))]
				if !slices.Equal(got, want) {
					t.Fatalf("seed %d, ORDER BY %s LIMIT %d OFFSET %d:\n got  %q\n want %q", seed, order, lim, off, got, want)
				}
				if lim > 0 && off+lim < len(full) && !strings.Contains(p.Explain(), fmt.Sprintf("top-k %d", off+lim)) {
					t.Fatalf("ORDER BY %s LIMIT %d OFFSET %d did not run as a top-k:\n%s", order, lim, off, p.Explain())
				}
			}
		}
	}
}

// groupNodes finds the group operators of a compiled plan.
func groupNodes(n node) []*groupNode {
	switch x := n.(type) {
	case *counted:
		return groupNodes(x.n)
	case *groupNode:
		return append(groupNodes(x.sub), x)
	case *projectNode:
		return groupNodes(x.sub)
	case *extendNode:
		return groupNodes(x.sub)
	case *orderNode:
		return groupNodes(x.sub)
	case *sliceNode:
		return groupNodes(x.sub)
	case *filterNode:
		return groupNodes(x.sub)
	case *distinctNode:
		return groupNodes(x.sub)
	}
	return nil
}

// TestAggregatesOnIDsAgree runs aggregates over unbound and mixed-type
// values twice: as compiled (counts and MIN/MAX on IDs, HAVING in the
// aggregate, COUNT(*) asked of the input) and with every aggregate
// folded through decoded values, and expects the same answers.
func TestAggregatesOnIDsAgree(t *testing.T) {
	queries := []string{
		`SELECT ?k (COUNT(?v) AS ?c) (COUNT(DISTINCT ?v) AS ?d) (COUNT(*) AS ?n) (MIN(?v) AS ?lo) (MAX(?v) AS ?hi) (SAMPLE(?k) AS ?s)
			WHERE { ?x a :T OPTIONAL { ?x :k ?k } OPTIONAL { ?x :v ?v } } GROUP BY ?k`,
		`SELECT (COUNT(?v) AS ?c) (COUNT(DISTINCT ?v) AS ?d) (MIN(?v) AS ?lo) (MAX(?v) AS ?hi) WHERE { ?x :v ?v }`,
		`SELECT (COUNT(?x) AS ?c) (COUNT(*) AS ?n) WHERE { ?x :w ?w }`,
		`SELECT (COUNT(*) AS ?n) (COUNT(?k) AS ?c) WHERE { ?x a :T ; :w ?w ; :k ?k ; :v ?v }`,
		`SELECT (COUNT(*) AS ?n) WHERE { ?x :k ?k . ?y :k ?k . ?y :w ?w }`,
		`SELECT (MIN(?v) AS ?lo) (MAX(?v) AS ?hi) (COUNT(?v) AS ?c) WHERE { ?x :v ?v FILTER(false) }`,
		`SELECT ?k (COUNT(?v) AS ?c) (SUM(?w) AS ?s) WHERE { ?x a :T ; :w ?w OPTIONAL { ?x :k ?k } OPTIONAL { ?x :v ?v } } GROUP BY ?k HAVING (COUNT(?v) > 20 && SUM(?w) >= 40)`,
		`SELECT ?w (MAX(?v) AS ?hi) WHERE { ?x :w ?w ; :v ?v } GROUP BY ?w HAVING (isLiteral(MAX(?v)))`,
		`SELECT ?w (AVG(?w) AS ?a) WHERE { ?x :w ?w } GROUP BY ?w HAVING (AVG(?w) < 3)`,
		`SELECT ?k (SUM(?v) AS ?s) (AVG(?w) AS ?b) WHERE { ?x a :T OPTIONAL { ?x :k ?k } OPTIONAL { ?x :v ?v } OPTIONAL { ?x :w ?w } } GROUP BY ?k`,
		`SELECT ?x (SUM(?v) AS ?s) (AVG(?v) AS ?a) WHERE { ?x :v ?v } GROUP BY ?x`,
		`SELECT (SUM(?n) AS ?s) (AVG(?n) AS ?a) (MIN(?n) AS ?lo) (MAX(?n) AS ?hi) WHERE { { SELECT ?w (COUNT(?x) AS ?n) WHERE { ?x :w ?w } GROUP BY ?w } }`,
	}
	// Small batches get a helper goroutine, as large ones do.
	defer func(m int) { helpMin = m }(helpMin)
	helpMin = 4
	for seed := range uint64(3) {
		s, _ := mixedStore(t, seed, 200)
		for _, q := range queries {
			p, aq := compileQuery(t, s.View, q, 0)
			got := sorted(rows(t, p, aq.Vars))
			p2, _ := compileQuery(t, s.View, q, 0)
			gs := groupNodes(p2.root)
			if len(gs) == 0 {
				t.Fatalf("%s: no group operator found", q)
			}
			for _, g := range gs {
				for i := range g.kinds {
					g.kinds[i] = aggValue
				}
				g.countRows = false
			}
			want := sorted(rows(t, p2, aq.Vars))
			if !slices.Equal(got, want) {
				t.Fatalf("seed %d: %s\n on IDs   %q\n on terms %q", seed, q, got, want)
			}
			if len(want) == 0 && !strings.Contains(q, "false") && !strings.Contains(q, "HAVING") {
				t.Fatalf("%s: no rows", q)
			}
		}
	}
}

// TestCountsBruteForce checks grouped COUNT, COUNT(DISTINCT) and MIN
// against counts computed from the triples themselves.
func TestCountsBruteForce(t *testing.T) {
	s, triples := mixedStore(t, 11, 250)
	// per subject: its key (or none) and its values
	key := map[rdf.Term]rdf.Term{}
	vals := map[rdf.Term][]rdf.Term{}
	var subjects []rdf.Term
	for _, tr := range triples {
		switch tr.P.Value {
		case rdf.RDFType:
			subjects = append(subjects, tr.S)
		case ex + "k":
			key[tr.S] = tr.O
		case ex + "v":
			vals[tr.S] = append(vals[tr.S], tr.O)
		}
	}
	type agg struct {
		count    int
		distinct map[rdf.Term]bool
		min      rdf.Term
	}
	want := map[rdf.Term]*agg{}
	for _, x := range subjects {
		k := key[x]
		a := want[k]
		if a == nil {
			a = &agg{distinct: map[rdf.Term]bool{}}
			want[k] = a
		}
		for _, v := range vals[x] {
			a.count++
			a.distinct[v] = true
			if a.min.IsZero() || expr.Compare(v, a.min) < 0 {
				a.min = v
			}
		}
	}
	var wantRows []string
	for k, a := range want {
		lo := "unbound"
		if !a.min.IsZero() {
			lo = a.min.String()
		}
		kk := "unbound"
		if !k.IsZero() {
			kk = k.String()
		}
		wantRows = append(wantRows, fmt.Sprintf("%s %d %d %s", kk, a.count, len(a.distinct), lo))
	}
	slices.Sort(wantRows)
	p, _ := compileQuery(t, s.View, `SELECT ?k (COUNT(?v) AS ?c) (COUNT(DISTINCT ?v) AS ?d) (MIN(?v) AS ?lo)
		WHERE { ?x a :T OPTIONAL { ?x :k ?k } OPTIONAL { ?x :v ?v } } GROUP BY ?k`, 0)
	r, err := p.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var got []string
	for {
		row, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if row == nil {
			break
		}
		var f []string
		for _, v := range []string{"k", "c", "d", "lo"} {
			id := row[p.ex.Scope.Slot(v)]
			term, err := p.ex.Dict.Term(id)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case id == 0:
				f = append(f, "unbound")
			case v == "c" || v == "d":
				f = append(f, term.Value)
			default:
				f = append(f, term.String())
			}
		}
		got = append(got, strings.Join(f, " "))
	}
	slices.Sort(got)
	if !slices.Equal(got, wantRows) {
		t.Fatalf("grouped counts:\n got  %q\n want %q", got, wantRows)
	}
}

// TestDistinctOnIDs checks DISTINCT, which compares IDs, against
// distinct terms: literals equal in value but distinct as terms ("1",
// "01", "1.0", "1.0E0") stay apart, as RDF term equality says.
func TestDistinctOnIDs(t *testing.T) {
	s, triples := mixedStore(t, 5, 300)
	terms := map[rdf.Term]bool{}
	for _, tr := range triples {
		if tr.P.Value == ex+"v" {
			terms[tr.O] = true
		}
	}
	got := run(t, s.View, `SELECT DISTINCT ?v WHERE { ?x :v ?v }`, 0)
	var want []string
	for term := range terms {
		want = append(want, term.String()+" ")
	}
	if !slices.Equal(sorted(got), sorted(want)) {
		t.Fatalf("DISTINCT: %q, want the %d distinct terms %q", got, len(terms), sorted(want))
	}
	// Kept by an operator above (the rows must be the caller's).
	if kept := run(t, s.View, `SELECT ?v WHERE { { SELECT DISTINCT ?v WHERE { ?x :v ?v } } } ORDER BY ?v`, 0); !slices.Equal(sorted(kept), sorted(want)) {
		t.Fatalf("ORDER BY over DISTINCT: %q, want %q", kept, sorted(want))
	}
	// The same through a join, where rows are not read into one row.
	if joined := run(t, s.View, `SELECT DISTINCT ?v WHERE { ?x :v ?v ; a :T }`, 0); !slices.Equal(sorted(joined), sorted(want)) {
		t.Fatalf("DISTINCT over a join: %q, want %q", joined, sorted(want))
	}
	for _, bound := range []int{2, 5} {
		if spilled := run(t, s.View, `SELECT DISTINCT ?v WHERE { ?x :v ?v }`, bound); !slices.Equal(spilled, got) {
			t.Fatalf("DISTINCT with a %d-row bound: %q, in memory %q", bound, spilled, got)
		}
	}
	n := run(t, s.View, `SELECT (COUNT(DISTINCT ?v) AS ?n) WHERE { ?x :v ?v }`, 0)
	if want := fmt.Sprintf(`"%d"^^<%s> `, len(terms), rdf.XSDInteger); len(n) != 1 || n[0] != want {
		t.Fatalf("COUNT(DISTINCT): %q, want %s", n, want)
	}
}

// TestExplainAggregatesAndTopK checks that EXPLAIN gives estimated and
// actual rows for a group (and its HAVING) and a top-k.
func TestExplainAggregatesAndTopK(t *testing.T) {
	s, _ := mixedStore(t, 1, 100)
	p, aq := compileQuery(t, s.View, `SELECT ?k (COUNT(?x) AS ?n) WHERE { ?x :k ?k } GROUP BY ?k HAVING (COUNT(?x) > 1) ORDER BY DESC(?n) ?k LIMIT 2`, 0)
	got := rows(t, p, aq.Vars)
	if len(got) != 2 {
		t.Fatalf("%d rows, want 2", len(got))
	}
	e := p.Explain()
	for _, want := range []string{"(group", "hash aggregate on ids", "HAVING in the aggregate", "top-k 2 (heap)"} {
		if !strings.Contains(e, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, e)
		}
	}
	for _, line := range strings.Split(e, "\n") {
		if strings.Contains(line, "(group") && !strings.Contains(line, "est=6 rows=6") {
			t.Errorf("group line without est=6 rows=6 (six keys): %s", line)
		}
		if strings.Contains(line, "(orderby") && !strings.Contains(line, "est=2 rows=2") {
			t.Errorf("top-k line without est=2 rows=2: %s", line)
		}
	}
}

// TestGroupInputsAgree counts the solutions of patterns by COUNT(*),
// grouped and not (a group over one pattern reads its quads into one
// row; a COUNT(*) over several asks the last step to count), and
// expects the numbers of rows the patterns produce.
func TestGroupInputsAgree(t *testing.T) {
	s, _ := mixedStore(t, 3, 200)
	for _, pat := range []string{
		`?x :k ?o`, `?x :v ?o`, `?x ?p ?o`, `?x :k ?o . ?x :w ?w`, `?x :k ?o . ?y :k ?o`,
		`?x (:k|:w) ?o`, `?x :k/^:k ?o`, `?x :w ?o . ?x :v ?o`,
	} {
		all := run(t, s.View, `SELECT ?o WHERE { `+pat+` }`, 0)
		per := map[string]int{}
		for _, r := range all {
			per[r]++
		}
		var want []string
		for o, n := range per {
			want = append(want, fmt.Sprintf(`%s"%d"^^<%s> `, o, n, rdf.XSDInteger))
		}
		got := sorted(run(t, s.View, `SELECT ?o (COUNT(*) AS ?n) WHERE { `+pat+` } GROUP BY ?o`, 0))
		if !slices.Equal(got, sorted(want)) {
			t.Errorf("%s grouped:\n got  %q\n want %q", pat, got, sorted(want))
		}
		n := run(t, s.View, `SELECT (COUNT(*) AS ?n) WHERE { `+pat+` }`, 0)
		if w := fmt.Sprintf(`"%d"^^<%s> `, len(all), rdf.XSDInteger); len(n) != 1 || n[0] != w {
			t.Errorf("%s: COUNT(*) %q, want %s", pat, n, w)
		}
	}
}
