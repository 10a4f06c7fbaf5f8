package syntax

import "github.com/mneme-archive/mneme/rdf"

// Form is the query form.
type Form uint8

const (
	Select Form = iota
	Construct
	Ask
	Describe
)

func (f Form) String() string {
	return [...]string{"SELECT", "CONSTRUCT", "ASK", "DESCRIBE"}[f]
}

// IsGraph reports whether the form answers with triples (CONSTRUCT and
// DESCRIBE) rather than solutions or a boolean.
func (f Form) IsGraph() bool { return f == Construct || f == Describe }

// Query is a parsed query or sub-select. IRIs in it are already resolved
// against the base and prefixes.
type Query struct {
	Form     Form
	Base     string
	Prefixes []Prefix // in declaration order

	// SELECT projection.
	Distinct, Reduced bool
	Star              bool         // SELECT * or DESCRIBE *
	Project           []SelectItem // SELECT items, in order
	// CONSTRUCT template; for CONSTRUCT WHERE it is the WHERE pattern's triples.
	Template []Triple
	// DESCRIBE targets.
	Describe []Node

	From, FromNamed []string

	Where *Group // nil only for DESCRIBE without WHERE

	GroupBy []GroupCond
	Having  []Expr
	OrderBy []OrderCond
	Limit   int64 // -1 when absent
	Offset  int64
	Values  *Values // trailing VALUES; nil when absent
}

// Prefix is one PREFIX declaration.
type Prefix struct{ Name, IRI string }

// SelectItem is ?v or (expr AS ?v) in a SELECT clause.
type SelectItem struct {
	Var  string
	Expr Expr // nil for a plain variable
}

// GroupCond is one GROUP BY condition: an expression, optionally bound to
// a variable with AS (a plain ?x is a *Var expression with Var "").
type GroupCond struct {
	Expr Expr
	Var  string
}

// OrderCond is one ORDER BY condition.
type OrderCond struct {
	Expr Expr
	Desc bool
}

// Node is a variable or an RDF term in a pattern. Exactly one of Var and
// Term is set. Blank nodes in WHERE patterns stay blank nodes here; the
// algebra turns them into non-distinguished variables.
type Node struct {
	Var  string
	Term rdf.Term
}

// IsVar reports whether n is a variable.
func (n Node) IsVar() bool { return n.Var != "" }

// VarNode and TermNode build Nodes.
func VarNode(name string) Node { return Node{Var: name} }
func TermNode(t rdf.Term) Node { return Node{Term: t} }
func (n Node) String() string {
	if n.IsVar() {
		return "?" + n.Var
	}
	return string(appendTerm(nil, n.Term))
}

// Triple is a triple pattern whose predicate is a Node, or a property path
// when Path is not nil (then P is unset).
type Triple struct {
	S, P, O Node
	Path    Path
}

// Pattern is one element of a group graph pattern.
type Pattern interface{ pattern() }

// Group is a GroupGraphPattern: { ... }.
type Group struct{ Elems []Pattern }

// BGP is a block of triple patterns (TriplesBlock), possibly with paths.
type BGP struct{ Triples []Triple }

// Filter is FILTER(expr).
type Filter struct{ Expr Expr }

// Optional is OPTIONAL { ... }.
type Optional struct{ Group *Group }

// Minus is MINUS { ... }.
type Minus struct{ Group *Group }

// Union is {..} UNION {..} UNION ...
type Union struct{ Groups []*Group }

// Graph is GRAPH name { ... }.
type Graph struct {
	Name  Node
	Group *Group
}

// Service is SERVICE [SILENT] name { ... }.
type Service struct {
	Silent bool
	Name   Node
	Group  *Group
}

// Bind is BIND(expr AS ?v).
type Bind struct {
	Expr Expr
	Var  string
}

// Values is inline data; a zero rdf.Term in a row is UNDEF.
type Values struct {
	Vars []string
	Rows [][]rdf.Term
}

// SubSelect is a nested SELECT query.
type SubSelect struct{ Query *Query }

func (*Group) pattern()     {}
func (*BGP) pattern()       {}
func (*Filter) pattern()    {}
func (*Optional) pattern()  {}
func (*Minus) pattern()     {}
func (*Union) pattern()     {}
func (*Graph) pattern()     {}
func (*Service) pattern()   {}
func (*Bind) pattern()      {}
func (*Values) pattern()    {}
func (*SubSelect) pattern() {}
