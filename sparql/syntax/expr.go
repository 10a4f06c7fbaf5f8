package syntax

import (
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
)

// Expr is an expression node. Every node prints itself as an
// S-expression, the form the algebra printer and --explain show. The
// algebra package adds its own node for a translated EXISTS.
type Expr interface {
	AppendSSE(dst []byte) []byte
}

// Var is a variable reference.
type Var struct{ Name string }

// Const is an IRI or literal constant.
type Const struct{ Term rdf.Term }

// Call is an operator or built-in call. Op is the operator symbol ("||",
// "&&", "=", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "!", and
// "neg" / "pos" for unary minus and plus, "in" / "notin") or the upper-case
// name of a built-in function ("STR", "REGEX", ...).
type Call struct {
	Op   string
	Args []Expr
}

// FuncCall calls a function named by an IRI (XSD casts and extension
// functions). Distinct is only meaningful for custom aggregates.
type FuncCall struct {
	IRI      string
	Distinct bool
	Args     []Expr
}

// Aggregate is COUNT, SUM, MIN, MAX, AVG, SAMPLE or GROUP_CONCAT.
type Aggregate struct {
	Name      string // upper case
	Distinct  bool
	Arg       Expr // nil for COUNT(*)
	Separator string
	// HasSeparator tells an explicit SEPARATOR from the default " ".
	HasSeparator bool
}

// Exists is [NOT] EXISTS { ... } as parsed.
type Exists struct {
	Not     bool
	Pattern *Group
}

func (v *Var) AppendSSE(dst []byte) []byte { return append(append(dst, '?'), v.Name...) }

// AppendSSE writes numbers and booleans bare, as a query would write
// them, and other terms in N-Triples form.
func (c *Const) AppendSSE(dst []byte) []byte { return appendTerm(dst, c.Term) }

func appendTerm(dst []byte, t rdf.Term) []byte {
	if isShortLiteral(t) {
		return append(dst, t.Value...)
	}
	return t.Append(dst)
}

var numericTokens = map[string]tokKind{rdf.XSDInteger: tokInteger, rdf.XSDDecimal: tokDecimal, rdf.XSDDouble: tokDouble}

// isShortLiteral reports whether t can be written without quotes and
// datatype: its lexical form reads back as the same literal.
func isShortLiteral(t rdf.Term) bool {
	if !t.IsLiteral() {
		return false
	}
	if t.Datatype == rdf.XSDBoolean {
		return t.Value == "true" || t.Value == "false"
	}
	kind, ok := numericTokens[t.Datatype]
	if !ok {
		return false
	}
	l := lexer{src: t.Value}
	tok, err := l.next()
	return err == nil && tok.kind == kind && l.pos == len(t.Value)
}

func (c *Call) AppendSSE(dst []byte) []byte {
	dst = append(dst, '(')
	dst = append(dst, strings.ToLower(c.Op)...)
	return appendArgs(dst, c.Args)
}

func (f *FuncCall) AppendSSE(dst []byte) []byte {
	dst = append(dst, '(')
	dst = rdf.IRI(f.IRI).Append(dst)
	if f.Distinct {
		dst = append(dst, " distinct"...)
	}
	return appendArgs(dst, f.Args)
}

func (a *Aggregate) AppendSSE(dst []byte) []byte {
	dst = append(dst, '(')
	dst = append(dst, strings.ToLower(a.Name)...)
	if a.Distinct {
		dst = append(dst, " distinct"...)
	}
	if a.Arg != nil {
		dst = append(dst, ' ')
		dst = a.Arg.AppendSSE(dst)
	}
	if a.HasSeparator {
		dst = append(dst, " separator="...)
		dst = strconv.AppendQuote(dst, a.Separator)
	}
	return append(dst, ')')
}

// AppendSSE shows an untranslated EXISTS by its pattern's shape only; the
// algebra replaces the node before anything is printed for a user.
func (e *Exists) AppendSSE(dst []byte) []byte {
	if e.Not {
		dst = append(dst, "(notexists "...)
	} else {
		dst = append(dst, "(exists "...)
	}
	dst = strconv.AppendInt(dst, int64(len(e.Pattern.Elems)), 10)
	return append(dst, " elements)"...)
}

func appendArgs(dst []byte, args []Expr) []byte {
	for _, a := range args {
		dst = append(dst, ' ')
		dst = a.AppendSSE(dst)
	}
	return append(dst, ')')
}

// ExprString returns e as an S-expression.
func ExprString(e Expr) string { return string(e.AppendSSE(nil)) }

// WalkExpr calls fn on e and, while fn returns true, on its sub-expressions
// (not into EXISTS patterns).
func WalkExpr(e Expr, fn func(Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	switch x := e.(type) {
	case *Call:
		for _, a := range x.Args {
			WalkExpr(a, fn)
		}
	case *FuncCall:
		for _, a := range x.Args {
			WalkExpr(a, fn)
		}
	case *Aggregate:
		WalkExpr(x.Arg, fn)
	}
}
