package algebra

import (
	"strconv"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// Translate turns a parsed query into the algebra as SPARQL 1.1 §18.2
// specifies: group patterns, then grouping and aggregation, HAVING, VALUES,
// SELECT expressions, ORDER BY, projection, DISTINCT/REDUCED and slicing.
func Translate(q *syntax.Query) *Query {
	t := &translator{}
	out := &Query{
		Form: q.Form, Template: q.Template, Describe: q.Describe,
		From: q.From, FromNamed: q.FromNamed, Base: q.Base, Prefixes: q.Prefixes,
	}
	out.Op = t.query(q)
	if q.Form == syntax.Select {
		out.Vars = syntax.ProjectedVars(q)
	}
	if q.Form == syntax.Describe && q.Star {
		for _, v := range syntax.ProjectedVars(q) {
			out.Describe = append(out.Describe, syntax.VarNode(v))
		}
	}
	return out
}

// translator holds the counters for fresh internal variables.
type translator struct {
	pathVars, aggVars, keyVars int
}

// query translates a query or sub-select to an operator.
func (t *translator) query(q *syntax.Query) Op {
	var op Op = Unit()
	if q.Where != nil {
		op = t.group(q.Where)
	}
	aggs := &aggCollector{t: t, seen: map[string]string{}}
	var g *Group
	if syntax.HasAggregation(q) {
		g = &Group{Sub: op}
		for _, c := range q.GroupBy {
			k := GroupKey{Var: c.Var, Expr: t.expr(c.Expr, nil)}
			if v, ok := c.Expr.(*syntax.Var); ok && c.Var == "" {
				k.Var = v.Name
			} else if k.Var == "" {
				t.keyVars++
				k.Var = ".key" + strconv.Itoa(t.keyVars)
			}
			g.Keys = append(g.Keys, k)
		}
		op = g
		if len(q.Having) > 0 {
			f := &Filter{Sub: op}
			for _, h := range q.Having {
				f.Exprs = append(f.Exprs, t.expr(h, aggs))
			}
			op = f
		}
	}
	if q.Values != nil {
		op = join(op, &Table{Vars: q.Values.Vars, Rows: q.Values.Rows})
	}
	for _, it := range q.Project {
		if it.Expr != nil {
			op = &Extend{Sub: op, Var: it.Var, Expr: t.expr(it.Expr, aggs)}
		}
	}
	if len(q.OrderBy) > 0 {
		o := &OrderBy{Sub: op}
		for _, c := range q.OrderBy {
			o.Conds = append(o.Conds, syntax.OrderCond{Expr: t.expr(c.Expr, aggs), Desc: c.Desc})
		}
		op = o
	}
	if g != nil {
		g.Aggs = aggs.bindings // complete now that all expressions are translated
	}
	if q.Form == syntax.Select {
		op = &Project{Sub: op, Vars: syntax.ProjectedVars(q)}
	}
	switch {
	case q.Distinct:
		op = &Distinct{Sub: op}
	case q.Reduced:
		op = &Reduced{Sub: op}
	}
	if q.Limit >= 0 || q.Offset > 0 {
		op = &Slice{Sub: op, Offset: q.Offset, Limit: q.Limit}
	}
	return op
}

// group translates a group graph pattern (§18.2.2.6).
func (t *translator) group(g *syntax.Group) Op {
	var op Op
	var filters []syntax.Expr
	for _, e := range g.Elems {
		switch x := e.(type) {
		case *syntax.BGP:
			op = join(op, t.triples(x.Triples))
		case *syntax.Filter:
			filters = append(filters, t.expr(x.Expr, nil))
		case *syntax.Optional:
			right := t.group(x.Group)
			lj := &LeftJoin{Left: orUnit(op), Right: right}
			// Only the optional group's own filters become the left
			// join's condition; a filter of a nested group stays there.
			if f, ok := right.(*Filter); ok && hasFilter(x.Group) {
				lj.Right, lj.Expr = f.Sub, and(f.Exprs)
			}
			op = lj
		case *syntax.Minus:
			op = &Minus{Left: orUnit(op), Right: t.group(x.Group)}
		case *syntax.Bind:
			op = &Extend{Sub: orUnit(op), Var: x.Var, Expr: t.expr(x.Expr, nil)}
		case *syntax.Group:
			op = join(op, t.group(x))
		case *syntax.Union:
			var u Op
			for _, sub := range x.Groups {
				if u == nil {
					u = t.group(sub)
				} else {
					u = &Union{Left: u, Right: t.group(sub)}
				}
			}
			op = join(op, u)
		case *syntax.Graph:
			op = join(op, &Graph{Name: x.Name, Sub: t.group(x.Group)})
		case *syntax.Service:
			op = join(op, &Service{Silent: x.Silent, Name: x.Name, Sub: t.group(x.Group)})
		case *syntax.Values:
			op = join(op, &Table{Vars: x.Vars, Rows: x.Rows})
		case *syntax.SubSelect:
			op = join(op, t.query(x.Query))
		}
	}
	op = orUnit(op)
	if len(filters) > 0 {
		op = &Filter{Exprs: filters, Sub: op}
	}
	return op
}

// join joins op (nil for the empty group) with next, merging adjacent
// basic graph patterns.
func join(op, next Op) Op {
	if op == nil || IsUnit(op) {
		return next
	}
	if IsUnit(next) {
		return op
	}
	if a, ok := op.(*BGP); ok {
		if b, ok := next.(*BGP); ok {
			return &BGP{Triples: append(append([]syntax.Triple(nil), a.Triples...), b.Triples...)}
		}
	}
	return &Join{Left: op, Right: next}
}

func hasFilter(g *syntax.Group) bool {
	for _, e := range g.Elems {
		if _, ok := e.(*syntax.Filter); ok {
			return true
		}
	}
	return false
}

func orUnit(op Op) Op {
	if op == nil {
		return Unit()
	}
	return op
}

// and combines filter expressions with &&.
func and(es []syntax.Expr) syntax.Expr {
	e := es[0]
	for _, x := range es[1:] {
		e = &syntax.Call{Op: "&&", Args: []syntax.Expr{e, x}}
	}
	return e
}

// triples translates a triples block with paths (§18.2.2.4, §18.2.2.5):
// links, inverses and sequences become triple patterns, other paths stay
// Path operators; blank nodes become internal variables.
func (t *translator) triples(ts []syntax.Triple) Op {
	bgp := &BGP{}
	var paths []Op
	var add func(s syntax.Node, p syntax.Path, o syntax.Node)
	add = func(s syntax.Node, p syntax.Path, o syntax.Node) {
		switch x := p.(type) {
		case *syntax.PathLink:
			bgp.Triples = append(bgp.Triples, syntax.Triple{S: s, P: syntax.TermNode(rdf.IRI(x.IRI)), O: o})
		case *syntax.PathInverse:
			add(o, x.Path, s)
		case *syntax.PathSeq:
			t.pathVars++
			v := syntax.VarNode("?.p" + strconv.Itoa(t.pathVars))
			add(s, x.Left, v)
			add(v, x.Right, o)
		default:
			paths = append(paths, &Path{S: s, Path: p, O: o})
		}
	}
	for _, tr := range ts {
		s, o := blankToVar(tr.S), blankToVar(tr.O)
		if tr.Path == nil {
			bgp.Triples = append(bgp.Triples, syntax.Triple{S: s, P: tr.P, O: o})
			continue
		}
		add(s, tr.Path, o)
	}
	var op Op
	if len(bgp.Triples) > 0 {
		op = bgp
	}
	for _, p := range paths {
		op = join(op, p)
	}
	if op == nil {
		return &BGP{}
	}
	return op
}

// blankToVar turns a pattern's blank node into its internal variable.
func blankToVar(n syntax.Node) syntax.Node {
	if !n.IsVar() && n.Term.IsBlank() {
		return syntax.VarNode("?" + n.Term.Value)
	}
	return n
}

// aggCollector replaces aggregates by internal variables and remembers
// the bindings, sharing one variable between identical aggregates.
type aggCollector struct {
	t        *translator
	seen     map[string]string
	bindings []AggBinding
}

func (c *aggCollector) replace(a *syntax.Aggregate) syntax.Expr {
	key := syntax.ExprString(a)
	v, ok := c.seen[key]
	if !ok {
		c.t.aggVars++
		v = ".agg" + strconv.Itoa(c.t.aggVars)
		c.seen[key] = v
		c.bindings = append(c.bindings, AggBinding{Var: v, Agg: &syntax.Aggregate{
			Name: a.Name, Distinct: a.Distinct, Arg: c.t.expr(a.Arg, nil),
			Separator: a.Separator, HasSeparator: a.HasSeparator,
		}})
	}
	return &syntax.Var{Name: v}
}

// expr translates an expression: EXISTS patterns become operators and,
// when aggs is set, aggregates become variables bound by the Group.
func (t *translator) expr(e syntax.Expr, aggs *aggCollector) syntax.Expr {
	switch x := e.(type) {
	case nil:
		return nil
	case *syntax.Call:
		return &syntax.Call{Op: x.Op, Args: t.exprs(x.Args, aggs)}
	case *syntax.FuncCall:
		return &syntax.FuncCall{IRI: x.IRI, Distinct: x.Distinct, Args: t.exprs(x.Args, aggs)}
	case *syntax.Aggregate:
		if aggs == nil {
			// The parser only admits aggregates where aggs is set.
			panic("algebra: aggregate outside SELECT, HAVING or ORDER BY")
		}
		return aggs.replace(x)
	case *syntax.Exists:
		return &Exists{Not: x.Not, Op: t.group(x.Pattern)}
	}
	return e
}

func (t *translator) exprs(es []syntax.Expr, aggs *aggCollector) []syntax.Expr {
	out := make([]syntax.Expr, len(es))
	for i, e := range es {
		out[i] = t.expr(e, aggs)
	}
	return out
}
