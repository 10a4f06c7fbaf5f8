// Package plan orders the triple patterns of a basic graph pattern by
// estimated cost and picks the physical join of each step (index
// nested-loop, hash or merge join): exhaustive dynamic programming over
// subsets for small patterns, greedy by selectivity beyond. A cycle of
// patterns may instead be joined first by a leapfrog triejoin when that is
// cheaper (see leapfrog.go). A pattern run
// once per input row of something else is planned for all those rows
// together (OrderFrom). It works on numbers only (cardinalities and
// distinct-value counts the evaluator takes from the store statistics),
// so plans can be tested without a store.
package plan

import (
	"context"
	"math"
	"math/bits"
)

// Positions of a quad pattern.
const (
	S = iota
	P
	O
	G
)

// Pattern is one triple (quad) pattern as the planner sees it.
type Pattern struct {
	// Vars holds the variable number at each position, -1 for a constant
	// or an unconstrained graph.
	Vars [4]int
	// Card is the estimated number of matching quads with only the
	// constants bound.
	Card float64
	// Distinct is the estimated number of distinct values at each
	// variable position among those quads: binding that variable divides
	// the matches by it.
	Distinct [4]float64
	// Sorted is the variable a scan of the pattern (constants bound)
	// returns its quads sorted by, or -1: two patterns sorted on the
	// same variable can be merge-joined.
	Sorted int
	// Hashed has bit m set when a hash table of the pattern keyed on the
	// positions of mask m (bit i for position i) is already built, by
	// an earlier pattern of the query: a hash join on it costs probes
	// only.
	Hashed uint16
	// Path marks a property path between the subject and object
	// positions: its matches come from a walk that seeks once per node
	// it reaches, not from a range scan, so each costs a seek; it is
	// never merge- or leapfrog-joined (Sorted is -1).
	Path bool
}

// Join is the physical join of one step with the rows before it.
type Join uint8

const (
	// Bind is an index nested-loop join: one scan per input row with the
	// bound variables as the scan prefix.
	Bind Join = iota
	// Hash scans the pattern once, builds a hash table on the join
	// variables and probes it with each input row.
	Hash
	// Merge scans the first pattern and this one side by side, both
	// sorted on their shared variable, skipping ahead with seeks (a
	// zig-zag merge join); only the second step of a plan can be one.
	Merge
	// Leapfrog joins the patterns of a cycle at once, a variable at a
	// time (see Cycle); they are the first steps of a plan.
	Leapfrog
)

func (j Join) String() string {
	switch j {
	case Hash:
		return "hash"
	case Merge:
		return "merge"
	case Leapfrog:
		return "leapfrog"
	}
	return "bind"
}

// Step is one pattern of the plan.
type Step struct {
	Pattern int
	Join    Join
	// Rows is the estimated number of rows after this step.
	Rows float64
	// Cost is the estimated cost of the plan up to this step.
	Cost float64
}

// exhaustiveLimit is the largest pattern count planned by dynamic
// programming over all subsets (2^n states, n transitions each).
const exhaustiveLimit = 10

// Costs, in units of reading one quad of a range scan (about 0.1 µs on
// Pebble with warm caches), measured on LUBM: a seek to a random key costs
// about 25 such reads (fewer when the seeks come in key order); inserting
// a quad in a hash table about one more read; a probe half of one.
const (
	seekCost        = 20.0
	hashBuildFactor = 2.0
	probeCost       = 0.5
)

// Order returns the steps of the cheapest plan for pats — left-deep, or a
// leapfrog triejoin of a cycle followed by left-deep steps — given
// the variables bound before the first step (bound[v] for variable v; it
// may be shorter than the variable count). Cartesian products are only
// taken when no remaining pattern shares a variable with the bound ones.
func Order(pats []Pattern, bound []bool) []Step {
	steps, _ := OrderFrom(context.Background(), pats, bound, 1)
	return steps
}

// OrderFrom is Order for a pattern run once per input row, rows times in
// all: a table built for a hash join then serves every run, so that
// plans with many input rows hash where one input row would seek.
// Planning a large pattern takes time, so it stops with the context's
// error when ctx is done.
func OrderFrom(ctx context.Context, pats []Pattern, bound []bool, rows float64) ([]Step, error) {
	if len(pats) == 0 {
		return nil, nil
	}
	steps, err := LeftDeep(ctx, pats, bound, rows)
	if err != nil || len(steps) == 0 {
		return nil, err
	}
	lf, err := leapfrog(ctx, pats, &state{rows: math.Max(rows, 1), bound: bound})
	if err != nil {
		return nil, err
	}
	if lf != nil && lf.cost < steps[len(steps)-1].Cost {
		return lf.steps, nil
	}
	return steps, nil
}

// LeftDeep is OrderFrom without the leapfrog triejoin.
func LeftDeep(ctx context.Context, pats []Pattern, bound []bool, rows float64) ([]Step, error) {
	if len(pats) == 0 {
		return nil, nil
	}
	start := &state{rows: math.Max(rows, 1), bound: bound}
	if len(pats) <= exhaustiveLimit {
		return exhaustive(pats, start), nil
	}
	return greedy(ctx, pats, start)
}

