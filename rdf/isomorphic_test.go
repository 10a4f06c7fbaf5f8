package rdf

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func b(l string) Term { return Blank(l) }

var (
	pp = IRI("http://e.org/p")
	pq = IRI("http://e.org/q")
)

func TestIsomorphicBasics(t *testing.T) {
	s := IRI("http://e.org/s")
	cases := []struct {
		name string
		a, b []Quad
		want bool
	}{
		{"empty", nil, nil, true},
		{"ground equal", []Quad{{S: s, P: pp, O: String("x")}}, []Quad{{S: s, P: pp, O: String("x")}}, true},
		{"ground differ", []Quad{{S: s, P: pp, O: String("x")}}, []Quad{{S: s, P: pp, O: String("y")}}, false},
		{"datatype differs", []Quad{{S: s, P: pp, O: String("1")}}, []Quad{{S: s, P: pp, O: Literal("1", XSDInteger)}}, false},
		{"lang case-insensitive", []Quad{{S: s, P: pp, O: LangLiteral("x", "en-US")}}, []Quad{{S: s, P: pp, O: LangLiteral("x", "en-us")}}, true},
		{"lang differs", []Quad{{S: s, P: pp, O: LangLiteral("x", "en")}}, []Quad{{S: s, P: pp, O: LangLiteral("x", "fr")}}, false},
		{"graph name matters", []Quad{{S: s, P: pp, O: s}}, []Quad{{S: s, P: pp, O: s, G: IRI("http://e.org/g")}}, false},
		{"duplicates ignored",
			[]Quad{{S: b("x"), P: pp, O: s}, {S: b("x"), P: pp, O: s}, {S: s, P: pp, O: s}},
			[]Quad{{S: b("y"), P: pp, O: s}, {S: s, P: pp, O: s}, {S: s, P: pp, O: s}}, true},
		{"relabelled",
			[]Quad{{S: b("a"), P: pp, O: b("b")}, {S: b("b"), P: pq, O: String("v")}},
			[]Quad{{S: b("y"), P: pq, O: String("v")}, {S: b("x"), P: pp, O: b("y")}}, true},
		{"blank is not an IRI",
			[]Quad{{S: b("a"), P: pp, O: s}},
			[]Quad{{S: IRI("http://e.org/a"), P: pp, O: s}}, false},
		{"one blank vs two",
			[]Quad{{S: b("a"), P: pp, O: s}, {S: b("a"), P: pq, O: s}},
			[]Quad{{S: b("a"), P: pp, O: s}, {S: b("b"), P: pq, O: s}}, false},
		{"blank graph names",
			[]Quad{{S: b("a"), P: pp, O: s, G: b("g")}, {S: b("g"), P: pq, O: b("a")}},
			[]Quad{{S: b("x"), P: pp, O: s, G: b("h")}, {S: b("h"), P: pq, O: b("x")}}, true},
		{"blank graph names swapped roles",
			[]Quad{{S: b("a"), P: pp, O: s, G: b("g")}, {S: b("g"), P: pq, O: b("a")}},
			[]Quad{{S: b("x"), P: pp, O: s, G: b("h")}, {S: b("x"), P: pq, O: b("h")}}, false},
		{"self loop",
			[]Quad{{S: b("a"), P: pp, O: b("a")}},
			[]Quad{{S: b("a"), P: pp, O: b("b")}}, false},
	}
	for _, c := range cases {
		if got := Isomorphic(c.a, c.b); got != c.want {
			t.Errorf("%s: Isomorphic = %v, want %v", c.name, got, c.want)
		}
		if got := Isomorphic(c.b, c.a); got != c.want {
			t.Errorf("%s (swapped): Isomorphic = %v, want %v", c.name, got, c.want)
		}
		if d := IsomorphismDiff(c.a, c.b); (d == "") != c.want {
			t.Errorf("%s: IsomorphismDiff = %q, want isomorphic=%v", c.name, d, c.want)
		}
	}
}

// cycle returns a directed p-cycle over blank nodes prefix0..prefix(n-1).
func cycle(prefix string, n int) []Quad {
	var qs []Quad
	for i := range n {
		qs = append(qs, Quad{S: b(fmt.Sprint(prefix, i)), P: pp, O: b(fmt.Sprint(prefix, (i+1)%n))})
	}
	return qs
}

