package eval

import (
	"maps"
	"slices"

	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// A union of basic graph patterns that share triples — the open-coded
// form of inference, one branch per combination of subclasses — repeats
// the shared joins in every branch. Join distributes over union
// (A⋈B ∪ A⋈C = A⋈(B ∪ C)), so the shared triples can be joined once and
// each branch's own triples checked per row of them, with every shared
// variable bound. Whether that is cheaper depends on how many rows the
// shared part has, so both forms are planned and the cheaper taken.

// compileUnion compiles a union; branches that are basic graph patterns
// are factored where the planner finds it cheaper.
func (c *compiler) compileUnion(x *algebra.Union, bound []bool) (node, error) {
	var ops []algebra.Op
	var flatten func(op algebra.Op)
	flatten = func(op algebra.Op) {
		if u, ok := op.(*algebra.Union); ok {
			flatten(u.Left)
			flatten(u.Right)
			return
		}
		ops = append(ops, op)
	}
	flatten(x)
	var bgps []*algebra.BGP
	for _, op := range ops {
		b, ok := op.(*algebra.BGP)
		if !ok || len(b.Triples) == 0 {
			bgps = nil
			break
		}
		bgps = append(bgps, b)
	}
	if len(bgps) < 2 {
		l, r, err := c.pair(x.Left, x.Right, bound)
		if err != nil {
			return nil, err
		}
		return &unionNode{left: l, right: r}, nil
	}
	branches := make([]branch, len(bgps))
	for i, b := range bgps {
		branches[i] = branch{triples: b.Triples, op: b}
	}
	n, op, _, err := c.factor(branches, bound, 1)
	if err != nil {
		return nil, err
	}
	c.rewrites[x] = op
	return n, nil
}

// branch is one basic graph pattern of a union: the query's own (op set)
// or what is left of it once shared triples are factored out.
type branch struct {
	triples []syntax.Triple
	op      *algebra.BGP
}

// factor compiles the union of branches, run inRows times with bound
// bound, and returns it with the algebra it runs (for EXPLAIN) and its
// estimated cost.
func (c *compiler) factor(branches []branch, bound []bool, inRows float64) (node, algebra.Op, float64, error) {
	if len(branches) == 1 {
		return c.leaf(branches[0], bound, inRows)
	}
	// The triple most branches share, and the branches sharing it.
	// Triples joined to the bound variables come first: factoring out
	// one that is not would pair every seed row with all its matches.
	counts := map[syntax.Triple]int{}
	best, bestN, bestLinked := syntax.Triple{}, 1, false
	for _, b := range branches {
		for _, t := range uniqueTriples(b.triples) {
			counts[t]++
			linked := c.touches(t, bound)
			if linked && !bestLinked && counts[t] >= 2 || linked == bestLinked && counts[t] > bestN {
				best, bestN, bestLinked = t, counts[t], linked
			}
		}
	}
	if bestN < 2 {
		return c.unionOf(branches, bound, inRows)
	}
	var group, others []branch
	for _, b := range branches {
		if slices.Contains(b.triples, best) {
			group = append(group, b)
		} else {
			others = append(others, b)
		}
	}
	// The triples every branch of the group has and that join with
	// best (or the bound variables) through shared variables.
	var shared []syntax.Triple
	for _, t := range uniqueTriples(group[0].triples) {
		all := true
		for _, b := range group[1:] {
			all = all && slices.Contains(b.triples, t)
		}
		if all {
			shared = append(shared, t)
		}
	}
	common := c.component(best, shared, bound)
	// Plan both forms; each may assume the hash tables it builds, so
	// the planner's record of them is kept only for the one chosen.
	before := maps.Clone(c.hashed)
	whole, wholeOp, wholeCost, err := c.unionOf(group, bound, inRows)
	if err != nil {
		return nil, nil, 0, err
	}
	wholeHashed := c.hashed
	c.hashed = maps.Clone(before)
	n, op, cost, err := c.factored(common, group, bound, inRows)
	if err != nil {
		return nil, nil, 0, err
	}
	if wholeCost <= cost {
		n, op, cost, c.hashed = whole, wholeOp, wholeCost, wholeHashed
	} else {
		for _, b := range group {
			c.forget(b.op)
		}
	}
	if len(others) == 0 {
		return n, op, cost, nil
	}
	rest, restOp, restCost, err := c.factor(others, bound, inRows)
	if err != nil {
		return nil, nil, 0, err
	}
	return &unionNode{left: n, right: rest}, &algebra.Union{Left: op, Right: restOp}, cost + restCost, nil
}

// factored joins common once, then the union of what each branch of
// group has besides, per row of common.
func (c *compiler) factored(common []syntax.Triple, group []branch, bound []bool, inRows float64) (node, algebra.Op, float64, error) {
	left, leftOp, cost, err := c.leaf(branch{triples: common}, bound, inRows)
	if err != nil {
		return nil, nil, 0, err
	}
	shared := c.bgps[leftOp.(*algebra.BGP)]
	if shared == nil || shared.empty {
		return left, leftOp, 0, nil
	}
	_, rows := shared.estimate()
	inner := c.withVars(slices.Clone(bound), common...)
	rest := make([]branch, len(group))
	for i, b := range group {
		for _, t := range b.triples {
			if !slices.Contains(common, t) {
				rest[i].triples = append(rest[i].triples, t)
			}
		}
	}
	right, rightOp, rightCost, err := c.factor(rest, inner, rows)
	if err != nil {
		return nil, nil, 0, err
	}
	op := &algebra.Join{Left: leftOp, Right: rightOp}
	st := &Stats{Est: -1, Detail: "bind"}
	c.stats[op] = st
	return &counted{n: &bindJoinNode{left: left, right: right}, stats: st}, op, cost + rightCost, nil
}

// unionOf compiles each branch whole, or all in one scan when they
// differ only in a constant object (see objectSet).
func (c *compiler) unionOf(branches []branch, bound []bool, inRows float64) (node, algebra.Op, float64, error) {
	if n, op, cost, ok, err := c.objectSet(branches, bound, inRows); err != nil || ok {
		return n, op, cost, err
	}
	var n node
	var op algebra.Op
	var cost float64
	for i := len(branches) - 1; i >= 0; i-- {
		b, bop, bc, err := c.leaf(branches[i], bound, inRows)
		if err != nil {
			return nil, nil, 0, err
		}
		cost += bc
		if n == nil {
			n, op = b, bop
		} else {
			n, op = &unionNode{left: b, right: n}, &algebra.Union{Left: bop, Right: op}
		}
	}
	return n, op, cost, nil
}

// leaf compiles one branch: the query's own pattern through compile (so
// that EXPLAIN shows it), a factored remainder directly.
func (c *compiler) leaf(b branch, bound []bool, inRows float64) (node, algebra.Op, float64, error) {
	if len(b.triples) == 0 {
		return unitNode{}, &algebra.BGP{}, 0, nil
	}
	op := b.op
	if op == nil || inRows != 1 {
		op = &algebra.BGP{Triples: b.triples}
	}
	n, err := c.compileBGPOp(op, bound, inRows)
	if err != nil {
		return nil, nil, 0, err
	}
	var cost float64
	if bn := c.bgps[op]; bn != nil {
		cost, _ = bn.estimate()
	}
	return n, op, cost, nil
}

// forget drops what EXPLAIN would show of a branch compiled but not run.
func (c *compiler) forget(op *algebra.BGP) {
	if op != nil {
		delete(c.stats, op)
		delete(c.bgps, op)
	}
}

// estimate is the planned cost and output rows of the pattern (nothing
// for a pattern with a constant the store lacks).
func (n *bgpNode) estimate() (cost, rows float64) {
	if n.empty || len(n.steps) == 0 {
		return 0, 0
	}
	last := n.steps[len(n.steps)-1]
	return last.Cost, last.Rows
}

// touches reports whether t has a variable bound.
func (c *compiler) touches(t syntax.Triple, bound []bool) bool {
	for _, nd := range [3]syntax.Node{t.S, t.P, t.O} {
		if nd.IsVar() && isBound(bound, c.slot(nd.Var)) {
			return true
		}
	}
	return false
}

// component returns the triples of ts joined to first through shared
// variables, the bound ones joining everything that has them.
func (c *compiler) component(first syntax.Triple, ts []syntax.Triple, bound []bool) []syntax.Triple {
	vars := c.withVars(slices.Clone(bound), first)
	out := []syntax.Triple{first}
	for grew := true; grew; {
		grew = false
		for _, t := range ts {
			if !slices.Contains(out, t) && c.touches(t, vars) {
				out = append(out, t)
				vars = c.withVars(vars, t)
				grew = true
			}
		}
	}
	return out
}

// withVars marks the variables of ts in vars.
func (c *compiler) withVars(vars []bool, ts ...syntax.Triple) []bool {
	for _, t := range ts {
		for _, nd := range [3]syntax.Node{t.S, t.P, t.O} {
			if nd.IsVar() {
				s := c.slot(nd.Var)
				for len(vars) <= s {
					vars = append(vars, false)
				}
				vars[s] = true
			}
		}
	}
	return vars
}

func isBound(b []bool, v int) bool { return v >= 0 && v < len(b) && b[v] }

func uniqueTriples(ts []syntax.Triple) []syntax.Triple {
	var out []syntax.Triple
	for _, t := range ts {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}