// state is a set of patterns already joined.
type state struct {
	cost, rows float64
	steps      []Step
	bound      []bool
	outer      bool // variables were bound before the first step
}

func isBound(b []bool, v int) bool { return v >= 0 && v < len(b) && b[v] }

// connected reports whether p shares a variable with the bound ones.
func connected(p *Pattern, bound []bool) bool {
	for _, v := range p.Vars {
		if isBound(bound, v) {
			return true
		}
	}
	return false
}

// extend joins pattern i to st, choosing the cheaper physical join.
func extend(st *state, pats []Pattern, i int) *state {
	p := &pats[i]
	join, cost, rows := score(st, pats, i)
	nb := make([]bool, max(len(st.bound), maxVar(p)+1))
	copy(nb, st.bound)
	for _, v := range p.Vars {
		if v >= 0 {
			nb[v] = true
		}
	}
	steps := append(append([]Step(nil), st.steps...), Step{Pattern: i, Join: join, Rows: rows, Cost: st.cost + cost})
	joinVars := connected(p, st.bound)
	return &state{cost: st.cost + cost, rows: rows, steps: steps, bound: nb, outer: st.outer || joinVars && len(st.steps) == 0}
}

// score is the cheaper physical join of pattern i with st, its cost and
// the rows after it, without building the extended state.
func score(st *state, pats []Pattern, i int) (join Join, cost, rows float64) {
	p := &pats[i]
	sel := 1.0
	joinVars := false
	keyMask := 0
	for pos, v := range p.Vars {
		if isBound(st.bound, v) {
			sel /= math.Max(p.Distinct[pos], 1)
			joinVars = true
			keyMask |= 1 << pos
		}
	}
	rows = math.Max(st.rows*p.Card*sel, 0)
	perMatch := 1.0
	if p.Path {
		perMatch = seekCost
	}
	join, cost = Bind, st.rows*seekCost+rows*perMatch
	if joinVars && st.rows > 1 {
		build := seekCost + p.Card*(hashBuildFactor-1+perMatch)
		if p.Hashed&(1<<keyMask) != 0 {
			build = 0
		}
		if hashCost := build + st.rows*probeCost + rows; hashCost < cost {
			join, cost = Hash, hashCost
		}
		if mergeable(st, pats, i) {
			if mergeCost := seekCost + p.Card + rows; mergeCost < cost {
				join, cost = Merge, mergeCost
			}
		}
	}
	return join, cost, rows
}

// mergeable reports whether pattern i can be merge-joined as the second
// step: the first step scanned a pattern sorted on the variable pattern i
// is sorted on, and nothing was bound before it.
func mergeable(st *state, pats []Pattern, i int) bool {
	if len(st.steps) != 1 || st.outer {
		return false
	}
	v := pats[i].Sorted
	return v >= 0 && pats[st.steps[0].Pattern].Sorted == v
}

func maxVar(p *Pattern) int {
	m := -1
	for _, v := range p.Vars {
		m = max(m, v)
	}
	return m
}

// candidates lists the patterns not in used that may come next: those
// connected to the bound variables, or all of them when none is.
func candidates(pats []Pattern, used uint32, bound []bool) []int {
	var conn, all []int
	for i := range pats {
		if used&(1<<i) != 0 {
			continue
		}
		all = append(all, i)
		if connected(&pats[i], bound) {
			conn = append(conn, i)
		}
	}
	if len(conn) > 0 {
		return conn
	}
	return all
}

func exhaustive(pats []Pattern, start *state) []Step {
	n := len(pats)
	best := make([]*state, 1<<n)
	best[0] = start
	// Subsets in order of size so that every predecessor is final.
	order := make([]uint32, 0, 1<<n)
	for k := 0; k <= n; k++ {
		for s := uint32(0); s < 1<<n; s++ {
			if bits.OnesCount32(s) == k {
				order = append(order, s)
			}
		}
	}
	for _, s := range order {
		st := best[s]
		if st == nil {
			continue
		}
		for _, i := range candidates(pats, s, st.bound) {
			next := extend(st, pats, i)
			t := s | 1<<i
			if best[t] == nil || next.cost < best[t].cost {
				best[t] = next
			}
		}
	}
	return best[1<<n-1].steps
}

// greedy takes, at each step, the connected pattern giving the fewest
// rows (then the lowest cost). It is quadratic in the pattern count, so
// it checks ctx as it goes.
func greedy(ctx context.Context, pats []Pattern, start *state) ([]Step, error) {
	st := start
	used := make([]bool, len(pats))
	for range pats {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pi := -1
		var pickCost, pickRows float64
		anyConnected := hasConnected(pats, used, st.bound)
		for i := range pats {
			if used[i] {
				continue
			}
			if anyConnected && !connected(&pats[i], st.bound) {
				continue
			}
			_, cost, rows := score(st, pats, i)
			if pi < 0 || rows < pickRows || rows == pickRows && cost < pickCost {
				pi, pickCost, pickRows = i, cost, rows
			}
		}
		st = extend(st, pats, pi)
		used[pi] = true
	}
	return st.steps, nil
}

func hasConnected(pats []Pattern, used []bool, bound []bool) bool {
	for i := range pats {
		if !used[i] && connected(&pats[i], bound) {
			return true
		}
	}
	return false
}
