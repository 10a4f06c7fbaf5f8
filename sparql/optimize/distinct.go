package optimize

import "github.com/mneme-archive/mneme/sparql/algebra"

// DistinctBeforeOrder moves a DISTINCT below the ORDER BY of its
// projection when every sort key reads only projected variables (and
// calls nothing non-deterministic): the duplicates of a projected row
// then share its sort keys, so removing them before sorting leaves the
// same sequence — ties kept in the order of first occurrence either way —
// while the sort (or the top-k under a LIMIT) sees only the distinct
// rows, which are often far fewer, and decodes only their terms.
func DistinctBeforeOrder(op algebra.Op) algebra.Op {
	return rewrite(op, func(op algebra.Op) algebra.Op {
		d, ok := op.(*algebra.Distinct)
		if !ok {
			return op
		}
		p, ok := d.Sub.(*algebra.Project)
		if !ok {
			return op
		}
		o, ok := p.Sub.(*algebra.OrderBy)
		if !ok {
			return op
		}
		vars := map[string]bool{}
		for _, v := range p.Vars {
			vars[v] = true
		}
		for _, c := range o.Conds {
			if !movable(c.Expr) || !covered(c.Expr, vars) {
				return op
			}
		}
		return &algebra.OrderBy{Sub: &algebra.Distinct{Sub: &algebra.Project{Sub: o.Sub, Vars: p.Vars}}, Conds: o.Conds}
	})
}
