// Package algebra is the SPARQL 1.1 algebra (§18): the operators a query
// translates to, the translation from the syntax tree, and an S-expression
// printer that the CLI's --explain reuses.
package algebra

import (
	"strings"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// Op is an algebra operator.
type Op interface{ op() }

// BGP is a basic graph pattern: triple patterns without paths. Blank
// nodes of the query have become internal variables: names starting with
// '?' or '.', which no query can write, and which are never projected.
type BGP struct{ Triples []syntax.Triple }

// Path matches a property path that is not a simple link, inverse or
// sequence (those translate to triple patterns).
type Path struct {
	S, O syntax.Node
	Path syntax.Path
}

// Join is the join of two solution sequences.
type Join struct{ Left, Right Op }

// LeftJoin is OPTIONAL; Expr (nil for true) is the filter of the optional
// part, evaluated on the joined solution.
type LeftJoin struct {
	Left, Right Op
	Expr        syntax.Expr
}

// Filter keeps the solutions for which all expressions are true.
type Filter struct {
	Exprs []syntax.Expr
	Sub   Op
}

// Union is the bag union of two solution sequences.
type Union struct{ Left, Right Op }

// Minus removes the left solutions compatible with a right solution that
// shares a variable.
type Minus struct{ Left, Right Op }

// Graph evaluates Sub in the named graph Name (an IRI or a variable
// ranging over the named graphs).
type Graph struct {
	Name syntax.Node
	Sub  Op
}

// Service is a federated sub-query; evaluators reject it unless
// federation is enabled.
type Service struct {
	Silent bool
	Name   syntax.Node
	Sub    Op
}

// Extend binds Var to the value of Expr (BIND, SELECT expressions).
type Extend struct {
	Sub  Op
	Var  string
	Expr syntax.Expr
}

// Table is inline data (VALUES); a zero rdf.Term is an unbound value. The
// table with no variables and one empty row is the join identity.
type Table struct {
	Vars []string
	Rows [][]rdf.Term
}

// Unit returns the join identity: one solution binding nothing.
func Unit() *Table { return &Table{Rows: [][]rdf.Term{{}}} }

// IsUnit reports whether op is the join identity.
func IsUnit(op Op) bool {
	t, ok := op.(*Table)
	return ok && len(t.Vars) == 0 && len(t.Rows) == 1
}

// Group partitions the solutions by the keys and computes the aggregates
// of each partition. Without keys all solutions form one group, which
// exists even when there are none.
type Group struct {
	Sub  Op
	Keys []GroupKey
	Aggs []AggBinding
}

// GroupKey is one grouping expression and the variable it binds.
type GroupKey struct {
	Var  string
	Expr syntax.Expr
}

// AggBinding binds Var to an aggregate of each group.
type AggBinding struct {
	Var string
	Agg *syntax.Aggregate
}

// OrderBy sorts the solutions.
type OrderBy struct {
	Sub   Op
	Conds []syntax.OrderCond
}

// Project keeps only Vars.
type Project struct {
	Sub  Op
	Vars []string
}

// Distinct removes duplicate solutions.
type Distinct struct{ Sub Op }

// Reduced may remove duplicate solutions.
type Reduced struct{ Sub Op }

// Slice skips Offset solutions and keeps at most Limit (-1: no limit).
type Slice struct {
	Sub           Op
	Offset, Limit int64
}

func (*BGP) op()      {}
func (*Path) op()     {}
func (*Join) op()     {}
func (*LeftJoin) op() {}
func (*Filter) op()   {}
func (*Union) op()    {}
func (*Minus) op()    {}
func (*Graph) op()    {}
func (*Service) op()  {}
func (*Extend) op()   {}
func (*Table) op()    {}
func (*Group) op()    {}
func (*OrderBy) op()  {}
func (*Project) op()  {}
func (*Distinct) op() {}
func (*Reduced) op()  {}
func (*Slice) op()    {}

// Children returns the operands of op, left to right.
func Children(op Op) []Op {
	switch x := op.(type) {
	case *Join:
		return []Op{x.Left, x.Right}
	case *LeftJoin:
		return []Op{x.Left, x.Right}
	case *Union:
		return []Op{x.Left, x.Right}
	case *Minus:
		return []Op{x.Left, x.Right}
	case *Filter:
		return []Op{x.Sub}
	case *Graph:
		return []Op{x.Sub}
	case *Service:
		return []Op{x.Sub}
	case *Extend:
		return []Op{x.Sub}
	case *Group:
		return []Op{x.Sub}
	case *OrderBy:
		return []Op{x.Sub}
	case *Project:
		return []Op{x.Sub}
	case *Distinct:
		return []Op{x.Sub}
	case *Reduced:
		return []Op{x.Sub}
	case *Slice:
		return []Op{x.Sub}
	}
	return nil
}

// MapChildren returns a shallow copy of op whose operands are replaced by
// fn(operand); operators without operands are returned as they are.
func MapChildren(op Op, fn func(Op) Op) Op {
	switch x := op.(type) {
	case *Join:
		return &Join{Left: fn(x.Left), Right: fn(x.Right)}
	case *LeftJoin:
		return &LeftJoin{Left: fn(x.Left), Right: fn(x.Right), Expr: x.Expr}
	case *Union:
		return &Union{Left: fn(x.Left), Right: fn(x.Right)}
	case *Minus:
		return &Minus{Left: fn(x.Left), Right: fn(x.Right)}
	case *Filter:
		return &Filter{Exprs: x.Exprs, Sub: fn(x.Sub)}
	case *Graph:
		return &Graph{Name: x.Name, Sub: fn(x.Sub)}
	case *Service:
		return &Service{Silent: x.Silent, Name: x.Name, Sub: fn(x.Sub)}
	case *Extend:
		return &Extend{Sub: fn(x.Sub), Var: x.Var, Expr: x.Expr}
	case *Group:
		return &Group{Sub: fn(x.Sub), Keys: x.Keys, Aggs: x.Aggs}
	case *OrderBy:
		return &OrderBy{Sub: fn(x.Sub), Conds: x.Conds}
	case *Project:
		return &Project{Sub: fn(x.Sub), Vars: x.Vars}
	case *Distinct:
		return &Distinct{Sub: fn(x.Sub)}
	case *Reduced:
		return &Reduced{Sub: fn(x.Sub)}
	case *Slice:
		return &Slice{Sub: fn(x.Sub), Offset: x.Offset, Limit: x.Limit}
	}
	return op
}

// Exists is [NOT] EXISTS in an algebra expression: true when Op has a
// solution compatible with (substituted by) the current one.
type Exists struct {
	Not bool
	Op  Op
}

// AppendSSE prints the pattern on one line.
func (e *Exists) AppendSSE(dst []byte) []byte {
	if e.Not {
		dst = append(dst, "(notexists "...)
	} else {
		dst = append(dst, "(exists "...)
	}
	return append(append(dst, strings.Join(strings.Fields(String(e.Op)), " ")...), ')')
}

// Query is a translated query.
type Query struct {
	Form syntax.Form
	Op   Op
	// Vars are the variables a SELECT returns, in order.
	Vars []string
	// Template is the CONSTRUCT template (blank nodes stay blank nodes,
	// renamed per solution); Describe the DESCRIBE targets.
	Template        []syntax.Triple
	Describe        []syntax.Node
	From, FromNamed []string
	Base            string
	Prefixes        []syntax.Prefix
}