// Every node of a cycle looks alike to colour refinement, so these cases
// need the backtracking step.
func TestIsomorphicSymmetric(t *testing.T) {
	sixCycle := cycle("a", 6)
	twoTriangles := append(cycle("b", 3), cycle("c", 3)...)
	if Isomorphic(sixCycle, twoTriangles) {
		t.Error("a 6-cycle is not two 3-cycles")
	}
	// The same 6-cycle with labels rotated and quads reversed.
	var rotated []Quad
	for i := 5; i >= 0; i-- {
		rotated = append(rotated, Quad{S: b(fmt.Sprint("z", (i+2)%6)), P: pp, O: b(fmt.Sprint("z", (i+3)%6))})
	}
	if !Isomorphic(sixCycle, rotated) {
		t.Error("rotated 6-cycle should be isomorphic")
	}
	// Two triangles in two named blank graphs, each graph holding one
	// triangle, against the triangles split across the graphs.
	inGraphs := func(g1, g2 Term, split bool) []Quad {
		var qs []Quad
		for i, q := range append(cycle("m", 3), cycle("n", 3)...) {
			switch {
			case split && i%2 == 0, !split && i < 3:
				q.G = g1
			default:
				q.G = g2
			}
			qs = append(qs, q)
		}
		return qs
	}
	if !Isomorphic(inGraphs(b("g1"), b("g2"), false), inGraphs(b("h2"), b("h1"), false)) {
		t.Error("same triangles per graph should be isomorphic")
	}
	if Isomorphic(inGraphs(b("g1"), b("g2"), false), inGraphs(b("g1"), b("g2"), true)) {
		t.Error("triangles split across graphs should differ")
	}
	// A big cycle: backtracking must stay cheap (one branch per level
	// succeeds at once after refinement).
	big := cycle("a", 200)
	if !Isomorphic(big, cycle("q", 200)) {
		t.Error("200-cycles should be isomorphic")
	}
	if Isomorphic(big, append(cycle("q", 100), cycle("r", 100)...)) {
		t.Error("a 200-cycle is not two 100-cycles")
	}
}

// randomGraph builds a graph over n blank nodes and two predicates, with
// some blank graph names.
func randomGraph(r *rand.Rand, n, edges int, prefix string) []Quad {
	var qs []Quad
	for range edges {
		q := Quad{S: b(fmt.Sprint(prefix, r.IntN(n))), P: []Term{pp, pq}[r.IntN(2)], O: b(fmt.Sprint(prefix, r.IntN(n)))}
		if r.IntN(4) == 0 {
			q.G = b(fmt.Sprint(prefix, r.IntN(n)))
		}
		qs = append(qs, q)
	}
	return qs
}

func relabel(qs []Quad, perm []int, prefix, to string) []Quad {
	m := func(t Term) Term {
		if t.Kind != KindBlank {
			return t
		}
		var i int
		fmt.Sscanf(strings.TrimPrefix(t.Value, prefix), "%d", &i)
		return b(fmt.Sprint(to, perm[i]))
	}
	out := make([]Quad, len(qs))
	for i, q := range qs {
		out[len(qs)-1-i] = Quad{S: m(q.S), P: q.P, O: m(q.O), G: m(q.G)}
	}
	return out
}

// bruteForce tries every bijection of the n blank nodes.
func bruteForce(a, bq []Quad, n int) bool {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	want := map[Quad]bool{}
	for _, q := range bq {
		want[q] = true
	}
	var try func(k int) bool
	try = func(k int) bool {
		if k == n {
			got := map[Quad]bool{}
			for _, q := range relabel(a, perm, "a", "b") {
				got[q] = true
			}
			if len(got) != len(want) {
				return false
			}
			for q := range got {
				if !want[q] {
					return false
				}
			}
			return true
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			if try(k + 1) {
				return true
			}
			perm[k], perm[i] = perm[i], perm[k]
		}
		return false
	}
	return try(0)
}

// TestIsomorphicAgainstBruteForce compares with an exhaustive search on
// small random graphs, half of them permuted copies (isomorphic by
// construction) and half independent graphs of the same size.
func TestIsomorphicAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 5
	agree, iso := 0, 0
	for trial := range 400 {
		a := randomGraph(r, n, 7, "a")
		var other []Quad
		if trial%2 == 0 {
			other = relabel(a, r.Perm(n), "a", "b")
		} else {
			other = randomGraph(r, n, 7, "b")
		}
		// Only graphs where every node occurs can be compared with a
		// bijection over all n labels.
		if countBlanks(a) != n || countBlanks(other) != n {
			continue
		}
		want := bruteForce(a, other, n)
		if got := Isomorphic(a, other); got != want {
			t.Fatalf("Isomorphic = %v, brute force = %v\na=%v\nb=%v", got, want, a, other)
		}
		agree++
		if want {
			iso++
		}
	}
	if agree < 100 || iso == 0 || iso == agree {
		t.Fatalf("too few informative trials: %d compared, %d isomorphic", agree, iso)
	}
}

func countBlanks(qs []Quad) int {
	seen := map[string]bool{}
	for _, q := range qs {
		for _, t := range []Term{q.S, q.O, q.G} {
			if t.Kind == KindBlank {
				seen[t.Value] = true
			}
		}
	}
	return len(seen)
}

func TestIsomorphismDiffExplains(t *testing.T) {
	s := IRI("http://e.org/s")
	d := IsomorphismDiff(
		[]Quad{{S: s, P: pp, O: String("got")}, {S: s, P: pq, O: s}},
		[]Quad{{S: s, P: pp, O: String("want")}, {S: s, P: pq, O: s}})
	for _, want := range []string{"only in got (1)", `"got"`, "only in want (1)", `"want"`} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
	d = IsomorphismDiff(cycle("a", 6), append(cycle("b", 3), cycle("c", 3)...))
	if !strings.Contains(d, "no blank node mapping fits") || !strings.Contains(d, "_:a0") || !strings.Contains(d, "_:c0") {
		t.Errorf("blank-node diff unclear:\n%s", d)
	}
}
