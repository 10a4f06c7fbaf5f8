package syntax

import (
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
)

// builtin describes a built-in call's arity; max < 0 means any number
// (an ExpressionList).
type builtin struct{ min, max int }

// builtins maps the upper-cased keyword to its arity. URI and isURI are
// stored under their synonyms IRI and ISIRI (see canonicalBuiltin).
var builtins = map[string]builtin{
	"STR": {1, 1}, "LANG": {1, 1}, "LANGMATCHES": {2, 2}, "DATATYPE": {1, 1},
	"BOUND": {1, 1}, "IRI": {1, 1}, "BNODE": {0, 1}, "RAND": {0, 0},
	"ABS": {1, 1}, "CEIL": {1, 1}, "FLOOR": {1, 1}, "ROUND": {1, 1},
	"CONCAT": {0, -1}, "SUBSTR": {2, 3}, "STRLEN": {1, 1}, "REPLACE": {3, 4},
	"UCASE": {1, 1}, "LCASE": {1, 1}, "ENCODE_FOR_URI": {1, 1},
	"CONTAINS": {2, 2}, "STRSTARTS": {2, 2}, "STRENDS": {2, 2},
	"STRBEFORE": {2, 2}, "STRAFTER": {2, 2},
	"YEAR": {1, 1}, "MONTH": {1, 1}, "DAY": {1, 1}, "HOURS": {1, 1},
	"MINUTES": {1, 1}, "SECONDS": {1, 1}, "TIMEZONE": {1, 1}, "TZ": {1, 1},
	"NOW": {0, 0}, "UUID": {0, 0}, "STRUUID": {0, 0},
	"MD5": {1, 1}, "SHA1": {1, 1}, "SHA256": {1, 1}, "SHA384": {1, 1}, "SHA512": {1, 1},
	"COALESCE": {0, -1}, "IF": {3, 3}, "STRLANG": {2, 2}, "STRDT": {2, 2},
	"SAMETERM": {2, 2}, "ISIRI": {1, 1}, "ISBLANK": {1, 1}, "ISLITERAL": {1, 1},
	"ISNUMERIC": {1, 1}, "REGEX": {2, 3},
}

var aggregates = map[string]bool{
	"COUNT": true, "SUM": true, "MIN": true, "MAX": true, "AVG": true,
	"SAMPLE": true, "GROUP_CONCAT": true,
}

func canonicalBuiltin(name string) string {
	switch name = strings.ToUpper(name); name {
	case "URI":
		return "IRI"
	case "ISURI":
		return "ISIRI"
	}
	return name
}

// isBuiltin reports whether a BuiltInCall starts here.
func (p *parser) isBuiltin() bool {
	if p.tok.kind != tokName {
		return false
	}
	name := canonicalBuiltin(p.tok.text)
	_, ok := builtins[name]
	return ok || aggregates[name] || name == "EXISTS" || name == "NOT"
}

// parseExpr parses an Expression where aggregates are not allowed.
func (p *parser) parseExpr() Expr {
	saved := p.aggOK
	p.aggOK = false
	defer func() { p.aggOK = saved }()
	return p.parseOr()
}

// parseExprAgg parses an Expression where aggregates are allowed
// (SELECT expressions, HAVING, ORDER BY).
func (p *parser) parseExprAgg() Expr {
	return p.withAgg(p.parseOr)
}

func (p *parser) withAgg(f func() Expr) Expr {
	saved := p.aggOK
	p.aggOK = true
	defer func() { p.aggOK = saved }()
	return f()
}

// parseConstraint parses Constraint ::= BrackettedExpression | BuiltInCall | FunctionCall.
func (p *parser) parseConstraint(agg bool) Expr {
	saved := p.aggOK
	p.aggOK = agg
	defer func() { p.aggOK = saved }()
	switch {
	case p.isPunct("("):
		return p.parseBracketted()
	case p.isBuiltin():
		return p.parseBuiltin()
	case p.isIRIStart():
		start := p.tok.pos
		e := p.parseIRIOrFunction()
		if _, ok := e.(*FuncCall); !ok {
			p.failAt(start, "expected a function call, found an IRI without arguments")
		}
		return e
	}
	p.expected("'(', a built-in call or a function call")
	return nil
}

func (p *parser) parseBracketted() Expr {
	p.expect("(")
	e := p.parseOr()
	p.expect(")")
	return e
}

func (p *parser) parseOr() Expr {
	p.enter()
	defer p.leave()
	l := p.parseAnd()
	for p.accept("||") {
		l = &Call{Op: "||", Args: []Expr{l, p.parseAnd()}}
	}
	return l
}

func (p *parser) parseAnd() Expr {
	l := p.parseRelational()
	for p.accept("&&") {
		l = &Call{Op: "&&", Args: []Expr{l, p.parseRelational()}}
	}
	return l
}

func (p *parser) parseRelational() Expr {
	l := p.parseAdditive()
	if p.tok.kind == tokPunct {
		switch op := p.tok.text; op {
		case "=", "!=", "<", ">", "<=", ">=":
			p.advance()
			return &Call{Op: op, Args: []Expr{l, p.parseAdditive()}}
		}
	}
	switch {
	case p.acceptKw("IN"):
		return &Call{Op: "in", Args: append([]Expr{l}, p.parseExprList()...)}
	case p.isKw("NOT") && strings.EqualFold(p.peek().text, "IN") && p.peek().kind == tokName:
		p.advance()
		p.advance()
		return &Call{Op: "notin", Args: append([]Expr{l}, p.parseExprList()...)}
	}
	return l
}

