package optimize

import (
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// OptionalToMinus rewrites the open-coded negation
//
//	L OPTIONAL { R } FILTER(!BOUND(?v))
//
// into L MINUS { R } (with the filter's other conjuncts kept above) when
// ?v is bound in every solution of R and in none of L, and L and R share
// a variable bound in every solution of both. The left join then keeps a
// solution of L alone, ?v unbound, exactly when no solution of R is
// compatible with it, and joins it (binding ?v) otherwise; MINUS keeps
// it under the same condition, since the shared variable makes every
// pair's domains intersect. MINUS is evaluated as an anti-join, which
// neither builds the joined rows nor tests them.
func OptionalToMinus(op algebra.Op) algebra.Op {
	return rewrite(op, func(op algebra.Op) algebra.Op {
		f, ok := op.(*algebra.Filter)
		if !ok {
			return op
		}
		lj, ok := f.Sub.(*algebra.LeftJoin)
		if !ok || lj.Expr != nil {
			return op
		}
		lc, rc := CertainVars(lj.Left), CertainVars(lj.Right)
		shared := false
		for v := range lc {
			shared = shared || rc[v]
		}
		if !shared {
			return op
		}
		lp := PossibleVars(lj.Left)
		es := conjuncts(f.Exprs)
		for i, e := range es {
			v, ok := notBound(e)
			if !ok || !rc[v] || lp[v] {
				continue
			}
			var out algebra.Op = &algebra.Minus{Left: lj.Left, Right: lj.Right}
			rest := append(append([]syntax.Expr(nil), es[:i]...), es[i+1:]...)
			if len(rest) > 0 {
				out = &algebra.Filter{Exprs: rest, Sub: out}
			}
			return out
		}
		return op
	})
}

// notBound returns v when e is !BOUND(?v).
func notBound(e syntax.Expr) (string, bool) {
	c, ok := e.(*syntax.Call)
	if !ok || c.Op != "!" || len(c.Args) != 1 {
		return "", false
	}
	b, ok := c.Args[0].(*syntax.Call)
	if !ok || b.Op != "BOUND" || len(b.Args) != 1 {
		return "", false
	}
	v, ok := b.Args[0].(*syntax.Var)
	if !ok {
		return "", false
	}
	return v.Name, true
}
