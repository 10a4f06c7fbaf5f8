package eval

import (
	"fmt"
	"strconv"

	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/plan"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// Explain prints the plan as algebra with a note column: each basic graph
// pattern appears as the left-deep chain of joins it runs as, in the
// chosen order, and every operator shows its estimated rows (est, where
// the planner made one), the rows it actually produced (rows, over all
// its openings; 0 before the plan runs) and the physical join.
func (p *Plan) Explain() string {
	notes := map[algebra.Op]*Stats{}
	tree := p.explainOp(p.op, notes)
	return algebra.Format(tree, func(op algebra.Op) string {
		st := notes[op]
		if st == nil {
			return ""
		}
		s := ""
		if st.Est >= 0 {
			s = "est=" + formatEst(st.Est) + " "
		}
		s += "rows=" + strconv.FormatInt(st.Rows, 10)
		if st.Detail != "" {
			s += " " + st.Detail
		}
		return s
	})
}

func formatEst(f float64) string {
	if f >= 10 || f == 0 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return strconv.FormatFloat(f, 'g', 2, 64)
}

// explainOp rebuilds op with its basic graph patterns unfolded into the
// planned join chains, recording each printed operator's statistics.
func (p *Plan) explainOp(op algebra.Op, notes map[algebra.Op]*Stats) algebra.Op {
	r := func(o algebra.Op) algebra.Op { return p.explainOp(o, notes) }
	var out algebra.Op
	if rw := p.rewrites[op]; rw != nil {
		out = r(rw)
		if st := p.stats[op]; st != nil && notes[out] == nil {
			notes[out] = st
		}
		return out
	}
	switch x := op.(type) {
	case *algebra.BGP:
		if bn := p.bgps[x]; bn != nil && len(bn.steps) > 0 {
			return p.unfold(x, bn, notes)
		}
		out = x
	case *algebra.Graph:
		if b, ok := x.Sub.(*algebra.BGP); ok && x.Name.IsVar() && p.bgps[b] != nil && len(p.bgps[b].steps) > 0 {
			out = &algebra.Graph{Name: x.Name, Sub: p.unfold(b, p.bgps[b], notes)}
		} else {
			out = &algebra.Graph{Name: x.Name, Sub: r(x.Sub)}
		}
	default:
		out = algebra.MapChildren(op, r)
	}
	if st := p.stats[op]; st != nil {
		notes[out] = st
	}
	return out
}

// unfold prints a planned BGP as joins in step order; each join carries
// the step's statistics (rows after the step). The patterns of a leapfrog
// triejoin carry the tuples read from each, and the join of the last the
// rows of the triejoin with its variable order.
func (p *Plan) unfold(b *algebra.BGP, bn *bgpNode, notes map[algebra.Op]*Stats) algebra.Op {
	if bn.lf != nil && bn.fellBack {
		bn = bn.alt
	}
	var cur algebra.Op
	for i, s := range bn.steps {
		var leaf algebra.Op
		if k := s.Pattern - len(b.Triples); k >= 0 {
			leaf = bn.paths[k]
		} else {
			leaf = &algebra.BGP{Triples: []syntax.Triple{b.Triples[s.Pattern]}}
		}
		if cur == nil {
			cur = leaf
		} else {
			cur = &algebra.Join{Left: cur, Right: leaf}
		}
		st := *bn.stats[i]
		st.Detail = fmt.Sprintf("%s #%d", st.Detail, i+1)
		if s.Join == plan.Leapfrog {
			notes[leaf] = bn.lf.rels[i].stats
			if i+1 < len(bn.lf.rels) {
				continue
			}
			vars := p.ex.Scope.Vars()
			st.Detail = "leapfrog"
			for _, v := range bn.lf.vars {
				st.Detail += " ?" + vars[v]
			}
		}
		notes[cur] = &st
	}
	return cur
}
