package optimize

import (
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/expr"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// volatile functions give a new value per call (or, for NOW, per query
// execution rather than per optimization), so they are never folded.
var volatile = map[string]bool{"RAND": true, "NOW": true, "UUID": true, "STRUUID": true, "BNODE": true}

// FoldConstants evaluates the sub-expressions that read no variable once,
// at planning time, and simplifies what they decide: a FILTER whose
// conditions are all true disappears, one with a false condition becomes
// the empty table, IF with a constant condition becomes its branch, and
// true || x and false && x become their constant. Sub-expressions whose
// evaluation fails stay as they are, failing for every solution at run
// time as the query says. It does not modify op.
func FoldConstants(op algebra.Op) algebra.Op {
	f := &folder{ctx: expr.NewContext()}
	return f.op(op)
}

type folder struct{ ctx *expr.Context }

func (f *folder) op(op algebra.Op) algebra.Op {
	return rewrite(op, func(op algebra.Op) algebra.Op {
		switch x := op.(type) {
		case *algebra.Filter:
			var keep []syntax.Expr
			for _, e := range x.Exprs {
				e = f.expr(e)
				if b, ok := constEBV(e); ok {
					if !b {
						return &algebra.Table{}
					}
					continue
				}
				keep = append(keep, e)
			}
			if len(keep) == 0 {
				return x.Sub
			}
			x.Exprs = keep
		case *algebra.LeftJoin:
			if x.Expr != nil {
				x.Expr = f.expr(x.Expr)
				if b, ok := constEBV(x.Expr); ok && b {
					x.Expr = nil
				}
			}
		case *algebra.Extend:
			x.Expr = f.expr(x.Expr)
		case *algebra.Group:
			keys := make([]algebra.GroupKey, len(x.Keys))
			for i, k := range x.Keys {
				keys[i] = algebra.GroupKey{Var: k.Var, Expr: f.expr(k.Expr)}
			}
			aggs := make([]algebra.AggBinding, len(x.Aggs))
			for i, a := range x.Aggs {
				agg := *a.Agg
				agg.Arg = f.expr(a.Agg.Arg)
				aggs[i] = algebra.AggBinding{Var: a.Var, Agg: &agg}
			}
			x.Keys, x.Aggs = keys, aggs
		case *algebra.OrderBy:
			conds := make([]syntax.OrderCond, len(x.Conds))
			for i, c := range x.Conds {
				conds[i] = syntax.OrderCond{Expr: f.expr(c.Expr), Desc: c.Desc}
			}
			x.Conds = conds
		}
		return op
	})
}

// expr returns e with its constant sub-expressions folded.
func (f *folder) expr(e syntax.Expr) syntax.Expr {
	switch x := e.(type) {
	case *syntax.Call:
		args := f.exprs(x.Args)
		switch x.Op {
		case "||", "&&":
			// true || x is true and false && x is false even when x fails.
			decisive := x.Op == "||"
			for _, a := range args {
				if b, ok := constEBV(a); ok && b == decisive {
					return boolConst(decisive)
				}
			}
		case "IF":
			if b, ok := constEBV(args[0]); ok {
				if b {
					return args[1]
				}
				return args[2]
			}
		}
		call := &syntax.Call{Op: x.Op, Args: args}
		if volatile[x.Op] || x.Op == "BOUND" {
			return call
		}
		return f.eval(call, args)
	case *syntax.FuncCall:
		args := f.exprs(x.Args)
		return f.eval(&syntax.FuncCall{IRI: x.IRI, Distinct: x.Distinct, Args: args}, args)
	case *algebra.Exists:
		return &algebra.Exists{Not: x.Not, Op: f.op(x.Op)}
	case *syntax.Aggregate:
		agg := *x
		agg.Arg = f.expr(x.Arg)
		return &agg
	}
	return e
}

func (f *folder) exprs(es []syntax.Expr) []syntax.Expr {
	out := make([]syntax.Expr, len(es))
	for i, e := range es {
		out[i] = f.expr(e)
	}
	return out
}

// eval replaces e by its value when all its arguments are constants and
// it evaluates without error.
func (f *folder) eval(e syntax.Expr, args []syntax.Expr) syntax.Expr {
	for _, a := range args {
		if _, ok := a.(*syntax.Const); !ok {
			return e
		}
	}
	c, err := expr.Compile(e, expr.NewScope())
	if err != nil {
		return e // reported when the evaluator compiles the query
	}
	t, err := c.Eval(f.ctx, expr.Row{})
	if err != nil {
		return e
	}
	return &syntax.Const{Term: t}
}

// constEBV returns the effective boolean value of a constant.
func constEBV(e syntax.Expr) (value, ok bool) {
	c, isConst := e.(*syntax.Const)
	if !isConst {
		return false, false
	}
	b, err := expr.EBV(c.Term)
	return b, err == nil
}

func boolConst(b bool) *syntax.Const {
	if b {
		return &syntax.Const{Term: rdf.Literal("true", rdf.XSDBoolean)}
	}
	return &syntax.Const{Term: rdf.Literal("false", rdf.XSDBoolean)}
}
