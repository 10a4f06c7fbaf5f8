package optimize

import (
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// CertainVars returns the variables that op binds in every solution it
// produces. Filters can move to where these are bound, and join planners
// use them as join keys.
func CertainVars(op algebra.Op) map[string]bool {
	set := map[string]bool{}
	addNode := func(n syntax.Node) {
		if n.IsVar() {
			set[n.Var] = true
		}
	}
	switch x := op.(type) {
	case *algebra.BGP:
		for _, t := range x.Triples {
			addNode(t.S)
			addNode(t.P)
			addNode(t.O)
		}
	case *algebra.Path:
		addNode(x.S)
		addNode(x.O)
	case *algebra.Join:
		for v := range CertainVars(x.Left) {
			set[v] = true
		}
		for v := range CertainVars(x.Right) {
			set[v] = true
		}
	case *algebra.LeftJoin:
		return CertainVars(x.Left)
	case *algebra.Minus:
		return CertainVars(x.Left)
	case *algebra.Union:
		r := CertainVars(x.Right)
		for v := range CertainVars(x.Left) {
			if r[v] {
				set[v] = true
			}
		}
	case *algebra.Graph:
		set = CertainVars(x.Sub)
		addNode(x.Name)
	case *algebra.Table:
		for i, v := range x.Vars {
			all := true
			for _, row := range x.Rows {
				all = all && !row[i].IsZero()
			}
			if all {
				set[v] = true
			}
		}
	case *algebra.Project:
		sub := CertainVars(x.Sub)
		for _, v := range x.Vars {
			if sub[v] {
				set[v] = true
			}
		}
	case *algebra.Group:
		// A key that is a variable bound in every input solution is
		// bound in every group; with no key the one group may be empty.
		sub := CertainVars(x.Sub)
		for _, k := range x.Keys {
			if v, ok := k.Expr.(*syntax.Var); ok && v.Name == k.Var && sub[v.Name] {
				set[k.Var] = true
			}
		}
	case *algebra.Filter, *algebra.Extend, *algebra.OrderBy, *algebra.Distinct, *algebra.Reduced, *algebra.Slice:
		// An Extend's own variable may stay unbound when its expression
		// fails, so only what the operand binds is certain.
		return CertainVars(algebra.Children(op)[0])
	}
	return set
}
