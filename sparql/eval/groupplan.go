package eval

import (
	"math"

	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/optimize"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// The operands of a group — its basic graph pattern, OPTIONALs, UNIONs,
// subqueries, VALUES — are joined in the order and by the join the
// estimates find cheapest, not in the order of the query: an operand is
// evaluated first and the other looked up per row of it (bind), which
// needs the other to be seedSafe, or both are evaluated and the smaller
// hashed (hash).

// seedSafe reports whether opening op with a row's bindings as its seed
// equals joining op's solutions with the row: patterns, inline data, and
// joins and unions of them. A filter, OPTIONAL or MINUS could see the
// seed's bindings where a join would not.
func seedSafe(op algebra.Op) bool {
	switch x := op.(type) {
	case *algebra.BGP, *algebra.Path, *algebra.Table:
		return true
	case *algebra.Join:
		return seedSafe(x.Left) && seedSafe(x.Right)
	case *algebra.Union:
		return seedSafe(x.Left) && seedSafe(x.Right)
	}
	return false
}

// seedSafeWith reports whether opening op with a seed row that binds
// some of seedVars equals joining op's solutions with the row, for an
// op that is not seedSafe: OPTIONALs, filters and unions of patterns
// whose variables the seed may bind are all bound in every solution of
// op (CertainVars). Seeding such a variable then only drops the
// solutions a join would drop: no OPTIONAL's part and no filter sees a
// binding it would not have seen (a variable an optional part or a
// filter uses alone is never one the seed binds).
func seedSafeWith(op algebra.Op, seedVars map[string]bool) bool {
	if seedSafe(op) {
		return true
	}
	used := map[string]bool{}
	if !seedKinds(op, used) {
		return false
	}
	certain := optimize.CertainVars(op)
	for v := range used {
		if seedVars[v] && !certain[v] {
			return false
		}
	}
	return true
}

// seedKinds reports whether op is built of patterns, joins, unions,
// OPTIONALs and filters without EXISTS, adding the variables it uses
// (in patterns and expressions) to used.
func seedKinds(op algebra.Op, used map[string]bool) bool {
	exprVars := func(e syntax.Expr) bool {
		if e == nil {
			return true
		}
		ok := true
		syntax.WalkExpr(e, func(x syntax.Expr) bool {
			switch v := x.(type) {
			case *syntax.Var:
				used[v.Name] = true
			case *algebra.Exists:
				ok = false
			}
			return ok
		})
		return ok
	}
	switch x := op.(type) {
	case *algebra.BGP, *algebra.Path, *algebra.Table:
		for v := range optimize.PossibleVars(op) {
			used[v] = true
		}
		return true
	case *algebra.Join:
		return seedKinds(x.Left, used) && seedKinds(x.Right, used)
	case *algebra.Union:
		return seedKinds(x.Left, used) && seedKinds(x.Right, used)
	case *algebra.LeftJoin:
		return seedKinds(x.Left, used) && seedKinds(x.Right, used) && exprVars(x.Expr)
	case *algebra.Filter:
		for _, e := range x.Exprs {
			if !exprVars(e) {
				return false
			}
		}
		return seedKinds(x.Sub, used)
	}
	return false
}

// joinPlan is one way to join two operands.
type joinPlan struct {
	first, second algebra.Op
	bind          bool
	// keys, when set, are the group keys of second (a grouped
	// subquery) seeded from each row of first (keyjoin.go).
	keys []int
	cost float64
}

func (c *compiler) compileJoin(x *algebra.Join, bound []bool) (node, error) {
	jp, err := c.planJoin(x, bound)
	if err != nil {
		return nil, err
	}
	l, err := c.compile(jp.first, bound)
	if err != nil {
		return nil, err
	}
	if jp.first != x.Left {
		// EXPLAIN shows the operands in the order they run.
		c.rewrites[x] = &algebra.Join{Left: jp.first, Right: jp.second}
	} else {
		delete(c.rewrites, x)
	}
	if jp.keys != nil {
		r, err := c.compile(jp.second, withSlots(bound, jp.keys))
		if err != nil {
			return nil, err
		}
		return &keySeedJoinNode{left: l, right: r, keys: jp.keys}, nil
	}
	if jp.bind {
		r, err := c.compile(jp.second, c.certain(jp.first, bound))
		if err != nil {
			return nil, err
		}
		return &bindJoinNode{left: l, right: r}, nil
	}
	r, err := c.compile(jp.second, bound)
	if err != nil {
		return nil, err
	}
	return &hashJoinNode{left: l, right: r, keys: c.sharedKeys(jp.first, jp.second)}, nil
}

// planJoin chooses how to join x's operands: each seedSafe operand looked
// up per row of the other, or both evaluated and the one with fewer rows
// hashed (the hash join holds its right side). Without estimates it
// keeps the rule of thumb: a pure operand is looked up per row of the
// other, else hash.
func (c *compiler) planJoin(x *algebra.Join, bound []bool) (joinPlan, error) {
	sides := [2]algebra.Op{x.Left, x.Right}
	var cost, rows [2]float64
	for i, s := range sides {
		var err error
		if cost[i], rows[i], err = c.measure(s, bound); err != nil {
			return joinPlan{}, err
		}
	}
	if rows[0] < 0 || rows[1] < 0 {
		if pure(x.Left) && !pure(x.Right) {
			return joinPlan{first: x.Right, second: x.Left, bind: true}, nil
		}
		return joinPlan{first: x.Left, second: x.Right, bind: pure(x.Right)}, nil
	}
	small, large := 1, 0
	if rows[0] < rows[1] {
		small, large = 0, 1
	}
	best := joinPlan{first: sides[large], second: sides[small],
		cost: cost[0] + cost[1] + rows[small]*buildCost + rows[large]*probeCost}
	for i := range 2 {
		if !seedSafeWith(sides[1-i], optimize.PossibleVars(sides[i])) {
			continue
		}
		per, _, err := c.measure(sides[1-i], c.certain(sides[i], bound))
		if err != nil {
			return joinPlan{}, err
		}
		if bc := cost[i] + math.Max(rows[i], 1)*per; bc <= best.cost {
			best = joinPlan{first: sides[i], second: sides[1-i], bind: true, cost: bc}
		}
	}
	for i := range 2 {
		keys := c.groupKeys(sides[1-i], optimize.PossibleVars(sides[i]))
		if keys == nil || noKeySeed {
			continue
		}
		per, _, err := c.measure(sides[1-i], withSlots(bound, keys))
		if err != nil {
			return joinPlan{}, err
		}
		if bc := cost[i] + math.Max(rows[i], 1)*per; bc < best.cost {
			best = joinPlan{first: sides[i], second: sides[1-i], keys: keys, cost: bc}
		}
	}
	return best, nil
}

// withSlots is bound with slots set as well.
func withSlots(bound []bool, slots []int) []bool {
	out := append([]bool(nil), bound...)
	for _, s := range slots {
		for len(out) <= s {
			out = append(out, false)
		}
		out[s] = true
	}
	return out
}

// compileLeftJoin compiles OPTIONAL: a pure optional part is looked up
// per left row, or evaluated once and hashed when the estimates find
// that cheaper; any other is hashed.
func (c *compiler) compileLeftJoin(x *algebra.LeftJoin, bound []bool) (node, error) {
	l, err := c.compile(x.Left, bound)
	if err != nil {
		return nil, err
	}
	lj := &leftJoinNode{left: l}
	rb := bound
	if pure(x.Right) || seedSafeWith(x.Right, optimize.PossibleVars(x.Left)) {
		perRow := c.certain(x.Left, bound)
		hash, err := c.hashCheaper(x.Right, c.leftRows(x.Left), bound, perRow, false)
		if err != nil {
			return nil, err
		}
		if !hash {
			lj.bind, rb = true, perRow
		}
	}
	if !lj.bind {
		lj.keys = c.sharedKeys(x.Left, x.Right)
	}
	if lj.right, err = c.compile(x.Right, rb); err != nil {
		return nil, err
	}
	if x.Expr != nil {
		if lj.filter, err = c.expr(x.Expr, c.certain(x.Right, rb)); err != nil {
			return nil, err
		}
	}
	if h := c.compileLeftHash(x, lj); h != nil {
		return h, nil
	}
	return lj, nil
}
