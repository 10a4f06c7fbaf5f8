package plan

import (
	"context"
	"errors"
	"testing"
)

// pat builds a pattern over variables s and o (-1 for constants) with a
// predicate constant.
func pat(s, o int, card, ds, do float64) Pattern {
	return Pattern{Vars: [4]int{s, -1, o, -1}, Card: card, Distinct: [4]float64{ds, 1, do, 1}, Sorted: -1}
}

func order(steps []Step) []int {
	var out []int
	for _, s := range steps {
		out = append(out, s.Pattern)
	}
	return out
}

func TestSelectiveFirst(t *testing.T) {
	// ?x :name ?n (1000 rows) . ?x :type :C (1 row)
	pats := []Pattern{pat(0, 1, 1000, 1000, 1000), pat(0, -1, 1, 1, 1)}
	steps := Order(pats, nil)
	if got := order(steps); got[0] != 1 || got[1] != 0 {
		t.Fatalf("order %v, want [1 0]", got)
	}
	if steps[1].Join != Bind || steps[1].Rows != 1 {
		t.Errorf("second step %+v, want a bind join estimated at 1 row", steps[1])
	}
}

func TestNoCartesianProduct(t *testing.T) {
	// ?a :p ?b (10) . ?c :q ?d (5) . ?b :r ?c (1000): the small
	// unconnected patterns must not be joined to each other first.
	pats := []Pattern{pat(0, 1, 10, 10, 10), pat(2, 3, 5, 5, 5), pat(1, 2, 1000, 1000, 1000)}
	got := order(Order(pats, nil))
	if got[1] != 2 {
		t.Errorf("order %v: the connecting pattern must come second", got)
	}
}

func TestBoundVariablesCount(t *testing.T) {
	// With ?x bound from outside, the pattern on ?x is the cheap start.
	pats := []Pattern{pat(1, 2, 50, 50, 50), pat(0, 1, 10000, 10000, 10000)}
	got := order(Order(pats, []bool{true}))
	if got[0] != 1 {
		t.Errorf("order %v, want the pattern on the bound ?x first", got)
	}
}

func TestHashJoinForLargeInput(t *testing.T) {
	// 100000 input rows binding ?x probe a 1000-row pattern on ?x: one
	// scan and a hash table beat 100000 index lookups; 3 input rows do
	// not.
	pats := []Pattern{pat(0, 1, 1000, 1000, 1000)}
	big := extend(&state{rows: 100000, bound: []bool{true}}, pats, 0)
	if big.steps[0].Join != Hash {
		t.Errorf("100000 input rows: %v join, want hash", big.steps[0].Join)
	}
	small := extend(&state{rows: 3, bound: []bool{true}}, pats, 0)
	if small.steps[0].Join != Bind {
		t.Errorf("3 input rows: %v join, want bind", small.steps[0].Join)
	}
}

func TestGreedyManyPatterns(t *testing.T) {
	// A chain of 14 patterns (beyond the exhaustive limit) is planned
	// connected, every pattern once.
	var pats []Pattern
	for i := range 14 {
		pats = append(pats, pat(i, i+1, float64(100*(i+1)), float64(100*(i+1)), float64(100*(i+1))))
	}
	steps := Order(pats, nil)
	if len(steps) != 14 {
		t.Fatalf("%d steps", len(steps))
	}
	seen := map[int]bool{}
	bound := map[int]bool{}
	for i, s := range steps {
		if seen[s.Pattern] {
			t.Fatalf("pattern %d twice", s.Pattern)
		}
		seen[s.Pattern] = true
		p := pats[s.Pattern]
		if i > 0 && !bound[p.Vars[0]] && !bound[p.Vars[2]] {
			t.Errorf("step %d (pattern %d) is a cartesian product", i, s.Pattern)
		}
		bound[p.Vars[0]], bound[p.Vars[2]] = true, true
	}
}

func TestMergeJoinOnSharedSortOrder(t *testing.T) {
	// ?x :type :A (50000) . ?x :type :B (40000), both scans sorted on ?x:
	// merging the two scans beats 50000 lookups and a hash table.
	a := Pattern{Vars: [4]int{0, -1, -1, -1}, Card: 50000, Distinct: [4]float64{50000, 1, 1, 1}, Sorted: 0}
	b := Pattern{Vars: [4]int{0, -1, -1, -1}, Card: 40000, Distinct: [4]float64{40000, 1, 1, 1}, Sorted: 0}
	steps := Order([]Pattern{a, b}, nil)
	if steps[1].Join != Merge {
		t.Errorf("second step %+v, want a merge join", steps[1])
	}
	// Not when ?x was bound before the first step.
	steps = Order([]Pattern{a, b}, []bool{true})
	for _, s := range steps {
		if s.Join == Merge {
			t.Errorf("merge join with ?x bound from outside: %+v", steps)
		}
	}
	// Nor on different sort variables.
	b.Sorted = 1
	b.Vars[2] = 1
	for _, s := range Order([]Pattern{a, b}, nil) {
		if s.Join == Merge {
			t.Errorf("merge join of patterns sorted on different variables")
		}
	}
}

func TestPrebuiltHashTable(t *testing.T) {
	// 2000 input rows binding ?x probe a 200000-row pattern on ?x: index
	// lookups beat building the table, but not probing one already built.
	pats := []Pattern{pat(0, 1, 200000, 200000, 200000)}
	st := &state{rows: 2000, bound: []bool{true}}
	if j := extend(st, pats, 0).steps[0].Join; j != Bind {
		t.Errorf("without a table: %v join, want bind", j)
	}
	pats[0].Hashed = 1 << 1 // keyed on the subject (position 0)
	if j := extend(st, pats, 0).steps[0].Join; j != Hash {
		t.Errorf("with the table built: %v join, want hash", j)
	}
}

// TestOrderFromInputRows plans a check of a bound ?x against a
// 5000-row pattern: run for one input row it seeks, run for 100000 it
// hashes (one scan serves every run); the cost grows with the rows.
func TestOrderFromInputRows(t *testing.T) {
	pats := []Pattern{pat(0, -1, 5000, 5000, 1)}
	bound := []bool{true}
	one, _ := OrderFrom(context.Background(), pats, bound, 1)
	many, _ := OrderFrom(context.Background(), pats, bound, 100000)
	if one[0].Join != Bind || many[0].Join != Hash {
		t.Fatalf("joins %v for one row, %v for 100000; want bind, hash", one[0].Join, many[0].Join)
	}
	if !(one[0].Cost > 0 && many[0].Cost > one[0].Cost) {
		t.Errorf("costs %v for one row, %v for 100000", one[0].Cost, many[0].Cost)
	}
	if got := Order(pats, bound); got[0] != one[0] {
		t.Errorf("Order %+v, OrderFrom with one row %+v", got[0], one[0])
	}
}

// TestOrderStopsWhenCancelled plans a chain of patterns too long for the
// exhaustive search under a cancelled context: the planner gives up with
// the context's error rather than finishing the greedy search.
func TestOrderStopsWhenCancelled(t *testing.T) {
	var pats []Pattern
	for i := range 200 {
		pats = append(pats, pat(i, i+1, 1000, 100, 100))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if steps, err := OrderFrom(ctx, pats, nil, 1); !errors.Is(err, context.Canceled) || steps != nil {
		t.Fatalf("cancelled planning returned %d steps, err %v; want none and context.Canceled", len(steps), err)
	}
	steps, err := OrderFrom(context.Background(), pats, nil, 1)
	if err != nil || len(steps) != len(pats) {
		t.Fatalf("planning returned %d steps, err %v; want %d", len(steps), err, len(pats))
	}
}
