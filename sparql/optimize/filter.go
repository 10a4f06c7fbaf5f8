// Package optimize rewrites SPARQL algebra into equivalent, cheaper
// algebra before evaluation: constant expressions are folded, filters are
// split into conjuncts and pushed down to the operators that bind their
// variables, and a filter fixing a pattern's variable to one term writes
// the term into the pattern, and OPTIONAL … FILTER(!BOUND(?v)) becomes
// MINUS where that is equivalent. Join ordering from
// store statistics is planned at evaluation, where the statistics are.
package optimize

import (
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// Optimize returns an equivalent operator tree; it does not modify op.
func Optimize(op algebra.Op) algebra.Op {
	return DistinctBeforeOrder(BindConstants(OptionalToMinus(PushFilters(FoldConstants(op)))))
}

// PushFilters moves each conjunct of every FILTER as far down as it stays
// equivalent: below a join or a left join's left side when one side binds
// all its variables in every solution, into both sides of a union, below
// an extend that does not bind its variables, into GRAPH when they do not
// read the graph variable, across a group boundary into a subquery when
// they read only variables it projects (below its ORDER BY and DISTINCT,
// not below a LIMIT) and below its GROUP BY when they fix a variable it
// groups by to one term. Conjuncts with EXISTS or a
// non-deterministic function stay where they are, since their value
// depends on where they are evaluated.
func PushFilters(op algebra.Op) algebra.Op {
	return rewrite(op, func(op algebra.Op) algebra.Op {
		f, ok := op.(*algebra.Filter)
		if !ok {
			return op
		}
		return pushInto(f.Sub, conjuncts(f.Exprs))
	})
}

// rewrite rebuilds op bottom-up, applying fn to every rebuilt node.
func rewrite(op algebra.Op, fn func(algebra.Op) algebra.Op) algebra.Op {
	r := func(o algebra.Op) algebra.Op { return rewrite(o, fn) }
	return fn(algebra.MapChildren(op, r))
}

// conjuncts splits && so that each part can move on its own: a solution
// passes A && B exactly when it passes A and passes B, errors included.
func conjuncts(es []syntax.Expr) []syntax.Expr {
	var out []syntax.Expr
	for _, e := range es {
		if c, ok := e.(*syntax.Call); ok && c.Op == "&&" {
			out = append(out, conjuncts(c.Args)...)
			continue
		}
		out = append(out, e)
	}
	return out
}

// pushInto places the filter expressions es over op, as deep as allowed.
func pushInto(op algebra.Op, es []syntax.Expr) algebra.Op {
	if len(es) == 0 {
		return op
	}
	var keep []syntax.Expr
	switch x := op.(type) {
	case *algebra.Filter:
		return pushInto(x.Sub, append(conjuncts(x.Exprs), es...))
	case *algebra.Join:
		var left, right []syntax.Expr
		lv, rv := CertainVars(x.Left), CertainVars(x.Right)
		for _, e := range es {
			switch {
			case !movable(e):
				keep = append(keep, e)
			case covered(e, lv):
				left = append(left, e)
			case covered(e, rv):
				right = append(right, e)
			default:
				keep = append(keep, e)
			}
		}
		op = &algebra.Join{Left: pushInto(x.Left, left), Right: pushInto(x.Right, right)}
	case *algebra.LeftJoin:
		var left []syntax.Expr
		lv := CertainVars(x.Left)
		for _, e := range es {
			if movable(e) && covered(e, lv) {
				left = append(left, e)
			} else {
				keep = append(keep, e)
			}
		}
		op = &algebra.LeftJoin{Left: pushInto(x.Left, left), Right: x.Right, Expr: x.Expr}
	case *algebra.Minus:
		// Minus returns left solutions unchanged, so any filter can act first.
		return &algebra.Minus{Left: pushInto(x.Left, es), Right: x.Right}
	case *algebra.Union:
		// Union returns each side's solutions unchanged.
		return &algebra.Union{Left: pushInto(x.Left, es), Right: pushInto(x.Right, es)}
	case *algebra.Extend:
		var below []syntax.Expr
		for _, e := range es {
			if movable(e) && !exprVars(e)[x.Var] {
				below = append(below, e)
			} else {
				keep = append(keep, e)
			}
		}
		op = &algebra.Extend{Sub: pushInto(x.Sub, below), Var: x.Var, Expr: x.Expr}
	case *algebra.Graph:
		// Inside GRAPH the graph variable is not bound yet.
		var inside []syntax.Expr
		for _, e := range es {
			if movable(e) && !(x.Name.IsVar() && exprVars(e)[x.Name.Var]) {
				inside = append(inside, e)
			} else {
				keep = append(keep, e)
			}
		}
		op = &algebra.Graph{Name: x.Name, Sub: pushInto(x.Sub, inside)}
	case *algebra.Project:
		// A subquery: its projected variables have the same values
		// below the projection.
		var below []syntax.Expr
		proj := map[string]bool{}
		for _, v := range x.Vars {
			proj[v] = true
		}
		for _, e := range es {
			if movable(e) && covered(e, proj) {
				below = append(below, e)
			} else {
				keep = append(keep, e)
			}
		}
		op = &algebra.Project{Sub: pushInto(x.Sub, below), Vars: x.Vars}
	case *algebra.OrderBy:
		// Filtering keeps the order of the solutions it keeps.
		return &algebra.OrderBy{Sub: pushInto(x.Sub, es), Conds: x.Conds}
	case *algebra.Distinct:
		// A filter reads only the solution, so duplicates pass or fail
		// together.
		return &algebra.Distinct{Sub: pushInto(x.Sub, es)}
	case *algebra.Reduced:
		return &algebra.Reduced{Sub: pushInto(x.Sub, es)}
	case *algebra.Group:
		// A condition on plain-variable keys is the same for every
		// solution of a group: filtering the solutions keeps or drops
		// whole groups. Without keys the one group exists even when
		// empty, so nothing moves. Only a condition fixing a key to one
		// term moves (a pattern then reads that term only): any other
		// would be evaluated per solution instead of per group.
		var below []syntax.Expr
		keys := map[string]bool{}
		for _, k := range x.Keys {
			if v, ok := k.Expr.(*syntax.Var); ok && v.Name == k.Var {
				keys[k.Var] = true
			}
		}
		for _, e := range es {
			if _, _, fixed := fixes(e); fixed && len(keys) > 0 && covered(e, keys) {
				below = append(below, e)
			} else {
				keep = append(keep, e)
			}
		}
		op = &algebra.Group{Sub: pushInto(x.Sub, below), Keys: x.Keys, Aggs: x.Aggs}
	default:
		keep = es
	}
	if len(keep) == 0 {
		return op
	}
	return &algebra.Filter{Exprs: keep, Sub: op}
}

// nonDeterministic functions give a new value at each call, so moving
// them changes how often they are called.
var nonDeterministic = map[string]bool{"RAND": true, "BNODE": true, "UUID": true, "STRUUID": true}

// movable reports whether e may be evaluated at another place in the
// tree: no EXISTS (it reads the whole current solution) and no
// non-deterministic function.
func movable(e syntax.Expr) bool {
	ok := true
	syntax.WalkExpr(e, func(x syntax.Expr) bool {
		switch x := x.(type) {
		case *algebra.Exists:
			ok = false
		case *syntax.Call:
			if nonDeterministic[x.Op] {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// covered reports whether every variable of e is in vars.
func covered(e syntax.Expr, vars map[string]bool) bool {
	for v := range exprVars(e) {
		if !vars[v] {
			return false
		}
	}
	return true
}

// exprVars returns the variables e reads (not those inside EXISTS).
func exprVars(e syntax.Expr) map[string]bool {
	set := map[string]bool{}
	syntax.WalkExpr(e, func(x syntax.Expr) bool {
		if v, ok := x.(*syntax.Var); ok {
			set[v.Name] = true
		}
		return true
	})
	return set
}
