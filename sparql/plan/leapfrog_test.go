package plan

import (
	"slices"
	"testing"
)

// triangle is LUBM's qc on LUBM(8): ?x :advisor ?p (0) . ?p :worksFor ?d
// (1) . ?x :memberOf ?d (2), with variables x=0, p=1, d=2 and the scans
// (predicate bound) sorted on the object.
func triangle() []Pattern {
	return []Pattern{
		{Vars: [4]int{0, -1, 1, -1}, Card: 30860, Distinct: [4]float64{30860, 1, 4483, 1}, Sorted: 1},
		{Vars: [4]int{1, -1, 2, -1}, Card: 5388, Distinct: [4]float64{5388, 1, 149, 1}, Sorted: 2},
		{Vars: [4]int{0, -1, 2, -1}, Card: 78306, Distinct: [4]float64{78306, 1, 149, 1}, Sorted: 2},
	}
}

func TestLeapfrogForTriangle(t *testing.T) {
	pats := triangle()
	steps := Order(pats, nil)
	for _, s := range steps {
		if s.Join != Leapfrog {
			t.Fatalf("plan %+v, want a leapfrog triejoin of all three patterns", steps)
		}
	}
	// The order the scans come sorted in: d (both scans sorted on it),
	// then p, then x; no pattern needs sorting in memory.
	if vars, _, _ := LeapfrogVars(pats, Cycle(pats)); !slices.Equal(vars, []int{2, 1, 0}) {
		t.Errorf("variable order %v, want [2 1 0]", vars)
	}
	// With ?x bound before the pattern runs, index lookups win.
	for _, s := range Order(pats, []bool{true}) {
		if s.Join == Leapfrog {
			t.Fatalf("leapfrog with ?x bound: %+v", s)
		}
	}
}

func TestLeapfrogThenSteps(t *testing.T) {
	// The triangle plus ?x :type :C (200 rows): the cycle is joined
	// first, the type pattern after it as an ordinary step — unless
	// starting from the 200 rows is cheaper, which the plan must then be
	// left-deep throughout.
	pats := append(triangle(), Pattern{Vars: [4]int{0, -1, -1, -1}, Card: 200, Distinct: [4]float64{200, 1, 1, 1}, Sorted: 0})
	steps := Order(pats, nil)
	if len(steps) != 4 {
		t.Fatalf("%d steps", len(steps))
	}
	if steps[0].Join == Leapfrog && (steps[3].Pattern != 3 || steps[3].Join == Leapfrog) {
		t.Errorf("plan %+v: the type pattern must follow the triejoin", steps)
	}
	if steps[0].Join != Leapfrog && steps[0].Pattern != 3 {
		t.Errorf("left-deep plan %+v should start from the 200 rows", steps)
	}
}

func TestCycle(t *testing.T) {
	chain := []Pattern{pat(0, 1, 10, 10, 10), pat(1, 2, 10, 10, 10), pat(2, 3, 10, 10, 10)}
	for i := range chain {
		chain[i].Sorted = chain[i].Vars[2]
	}
	if c := Cycle(chain); len(c) != 0 {
		t.Errorf("a chain has no cycle, got %v", c)
	}
	for _, s := range Order(chain, nil) {
		if s.Join == Leapfrog {
			t.Errorf("leapfrog on a chain: %+v", s)
		}
	}
	// A square with a tail: the tail is not part of the cycle.
	sq := append(slices.Clone(chain), pat(3, 0, 10, 10, 10), pat(3, 4, 10, 10, 10))
	for i := range sq {
		sq[i].Sorted = sq[i].Vars[2]
	}
	if c := Cycle(sq); !slices.Equal(c, []int{0, 1, 2, 3}) {
		t.Errorf("cycle %v, want [0 1 2 3]", c)
	}
}
