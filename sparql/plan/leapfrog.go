package plan

import (
	"context"
	"math"
	"slices"
)

// A cyclic pattern — a triangle such as ?x :advisor ?p . ?p :worksFor ?d .
// ?x :memberOf ?d — is what left-deep plans do worst: whichever two
// patterns join first, their result holds every path of the cycle, most
// of which the last pattern then discards, and estimates of that last
// step are far off because the cycle's edges correlate. A leapfrog
// triejoin (Veldhuizen, 2014) binds one variable at a time instead,
// intersecting the sorted values every pattern of the cycle allows for
// it, so no intermediate result exceeds what the data holds (it is
// worst-case optimal). It reads each pattern whole, in the order of the
// variables, which the store's index orderings usually give for free.

// maxLeapfrogVars bounds the variables of a cycle whose orders are all
// tried (n! of them).
const maxLeapfrogVars = 6

// sortFactor is the cost, per quad and in the units of Costs, of sorting
// a pattern whose scan does not come in the variable order.
const sortFactor = 4.0

// stepCost is the cost of one leapfrog step (a comparison or a gallop in
// an in-memory array), in the same units.
const stepCost = 0.5

// Cycle returns the patterns a leapfrog triejoin can join: those with
// two distinct variables (and no graph variable) that lie on a cycle of
// such patterns, in pattern order. It is empty when there is no cycle.
func Cycle(pats []Pattern) []int {
	var core []int
	for i := range pats {
		if _, _, ok := binaryVars(&pats[i]); ok {
			core = append(core, i)
		}
	}
	// The 2-core: drop patterns with a variable no other pattern has
	// until none is left; what remains lies on cycles.
	for changed := true; changed; {
		changed = false
		deg := map[int]int{}
		for _, i := range core {
			a, b, _ := binaryVars(&pats[i])
			deg[a]++
			deg[b]++
		}
		core = slices.DeleteFunc(core, func(i int) bool {
			a, b, _ := binaryVars(&pats[i])
			if deg[a] < 2 || deg[b] < 2 {
				changed = true
				return true
			}
			return false
		})
	}
	return core
}

// binaryVars returns the two variables of a pattern with exactly two
// distinct variables at subject, predicate or object and a constant or
// unconstrained graph.
func binaryVars(p *Pattern) (a, b int, ok bool) {
	if p.Vars[G] >= 0 || p.Sorted < 0 {
		return 0, 0, false
	}
	var vs []int
	for _, v := range p.Vars[:3] {
		if v >= 0 {
			if slices.Contains(vs, v) {
				return 0, 0, false
			}
			vs = append(vs, v)
		}
	}
	if len(vs) != 2 {
		return 0, 0, false
	}
	return vs[0], vs[1], true
}

// LeapfrogVars returns the order in which a leapfrog triejoin of the
// patterns core binds their variables — the cheapest by leapfrogCost —
// and that cost with the estimated rows. Nil when core has more than
// maxLeapfrogVars variables.
func LeapfrogVars(pats []Pattern, core []int) (vars []int, cost, rows float64) {
	var all []int
	for _, i := range core {
		a, b, _ := binaryVars(&pats[i])
		for _, v := range []int{a, b} {
			if !slices.Contains(all, v) {
				all = append(all, v)
			}
		}
	}
	if len(all) > maxLeapfrogVars || len(core) == 0 {
		return nil, 0, 0
	}
	slices.Sort(all)
	cost = math.Inf(1)
	permute(all, 0, func(order []int) {
		if c, r := leapfrogCost(pats, core, order); c < cost {
			vars, cost, rows = slices.Clone(order), c, r
		}
	})
	return vars, cost, rows
}

// permute calls f with every permutation of vs[k:] (after vs[:k]), in a
// fixed order.
func permute(vs []int, k int, f func([]int)) {
	if k == len(vs) {
		f(vs)
		return
	}
	for i := k; i < len(vs); i++ {
		vs[k], vs[i] = vs[i], vs[k]
		permute(vs, k+1, f)
		vs[k], vs[i] = vs[i], vs[k]
	}
}

