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
	"github.com/mneme-archive/mneme/sparql/plan"
)

// The property paths and anti-joins are checked against a brute-force
// evaluation of the SPARQL definitions over small random graphs with
// cycles and self-loops, held in a real store.

// rtriple is a triple of the reference graph, by local names.
type rtriple struct{ s, p, o string }

// randomGraph returns random triples over nodes n0..n7 and predicates
// :p :q :r, spread over two named graphs with some triples in both (the
// default graph, their union, holds those once), loaded in a store.
func randomGraph(t *testing.T, seed uint64) (*graph.Store, []rtriple) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 20))
	s, err := graph.Open(t.TempDir(), graph.OpenOptions{CacheBytes: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	b := s.NewBatch()
	seen := map[rtriple]bool{}
	var ts []rtriple
	for range 14 + rng.IntN(10) {
		tr := rtriple{fmt.Sprintf("n%d", rng.IntN(8)), []string{"p", "q", "r"}[rng.IntN(3)], fmt.Sprintf("n%d", rng.IntN(8))}
		g := rng.IntN(2)
		q := rdf.Quad{S: rdf.IRI(ex + tr.s), P: rdf.IRI(ex + tr.p), O: rdf.IRI(ex + tr.o), G: rdf.IRI(fmt.Sprintf("%sg%d", ex, g))}
		b.Add(q)
		if rng.IntN(4) == 0 {
			q.G = rdf.IRI(fmt.Sprintf("%sg%d", ex, 1-g))
			b.Add(q)
		}
		if !seen[tr] {
			seen[tr] = true
			ts = append(ts, tr)
		}
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s, ts
}

// rpath is a property path of the reference evaluator.
type rpath struct {
	kind string // link, inv, seq, alt, +, *, ?, neg
	iri  string // link; neg: the excluded forward predicate
	a, b *rpath
}

func (p *rpath) String() string {
	switch p.kind {
	case "link":
		return ":" + p.iri
	case "inv":
		return "^(" + p.a.String() + ")"
	case "seq":
		return "(" + p.a.String() + "/" + p.b.String() + ")"
	case "alt":
		return "(" + p.a.String() + "|" + p.b.String() + ")"
	case "neg":
		return "!:" + p.iri
	}
	return "(" + p.a.String() + ")" + p.kind
}

// pairs evaluates p over ts with the SPARQL semantics: a bag of pairs for
// links, inverses, sequences and alternatives; for +, * and ? the set of
// nodes reachable from each start (* and ? adding every node of the
// graph, and the constant start when it is not one, to itself).
func (p *rpath) pairs(ts []rtriple, nodes []string) [][2]string {
	var out [][2]string
	switch p.kind {
	case "link", "neg":
		for _, t := range ts {
			if (p.kind == "link") == (t.p == p.iri) {
				out = append(out, [2]string{t.s, t.o})
			}
		}
	case "inv":
		for _, pr := range p.a.pairs(ts, nodes) {
			out = append(out, [2]string{pr[1], pr[0]})
		}
	case "seq":
		bs := p.b.pairs(ts, nodes)
		for _, x := range p.a.pairs(ts, nodes) {
			for _, y := range bs {
				if x[1] == y[0] {
					out = append(out, [2]string{x[0], y[1]})
				}
			}
		}
	case "alt":
		out = append(p.a.pairs(ts, nodes), p.b.pairs(ts, nodes)...)
	default:
		sub := p.a.pairs(ts, nodes)
		for _, n := range nodes {
			reach := map[string]bool{}
			if p.kind != "+" {
				reach[n] = true
			}
			frontier := []string{n}
			for len(frontier) > 0 {
				var next []string
				for _, f := range frontier {
					for _, pr := range sub {
						if pr[0] == f && !reach[pr[1]] {
							reach[pr[1]] = true
							next = append(next, pr[1])
						}
					}
				}
				if p.kind == "?" {
					break
				}
				frontier = next
			}
			for m := range reach {
				out = append(out, [2]string{n, m})
			}
		}
	}
	return out
}

func (p *rpath) mod(k string) *rpath { return &rpath{kind: k, a: p} }
func link(iri string) *rpath         { return &rpath{kind: "link", iri: iri} }
func seq(a, b *rpath) *rpath         { return &rpath{kind: "seq", a: a, b: b} }
func alt(a, b *rpath) *rpath         { return &rpath{kind: "alt", a: a, b: b} }
func graphNodes(ts []rtriple) []string {
	var out []string
	for _, t := range ts {
		for _, n := range []string{t.s, t.o} {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestPathsAgreeWithDefinition runs paths of every operator with each
// end free, constant (in the graph or not), the same variable at both
// ends, and joined to a triple on either end (walks from every start
// node over maps of the links and by lookups), each path step joined by
// bind and by hash, and expects the solutions of the definition.
func TestPathsAgreeWithDefinition(t *testing.T) {
	p, q, r := link("p"), link("q"), link("r")
	paths := []*rpath{
		p.mod("+"), p.mod("*"), p.mod("?"), p.mod("inv").mod("+"),
		alt(p, q), alt(p, q.mod("inv")).mod("+"), seq(p, q).mod("*"), seq(p, q.mod("+")),
		alt(p, r).mod("?"), {kind: "neg", iri: "p"}, seq(p.mod("inv").mod("*"), q),
		seq(q.mod("+"), p.mod("inv")), alt(seq(p, p), r.mod("*")).mod("+"),
		alt(p, q.mod("inv")), alt(alt(p, q), r.mod("inv")),
	}
	// Walks from every start node with their links read into maps, and
	// with every node looked up.
	defer func(per, least int) { adjacencyPerStart, adjacencyMin = per, least }(adjacencyPerStart, adjacencyMin)
	for _, maps := range []bool{true, false} {
		if !maps {
			adjacencyPerStart, adjacencyMin = 0, 0
		}
		testPathsAgree(t, paths)
	}
}

func testPathsAgree(t *testing.T, paths []*rpath) {
	for seed := range uint64(4) {
		s, ts := randomGraph(t, seed)
		nodes := graphNodes(ts)
		for _, rp := range paths {
			all := rp.pairs(ts, nodes)
			with := func(c string) [][2]string {
				// A constant not in the graph matches itself by a
				// zero-length path.
				if slices.Contains(nodes, c) {
					return all
				}
				return rp.pairs(ts, append(slices.Clone(nodes), c))
			}
			type shape struct {
				where string
				vars  []string
				want  []string
			}
			var shapes []shape
			add := func(where string, vars []string, want []string) {
				shapes = append(shapes, shape{where, vars, want})
			}
			var free, same []string
			for _, pr := range all {
				free = append(free, fmt.Sprintf("<%s%s> <%s%s> ", ex, pr[0], ex, pr[1]))
				if pr[0] == pr[1] {
					same = append(same, fmt.Sprintf("<%s%s> ", ex, pr[0]))
				}
			}
			add(fmt.Sprintf("?x %s ?y", rp), []string{"x", "y"}, free)
			add(fmt.Sprintf("?x %s ?x", rp), []string{"x"}, same)
			for _, c := range []string{"n0", "n3", "zz"} {
				var fromC, toC []string
				for _, pr := range with(c) {
					if pr[0] == c {
						fromC = append(fromC, fmt.Sprintf("<%s%s> ", ex, pr[1]))
					}
					if pr[1] == c {
						toC = append(toC, fmt.Sprintf("<%s%s> ", ex, pr[0]))
					}
				}
				add(fmt.Sprintf(":%s %s ?y", c, rp), []string{"y"}, fromC)
				add(fmt.Sprintf("?x %s :%s", rp, c), []string{"x"}, toC)
			}
			// Joined with :r on either end: the path walked per row of
			// the triple, or the triple looked up per pair.
			var rs, rt []string
			for _, pr := range all {
				for _, t := range ts {
					if t.p == "r" && t.o == pr[0] {
						rs = append(rs, fmt.Sprintf("<%s%s> <%s%s> ", ex, t.s, ex, pr[1]))
					}
					if t.p == "r" && t.s == pr[1] {
						rt = append(rt, fmt.Sprintf("<%s%s> <%s%s> ", ex, pr[0], ex, t.o))
					}
				}
			}
			add(fmt.Sprintf("?w :r ?x . ?x %s ?y", rp), []string{"w", "y"}, rs)
			add(fmt.Sprintf("?x %s ?y . ?y :r ?z", rp), []string{"x", "z"}, rt)
			for _, sh := range shapes {
				src := fmt.Sprintf("SELECT %s WHERE { %s }", "?"+strings.Join(sh.vars, " ?"), sh.where)
				for _, join := range []plan.Join{plan.Bind, plan.Hash} {
					pl, aq := compileQuery(t, s.View, src, 0)
					for _, bn := range pl.bgps {
						for i, st := range bn.steps {
							if bn.pats[st.Pattern].path != nil && i > 0 {
								bn.steps[i].Join = join
							}
						}
					}
					got := sorted(rows(t, pl, aq.Vars))
					if want := sorted(sh.want); !slices.Equal(got, want) {
						t.Fatalf("graph %d, %s (%v): got %d rows %v\nwant %d rows %v\n%s", seed, src, join, len(got), got, len(want), want, pl.Explain())
					}
				}
			}
		}
	}
}

// TestPathWalkedFromConstant checks the plan of a path towards a
// constant joined with a larger pattern: the path is walked once,
// backwards from the constant (the 4 nodes of :x6's :knows cycle), and
// the type pattern looked up per node, not the path walked per typed
// resource (250 of them).
func TestPathWalkedFromConstant(t *testing.T) {
	s := testStore(t)
	p, aq := compileQuery(t, s.View, `SELECT ?x ?t WHERE { ?x :knows+ :x6 . ?x a ?t }`, 0)
	got := sorted(rows(t, p, aq.Vars))
	out := p.Explain()
	if !strings.Contains(out, "est=4 rows=4 bind walk backwards from the object, 4 pairs walked at planning #1") {
		t.Errorf("the path should be walked first, from the constant:\n%s", out)
	}
	// x6's cycle under i → 7i mod 300 is 6, 42, 294, 258: multiples of 6,
	// each of type :A and :B.
	var want []string
	for _, x := range []int{6, 42, 294, 258} {
		for _, c := range []string{"A", "B"} {
			want = append(want, fmt.Sprintf("<%sx%d> <%s%s> ", ex, x, ex, c))
		}
	}
	if want = sorted(want); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestPathsCounted checks a path alone under COUNT(*) and GROUP BY,
// whose input a group may read specially (a lone triple pattern is
// scanned into one row): the counts are the path's, not the store's.
func TestPathsCounted(t *testing.T) {
	s := testStore(t)
	// x6's :knows cycle has 4 nodes, each reaching all 4 by :knows+.
	for q, want := range map[string][]string{
		`SELECT (COUNT(*) AS ?n) WHERE { ?x :knows+ ?y . ?y :knows+ :x6 }`:                {`"16"^^<http://www.w3.org/2001/XMLSchema#integer> `},
		`SELECT (COUNT(*) AS ?n) WHERE { ?x :knows+ :x6 }`:                                {`"4"^^<http://www.w3.org/2001/XMLSchema#integer> `},
		`SELECT ?y (COUNT(?x) AS ?n) WHERE { :x6 :knows+ ?y . ?x :knows ?y } GROUP BY ?y`: nil,
	} {
		got := run(t, s.View, q, 0)
		if want == nil {
			if len(got) != 4 {
				t.Errorf("%s: %d groups, want 4: %v", q, len(got), got)
			}
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", q, got, want)
		}
	}
}