// parseExprList parses ExpressionList ::= NIL | '(' Expression ( ',' Expression )* ')'.
func (p *parser) parseExprList() []Expr {
	if p.tok.kind == tokNil {
		p.advance()
		return nil
	}
	p.expect("(")
	args := []Expr{p.parseOr()}
	for p.accept(",") {
		args = append(args, p.parseOr())
	}
	p.expect(")")
	return args
}

func (p *parser) parseAdditive() Expr {
	l := p.parseMultiplicative()
	for {
		switch {
		case p.isPunct("+") || p.isPunct("-"):
			op := p.tok.text
			p.advance()
			l = &Call{Op: op, Args: []Expr{l, p.parseMultiplicative()}}
		case isNumber(p.tok.kind) && (p.tok.text[0] == '+' || p.tok.text[0] == '-'):
			// "?x -1" lexes as ?x and the literal -1: the sign is the operator.
			op := p.tok.text[:1]
			t := p.tok
			t.text = t.text[1:]
			p.advance()
			var r Expr = &Const{Term: numberTerm(t)}
			for p.isPunct("*") || p.isPunct("/") {
				mop := p.tok.text
				p.advance()
				r = &Call{Op: mop, Args: []Expr{r, p.parseUnary()}}
			}
			l = &Call{Op: op, Args: []Expr{l, r}}
		default:
			return l
		}
	}
}

func isNumber(k tokKind) bool { return k == tokInteger || k == tokDecimal || k == tokDouble }

func (p *parser) parseMultiplicative() Expr {
	l := p.parseUnary()
	for p.isPunct("*") || p.isPunct("/") {
		op := p.tok.text
		p.advance()
		l = &Call{Op: op, Args: []Expr{l, p.parseUnary()}}
	}
	return l
}

func (p *parser) parseUnary() Expr {
	switch {
	case p.accept("!"):
		return &Call{Op: "!", Args: []Expr{p.parsePrimary()}}
	case p.accept("+"):
		return &Call{Op: "pos", Args: []Expr{p.parsePrimary()}}
	case p.accept("-"):
		return &Call{Op: "neg", Args: []Expr{p.parsePrimary()}}
	}
	return p.parsePrimary()
}

// parsePrimary parses PrimaryExpression.
func (p *parser) parsePrimary() Expr {
	p.enter()
	defer p.leave()
	switch {
	case p.isPunct("("):
		return p.parseBracketted()
	case p.tok.kind == tokVar:
		return &Var{Name: p.parseVar()}
	case p.isIRIStart():
		return p.parseIRIOrFunction()
	case p.isBuiltin():
		return p.parseBuiltin()
	}
	if t, ok := p.parseLiteral(); ok {
		return &Const{Term: t}
	}
	p.expected("an expression")
	return nil
}

// parseIRIOrFunction parses iri ArgList?.
func (p *parser) parseIRIOrFunction() Expr {
	name := p.parseIRI("an IRI")
	if p.tok.kind == tokNil {
		p.advance()
		return &FuncCall{IRI: name}
	}
	if !p.accept("(") {
		return &Const{Term: rdf.IRI(name)}
	}
	f := &FuncCall{IRI: name, Distinct: p.acceptKw("DISTINCT")}
	f.Args = []Expr{p.parseOr()}
	for p.accept(",") {
		f.Args = append(f.Args, p.parseOr())
	}
	p.expect(")")
	return f
}

// parseBuiltin parses BuiltInCall, including aggregates and EXISTS.
func (p *parser) parseBuiltin() Expr {
	start := p.tok.pos
	name := canonicalBuiltin(p.tok.text)
	p.advance()
	switch {
	case name == "NOT":
		p.expectKw("EXISTS")
		return &Exists{Not: true, Pattern: p.parseGroupAfter("NOT EXISTS")}
	case name == "EXISTS":
		return &Exists{Pattern: p.parseGroupAfter("EXISTS")}
	case aggregates[name]:
		return p.parseAggregate(name, start)
	}
	b := builtins[name]
	var args []Expr
	switch {
	case p.tok.kind == tokNil:
		p.advance()
	case b.max == 0:
		p.expected("'()' after " + name)
	case name == "BOUND":
		p.expect("(")
		args = []Expr{&Var{Name: p.parseVar()}}
		p.expect(")")
	default:
		args = p.parseExprList()
	}
	if len(args) < b.min || b.max >= 0 && len(args) > b.max {
		want := strconv.Itoa(b.min)
		if b.max != b.min {
			want += " to " + strconv.Itoa(b.max)
		}
		p.failAt(start, name+" takes "+want+" arguments, found "+strconv.Itoa(len(args)))
	}
	return &Call{Op: name, Args: args}
}

func (p *parser) parseAggregate(name string, start int) Expr {
	if !p.aggOK {
		p.failAt(start, "aggregate "+name+" is only allowed in SELECT, HAVING and ORDER BY, and not nested")
	}
	p.aggOK = false // no nested aggregates; the caller restores the flag
	defer func() { p.aggOK = true }()
	p.expect("(")
	a := &Aggregate{Name: name, Distinct: p.acceptKw("DISTINCT")}
	if name == "COUNT" && p.accept("*") {
		p.expect(")")
		return a
	}
	a.Arg = p.parseOr()
	if name == "GROUP_CONCAT" && p.accept(";") {
		p.expectKw("SEPARATOR")
		p.expect("=")
		if p.tok.kind != tokString {
			p.expected("a string after SEPARATOR =")
		}
		a.Separator, a.HasSeparator = p.tok.text, true
		p.advance()
	}
	p.expect(")")
	return a
}