// leapfrogCost estimates reading the patterns (sorting those whose scan
// is not sorted on the earlier of their two variables in order) and the
// intersections: at each variable, every row bound so far runs through
// the candidates of the pattern with the fewest, and each other pattern
// keeps a candidate with the chance that it holds the value.
func leapfrogCost(pats []Pattern, core []int, order []int) (cost, rows float64) {
	rank := map[int]int{}
	for i, v := range order {
		rank[v] = i
	}
	for _, i := range core {
		p := &pats[i]
		a, b, _ := binaryVars(p)
		if rank[b] < rank[a] {
			a = b
		}
		cost += seekCost + p.Card
		if p.Sorted != a {
			cost += p.Card * sortFactor
		}
	}
	rows = 1
	for _, v := range order {
		var cands, shares []float64
		least := 0
		for _, i := range core {
			p := &pats[i]
			a, b, _ := binaryVars(p)
			if v != a && v != b {
				continue
			}
			other := a + b - v
			dv, do := p.Distinct[posOf(p, v)], p.Distinct[posOf(p, other)]
			cand, share := dv, 1.0 // the earlier variable: all its values
			if rank[other] < rank[v] {
				cand = math.Max(p.Card/do, 1)
				share = math.Min(cand/dv, 1)
			}
			if len(cands) > 0 && cand < cands[least] {
				least = len(cands)
			}
			cands, shares = append(cands, cand), append(shares, share)
		}
		keep := cands[least]
		for j, s := range shares {
			if j != least {
				keep *= s
			}
		}
		cost += rows * cands[least] * stepCost * float64(len(cands))
		rows *= keep
	}
	return cost + rows, rows
}

// posOf is the position of variable v in p.
func posOf(p *Pattern, v int) int {
	for k, x := range p.Vars {
		if x == v {
			return k
		}
	}
	return -1
}

// leapfrog plans pats with the cycle joined by a leapfrog triejoin first,
// the remaining patterns after it, or returns nil when there is no cycle
// or its variables are bound before the first step.
func leapfrog(ctx context.Context, pats []Pattern, start *state) (*state, error) {
	core := Cycle(pats)
	if len(core) < 2 || start.rows > 1 {
		return nil, nil
	}
	for _, i := range core {
		if connected(&pats[i], start.bound) {
			return nil, nil
		}
	}
	vars, cost, rows := LeapfrogVars(pats, core)
	if vars == nil {
		return nil, nil
	}
	st := &state{cost: start.cost + cost, rows: rows, outer: true}
	st.bound = slices.Clone(start.bound)
	for _, i := range core {
		st.steps = append(st.steps, Step{Pattern: i, Join: Leapfrog, Rows: rows, Cost: st.cost})
		for _, v := range pats[i].Vars {
			if v >= 0 {
				for len(st.bound) <= v {
					st.bound = append(st.bound, false)
				}
				st.bound[v] = true
			}
		}
	}
	var rest []Pattern
	var index []int
	for i := range pats {
		if !slices.Contains(core, i) {
			rest, index = append(rest, pats[i]), append(index, i)
		}
	}
	if len(rest) == 0 {
		return st, nil
	}
	var tail []Step
	if len(rest) <= exhaustiveLimit {
		tail = exhaustive(rest, st)
	} else {
		var err error
		if tail, err = greedy(ctx, rest, st); err != nil {
			return nil, err
		}
	}
	// The tail's steps start with the cycle's (carried in st).
	tail = tail[len(core):]
	for _, s := range tail {
		s.Pattern = index[s.Pattern]
		st.steps = append(st.steps, s)
	}
	last := st.steps[len(st.steps)-1]
	st.cost, st.rows = last.Cost, last.Rows
	return st, nil
}
