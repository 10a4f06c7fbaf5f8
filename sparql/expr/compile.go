package expr

import (
	"fmt"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// Binding gives the current solution's value of a variable slot; the zero
// Term means unbound.
type Binding interface {
	Value(slot int) rdf.Term
}

// Bounder is implemented by a Binding that can tell whether a slot is
// bound without producing its value (a row of store IDs, whose terms are
// decoded on demand): BOUND then decodes nothing.
type Bounder interface {
	Bound(slot int) bool
}

// Row is the simplest Binding: slot i holds Row[i]; slots beyond its end
// are unbound.
type Row []rdf.Term

// Value implements Binding.
func (r Row) Value(slot int) rdf.Term {
	if slot < len(r) {
		return r[slot]
	}
	return rdf.Term{}
}

// Scope assigns variable names to slots as expressions are compiled.
type Scope struct {
	index map[string]int
	names []string
}

// NewScope returns a scope whose first slots are vars, in order.
func NewScope(vars ...string) *Scope {
	s := &Scope{index: map[string]int{}}
	for _, v := range vars {
		s.Slot(v)
	}
	return s
}

// Slot returns the slot of name, assigning the next free one if needed.
func (s *Scope) Slot(name string) int {
	if i, ok := s.index[name]; ok {
		return i
	}
	s.index[name] = len(s.names)
	s.names = append(s.names, name)
	return len(s.names) - 1
}

// Vars returns the variable names by slot.
func (s *Scope) Vars() []string { return s.names }

// Expr is a compiled expression, safe for concurrent use with separate
// Contexts.
type Expr struct{ root node }

// node is one compiled operator or function call.
type node interface {
	eval(c *Context, b Binding) (value, error)
}

// Eval evaluates e for one solution. Any error means the expression has
// no value (§17.2).
func (e *Expr) Eval(c *Context, b Binding) (rdf.Term, error) {
	v, err := e.root.eval(c, b)
	if err != nil {
		return rdf.Term{}, err
	}
	return v.term(), nil
}

// EBV evaluates e and returns its effective boolean value, as FILTER does
// (an error makes a filter reject the solution).
func (e *Expr) EBV(c *Context, b Binding) (bool, error) {
	v, err := e.root.eval(c, b)
	if err != nil {
		return false, err
	}
	return v.ebv()
}

// CompileError reports an expression that can never be evaluated: an
// unsupported regular expression, a wrong number of arguments.
type CompileError struct {
	Expr string // the expression as an S-expression
	Msg  string
}

func (e *CompileError) Error() string { return e.Msg + " in " + e.Expr }

// Compile translates an algebra expression; variables get slots in scope.
func Compile(e syntax.Expr, scope *Scope) (*Expr, error) {
	n, err := compile(e, scope)
	if err != nil {
		return nil, err
	}
	return &Expr{root: n}, nil
}

func compile(e syntax.Expr, scope *Scope) (node, error) {
	switch x := e.(type) {
	case *syntax.Var:
		return &varNode{slot: scope.Slot(x.Name)}, nil
	case *syntax.Const:
		v := termVal(x.Term)
		v.n, v.numOK = parseNumber(x.Term)
		return &constNode{v: v}, nil
	case *algebra.Exists:
		return &existsNode{e: x}, nil
	case *syntax.Call:
		args, err := compileAll(x.Args, scope)
		if err != nil {
			return nil, err
		}
		return compileCall(x, args)
	case *syntax.FuncCall:
		args, err := compileAll(x.Args, scope)
		if err != nil {
			return nil, err
		}
		if cast, ok := casts[x.IRI]; ok {
			if len(args) != 1 {
				return nil, &CompileError{Expr: syntax.ExprString(x), Msg: fmt.Sprintf("cast to <%s> takes one argument, found %d", x.IRI, len(args))}
			}
			return &unaryNode{f: cast, a: args[0]}, nil
		}
		// An unknown extension function is an error for each solution,
		// not for the query (§17.6).
		return &constErrNode{err: errUnknownF}, nil
	case *syntax.Aggregate:
		return nil, &CompileError{Expr: syntax.ExprString(x), Msg: "aggregate outside a group (the algebra binds aggregates to variables)"}
	}
	return nil, &CompileError{Expr: fmt.Sprintf("%T", e), Msg: "unsupported expression node"}
}

func compileAll(es []syntax.Expr, scope *Scope) ([]node, error) {
	out := make([]node, len(es))
	for i, e := range es {
		n, err := compile(e, scope)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// compileCall picks the node for an operator or built-in.
func compileCall(x *syntax.Call, args []node) (node, error) {
	switch x.Op {
	case "||":
		return &orNode{a: args[0], b: args[1]}, nil
	case "&&":
		return &andNode{a: args[0], b: args[1]}, nil
	case "in", "notin":
		return &inNode{not: x.Op == "notin", a: args[0], list: args[1:]}, nil
	case "IF":
		return &ifNode{cond: args[0], then: args[1], els: args[2]}, nil
	case "COALESCE":
		return &coalesceNode{args: args}, nil
	case "BOUND":
		v, ok := args[0].(*varNode)
		if !ok {
			return nil, &CompileError{Expr: syntax.ExprString(x), Msg: "BOUND needs a variable"}
		}
		return &boundNode{slot: v.slot}, nil
	case "REGEX", "REPLACE":
		return compileRegex(x, args)
	}
	op := x.Op
	if len(op) > 0 && op[0] >= 'a' && op[0] <= 'z' || op == "neg" || op == "pos" {
		op = strings.ToUpper(op)
	}
	b, ok := builtins[op]
	if !ok {
		return nil, &CompileError{Expr: syntax.ExprString(x), Msg: "unknown operator " + x.Op}
	}
	switch {
	case b.nullary != nil && len(args) == 0:
		return &nullaryNode{f: b.nullary}, nil
	case b.unary != nil && len(args) == 1:
		return &unaryNode{f: b.unary, a: args[0]}, nil
	case b.binary != nil && len(args) == 2:
		return &binaryNode{f: b.binary, a: args[0], b: args[1]}, nil
	case b.nary != nil:
		return &naryNode{f: b.nary, args: args}, nil
	}
	return nil, &CompileError{Expr: syntax.ExprString(x), Msg: fmt.Sprintf("%s does not take %d arguments", x.Op, len(args))}
}

// builtin holds the implementation of a strict operator or function (one
// whose arguments are all evaluated first, any error making the call an
// error) for the argument counts it accepts.
type builtin struct {
	nullary func(*Context) (value, error)
	unary   func(*Context, value) (value, error)
	binary  func(*Context, value, value) (value, error)
	nary    func(*Context, []value) (value, error)
}

type constNode struct{ v value }

func (n *constNode) eval(*Context, Binding) (value, error) { return n.v, nil }

type constErrNode struct{ err error }

func (n *constErrNode) eval(*Context, Binding) (value, error) { return value{}, n.err }

type varNode struct{ slot int }

func (n *varNode) eval(_ *Context, b Binding) (value, error) {
	t := b.Value(n.slot)
	if t.IsZero() {
		return value{}, ErrUnbound
	}
	return termVal(t), nil
}

type nullaryNode struct {
	f func(*Context) (value, error)
}

func (n *nullaryNode) eval(c *Context, _ Binding) (value, error) { return n.f(c) }

type unaryNode struct {
	f func(*Context, value) (value, error)
	a node
}

func (n *unaryNode) eval(c *Context, b Binding) (value, error) {
	a, err := n.a.eval(c, b)
	if err != nil {
		return value{}, err
	}
	return n.f(c, a)
}

type binaryNode struct {
	f    func(*Context, value, value) (value, error)
	a, b node
}

func (n *binaryNode) eval(c *Context, b Binding) (value, error) {
	x, err := n.a.eval(c, b)
	if err != nil {
		return value{}, err
	}
	y, err := n.b.eval(c, b)
	if err != nil {
		return value{}, err
	}
	return n.f(c, x, y)
}

type naryNode struct {
	f    func(*Context, []value) (value, error)
	args []node
}

func (n *naryNode) eval(c *Context, b Binding) (value, error) {
	vals := make([]value, len(n.args))
	if err := evalArgs(c, b, n.args, vals); err != nil {
		return value{}, err
	}
	return n.f(c, vals)
}

// evalArgs evaluates args into dst, stopping at the first error.
func evalArgs(c *Context, b Binding, args []node, dst []value) error {
	for i, a := range args {
		v, err := a.eval(c, b)
		if err != nil {
			return err
		}
		dst[i] = v
	}
	return nil
}

// orNode and andNode follow the three-valued logic of §17.2: an error on
// one side is masked when the other side decides the result.
type orNode struct{ a, b node }

func (n *orNode) eval(c *Context, b Binding) (value, error) {
	x, errA := ebvOf(n.a, c, b)
	if errA == nil && x {
		return boolVal(true), nil
	}
	y, errB := ebvOf(n.b, c, b)
	switch {
	case errB == nil && y:
		return boolVal(true), nil
	case errA != nil:
		return value{}, errA
	case errB != nil:
		return value{}, errB
	}
	return boolVal(false), nil
}

type andNode struct{ a, b node }

func (n *andNode) eval(c *Context, b Binding) (value, error) {
	x, errA := ebvOf(n.a, c, b)
	if errA == nil && !x {
		return boolVal(false), nil
	}
	y, errB := ebvOf(n.b, c, b)
	switch {
	case errB == nil && !y:
		return boolVal(false), nil
	case errA != nil:
		return value{}, errA
	case errB != nil:
		return value{}, errB
	}
	return boolVal(true), nil
}

func ebvOf(n node, c *Context, b Binding) (bool, error) {
	v, err := n.eval(c, b)
	if err != nil {
		return false, err
	}
	return v.ebv()
}

// inNode is IN / NOT IN (§17.4.1.9): (a = l1) || (a = l2) ..., so a match
// wins over errors, and an error without a match is an error.
type inNode struct {
	not  bool
	a    node
	list []node
}

func (n *inNode) eval(c *Context, b Binding) (value, error) {
	a, err := n.a.eval(c, b)
	if err != nil {
		return value{}, err
	}
	var firstErr error
	for _, l := range n.list {
		v, err := l.eval(c, b)
		if err == nil {
			var eq bool
			if eq, err = equal(a, v); err == nil && eq {
				return boolVal(!n.not), nil
			}
		}
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	if firstErr != nil {
		return value{}, firstErr
	}
	return boolVal(n.not), nil
}

type ifNode struct{ cond, then, els node }

func (n *ifNode) eval(c *Context, b Binding) (value, error) {
	ok, err := ebvOf(n.cond, c, b)
	switch {
	case err != nil:
		return value{}, err
	case ok:
		return n.then.eval(c, b)
	}
	return n.els.eval(c, b)
}

type coalesceNode struct{ args []node }

func (n *coalesceNode) eval(c *Context, b Binding) (value, error) {
	for _, a := range n.args {
		if v, err := a.eval(c, b); err == nil {
			return v, nil
		}
	}
	return value{}, ErrUnbound
}

type boundNode struct{ slot int }

func (n *boundNode) eval(_ *Context, b Binding) (value, error) {
	if bb, ok := b.(Bounder); ok {
		return boolVal(bb.Bound(n.slot)), nil
	}
	return boolVal(!b.Value(n.slot).IsZero()), nil
}

type existsNode struct{ e *algebra.Exists }

func (n *existsNode) eval(c *Context, b Binding) (value, error) {
	if c.Exists == nil {
		return value{}, errNoExists
	}
	ok, err := c.Exists(n.e, b)
	if err != nil {
		return value{}, err
	}
	return boolVal(ok != n.e.Not), nil
}
