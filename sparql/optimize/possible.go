package optimize

import (
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// PossibleVars returns the variables op may bind in some solution: a
// superset of CertainVars. A variable outside it is unbound in every
// solution of op, so a pattern sharing no variable with it is
// independent of op's solutions.
func PossibleVars(op algebra.Op) map[string]bool {
	set := map[string]bool{}
	addNode := func(n syntax.Node) {
		if n.IsVar() {
			set[n.Var] = true
		}
	}
	add := func(m map[string]bool) {
		for v := range m {
			set[v] = true
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
	case *algebra.Minus:
		return PossibleVars(x.Left)
	case *algebra.Graph:
		add(PossibleVars(x.Sub))
		addNode(x.Name)
	case *algebra.Service:
		add(PossibleVars(x.Sub))
		addNode(x.Name)
	case *algebra.Extend:
		add(PossibleVars(x.Sub))
		set[x.Var] = true
	case *algebra.Table:
		for _, v := range x.Vars {
			set[v] = true
		}
	case *algebra.Group:
		for _, k := range x.Keys {
			set[k.Var] = true
		}
		for _, a := range x.Aggs {
			set[a.Var] = true
		}
	case *algebra.Project:
		sub := PossibleVars(x.Sub)
		for _, v := range x.Vars {
			if sub[v] {
				set[v] = true
			}
		}
	default:
		for _, c := range algebra.Children(op) {
			add(PossibleVars(c))
		}
	}
	return set
}
