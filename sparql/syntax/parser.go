package syntax

import (
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/iri"
)

// maxDepth bounds the nesting of groups, expressions and paths so that a
// hostile query cannot exhaust the stack.
const maxDepth = 256

// Options configure parsing.
type Options struct {
	// Base is the base IRI for relative IRIs until a BASE declaration.
	// Without one, relative IRIs are kept as written.
	Base string
}

// Parse parses a SPARQL 1.1 query and runs the static checks of the
// specification (variable scoping of BIND and SELECT expressions, grouping
// rules, blank node label scope, VALUES arity). Errors are *Error values.
func Parse(query string, opts Options) (q *Query, err error) {
	p := &parser{
		lex:      lexer{src: query},
		base:     opts.Base,
		prefixes: map[string]string{},
		labels:   map[string]int{},
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			q, err = nil, e
		}
	}()
	p.advance()
	q = p.parseQuery()
	return q, nil
}

// parser is a recursive-descent parser over the lexer's tokens. Errors
// unwind by panicking with *Error; Parse recovers them.
type parser struct {
	lex      lexer
	tok      token
	peeked   *token
	base     string
	prefixes map[string]string
	prefList []Prefix

	depth     int
	anon      int            // counter for generated blank node labels
	labels    map[string]int // blank node label -> BGP it was used in
	bgp, nbgp int            // current and last allocated BGP id, for label scoping
	template  bool           // parsing a CONSTRUCT template: labels unscoped
	aggOK     bool           // aggregates allowed in the current expression
}

func (p *parser) advance() {
	if p.peeked != nil {
		p.tok, p.peeked = *p.peeked, nil
		return
	}
	t, err := p.lex.next()
	if err != nil {
		panic(err)
	}
	p.tok = t
}

func (p *parser) peek() token {
	if p.peeked == nil {
		t, err := p.lex.next()
		if err != nil {
			panic(err)
		}
		p.peeked = &t
	}
	return *p.peeked
}

// failAt panics with an error at byte offset off.
func (p *parser) failAt(off int, msg string) {
	panic(newError(p.lex.src, off, msg))
}

// expected panics with "expected X, found Y" at the current token.
func (p *parser) expected(what string) {
	p.failAt(p.tok.pos, "expected "+what+", found "+p.tok.String())
}

func (p *parser) isKw(kw string) bool {
	return p.tok.kind == tokName && strings.EqualFold(p.tok.text, kw)
}

func (p *parser) isPunct(s string) bool { return p.tok.kind == tokPunct && p.tok.text == s }

func (p *parser) acceptKw(kw string) bool {
	if p.isKw(kw) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) accept(s string) bool {
	if p.isPunct(s) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) expectKw(kw string) {
	if !p.acceptKw(kw) {
		p.expected(kw)
	}
}

func (p *parser) expect(s string) {
	if !p.accept(s) {
		p.expected("'" + s + "'")
	}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.failAt(p.tok.pos, "nesting deeper than "+strconv.Itoa(maxDepth)+" levels")
	}
}

func (p *parser) leave() { p.depth-- }

// parseQuery: Prologue ( Select | Construct | Describe | Ask ) ValuesClause.
func (p *parser) parseQuery() *Query {
	p.parsePrologue()
	var q *Query
	switch {
	case p.isKw("SELECT"):
		q = p.parseSelect(false)
	case p.isKw("CONSTRUCT"):
		q = p.parseConstruct()
	case p.isKw("DESCRIBE"):
		q = p.parseDescribe()
	case p.isKw("ASK"):
		p.advance()
		q = &Query{Form: Ask, Limit: -1}
		p.parseDatasets(q)
		q.Where = p.parseWhere(true)
		p.parseModifiers(q)
	default:
		p.expected("SELECT, CONSTRUCT, DESCRIBE, ASK, PREFIX or BASE")
	}
	q.Values = p.parseValuesClause()
	if p.tok.kind != tokEOF {
		p.expected("end of query")
	}
	q.Base, q.Prefixes = p.base, p.prefList
	return q
}

func (p *parser) parsePrologue() {
	for {
		switch {
		case p.isKw("BASE"):
			p.advance()
			if p.tok.kind != tokIRI {
				p.expected("an IRI after BASE")
			}
			p.base = p.resolve(p.tok.text, p.tok.pos)
			p.advance()
		case p.isKw("PREFIX"):
			p.advance()
			if p.tok.kind != tokPName || p.tok.local != "" {
				p.expected("a prefix name like 'ex:' after PREFIX")
			}
			name := p.tok.prefix
			p.advance()
			if p.tok.kind != tokIRI {
				p.expected("an IRI for prefix '" + name + ":'")
			}
			ns := p.resolve(p.tok.text, p.tok.pos)
			p.advance()
			if _, dup := p.prefixes[name]; dup {
				for i := range p.prefList {
					if p.prefList[i].Name == name {
						p.prefList[i].IRI = ns
					}
				}
			} else {
				p.prefList = append(p.prefList, Prefix{Name: name, IRI: ns})
			}
			p.prefixes[name] = ns
		default:
			return
		}
	}
}

// resolve resolves an IRI reference against the base; without an absolute
// base a relative reference is kept as written.
func (p *parser) resolve(ref string, pos int) string {
	if p.base == "" || iri.IsAbsolute(ref) {
		return ref
	}
	r, err := iri.Resolve(p.base, ref)
	if err != nil {
		p.failAt(pos, "cannot resolve <"+ref+">: "+err.Error())
	}
	return r
}

// parseIRI accepts an IRIREF or a prefixed name.
func (p *parser) parseIRI(what string) string {
	switch p.tok.kind {
	case tokIRI:
		s := p.resolve(p.tok.text, p.tok.pos)
		p.advance()
		return s
	case tokPName:
		ns, ok := p.prefixes[p.tok.prefix]
		if !ok {
			p.failAt(p.tok.pos, "undefined prefix '"+p.tok.prefix+":'")
		}
		s := ns + p.tok.local
		p.advance()
		return s
	}
	p.expected(what)
	return ""
}

func (p *parser) isIRIStart() bool { return p.tok.kind == tokIRI || p.tok.kind == tokPName }

// parseSelect parses a SELECT query or, with sub set, a SubSelect.
func (p *parser) parseSelect(sub bool) *Query {
	start := p.tok.pos
	p.expectKw("SELECT")
	q := &Query{Form: Select, Limit: -1}
	if p.acceptKw("DISTINCT") {
		q.Distinct = true
	} else if p.acceptKw("REDUCED") {
		q.Reduced = true
	}
	var itemPos []int // byte offset of each SELECT item, for error messages
	if p.accept("*") {
		q.Star = true
	} else {
		for p.tok.kind == tokVar || p.isPunct("(") {
			itemPos = append(itemPos, p.tok.pos)
			if p.tok.kind == tokVar {
				q.Project = append(q.Project, SelectItem{Var: p.tok.text})
				p.advance()
				continue
			}
			p.advance()
			e := p.parseExprAgg()
			p.expectKw("AS")
			v := p.parseVar()
			p.expect(")")
			q.Project = append(q.Project, SelectItem{Var: v, Expr: e})
		}
		if len(q.Project) == 0 {
			p.expected("'*', a variable or '(expression AS ?var)' in SELECT")
		}
	}
	if !sub {
		p.parseDatasets(q)
	}
	q.Where = p.parseWhere(true)
	p.parseModifiers(q)
	if sub {
		q.Values = p.parseValuesClause()
	}
	p.checkSelect(q, start, itemPos)
	return q
}

func (p *parser) parseVar() string {
	if p.tok.kind != tokVar {
		p.expected("a variable")
	}
	v := p.tok.text
	p.advance()
	return v
}

func (p *parser) parseConstruct() *Query {
	p.expectKw("CONSTRUCT")
	q := &Query{Form: Construct, Limit: -1}
	if p.isPunct("{") {
		p.advance()
		p.template = true
		q.Template = p.parseTriplesTemplate()
		p.template = false
		p.expect("}")
		p.parseDatasets(q)
		q.Where = p.parseWhere(true)
	} else {
		// CONSTRUCT WHERE { TriplesTemplate }: the template is the pattern.
		p.parseDatasets(q)
		p.expectKw("WHERE")
		p.expect("{")
		q.Template = p.parseTriplesTemplate()
		p.expect("}")
		q.Where = &Group{}
		if len(q.Template) > 0 {
			q.Where.Elems = []Pattern{&BGP{Triples: q.Template}}
		}
	}
	p.parseModifiers(q)
	return q
}

// parseTriplesTemplate parses triples without paths up to '}'.
func (p *parser) parseTriplesTemplate() []Triple {
	var out []Triple
	for !p.isPunct("}") {
		out = p.parseTriplesSameSubject(out, false)
		if !p.accept(".") {
			break
		}
	}
	return out
}

func (p *parser) parseDescribe() *Query {
	p.expectKw("DESCRIBE")
	q := &Query{Form: Describe, Limit: -1}
	if p.accept("*") {
		q.Star = true
	} else {
		for p.tok.kind == tokVar || p.isIRIStart() {
			if p.tok.kind == tokVar {
				q.Describe = append(q.Describe, VarNode(p.parseVar()))
			} else {
				q.Describe = append(q.Describe, TermNode(rdf.IRI(p.parseIRI("an IRI"))))
			}
		}
		if len(q.Describe) == 0 {
			p.expected("'*', a variable or an IRI after DESCRIBE")
		}
	}
	p.parseDatasets(q)
	if p.isKw("WHERE") || p.isPunct("{") {
		q.Where = p.parseWhere(true)
	}
	p.parseModifiers(q)
	return q
}

func (p *parser) parseDatasets(q *Query) {
	for p.acceptKw("FROM") {
		if p.acceptKw("NAMED") {
			q.FromNamed = append(q.FromNamed, p.parseIRI("an IRI after FROM NAMED"))
		} else {
			q.From = append(q.From, p.parseIRI("an IRI or NAMED after FROM"))
		}
	}
}

// parseWhere parses WhereClause ::= 'WHERE'? GroupGraphPattern.
func (p *parser) parseWhere(optionalKw bool) *Group {
	if !p.acceptKw("WHERE") && !optionalKw {
		p.expected("WHERE")
	}
	if !p.isPunct("{") {
		p.expected("'{' to start the WHERE pattern")
	}
	return p.parseGroup()
}

func (p *parser) parseModifiers(q *Query) {
	if p.acceptKw("GROUP") {
		p.expectKw("BY")
		for {
			var c GroupCond
			switch {
			case p.tok.kind == tokVar:
				c.Expr = &Var{Name: p.parseVar()}
			case p.isPunct("("):
				p.advance()
				c.Expr = p.parseExpr()
				if p.acceptKw("AS") {
					c.Var = p.parseVar()
				}
				p.expect(")")
			case p.isIRIStart() || p.isBuiltin():
				c.Expr = p.parsePrimary()
			default:
				if len(q.GroupBy) == 0 {
					p.expected("a grouping condition after GROUP BY")
				}
			}
			if c.Expr == nil {
				break
			}
			q.GroupBy = append(q.GroupBy, c)
		}
	}
	if p.acceptKw("HAVING") {
		for p.isPunct("(") || p.isIRIStart() || p.isBuiltin() || len(q.Having) == 0 {
			q.Having = append(q.Having, p.parseConstraint(true))
		}
	}
	if p.acceptKw("ORDER") {
		p.expectKw("BY")
		for {
			var c OrderCond
			switch {
			case p.isKw("ASC") || p.isKw("DESC"):
				kw := strings.ToUpper(p.tok.text)
				c.Desc = kw == "DESC"
				p.advance()
				if !p.isPunct("(") {
					p.expected("'(' after " + kw)
				}
				c.Expr = p.withAgg(p.parseBracketted)
			case p.tok.kind == tokVar:
				c.Expr = &Var{Name: p.parseVar()}
			case p.isPunct("(") || p.isIRIStart() || p.isBuiltin():
				c.Expr = p.parseConstraint(true)
			default:
				if len(q.OrderBy) == 0 {
					p.expected("an ordering condition after ORDER BY")
				}
			}
			if c.Expr == nil {
				break
			}
			q.OrderBy = append(q.OrderBy, c)
		}
	}
	for i := 0; i < 2; i++ {
		switch {
		case q.Limit < 0 && p.acceptKw("LIMIT"):
			q.Limit = p.parseCount("LIMIT")
		case q.Offset == 0 && p.acceptKw("OFFSET"):
			q.Offset = p.parseCount("OFFSET")
		}
	}
}

func (p *parser) parseCount(kw string) int64 {
	if p.tok.kind != tokInteger || strings.HasPrefix(p.tok.text, "-") || strings.HasPrefix(p.tok.text, "+") {
		p.expected("a non-negative integer after " + kw)
	}
	n, err := strconv.ParseInt(p.tok.text, 10, 64)
	if err != nil {
		p.failAt(p.tok.pos, kw+" value out of range")
	}
	p.advance()
	return n
}

func (p *parser) parseValuesClause() *Values {
	if !p.acceptKw("VALUES") {
		return nil
	}
	return p.parseDataBlock()
}

// parseDataBlock parses the part after VALUES.
func (p *parser) parseDataBlock() *Values {
	v := &Values{}
	if p.tok.kind == tokVar {
		v.Vars = []string{p.parseVar()}
		p.expect("{")
		for !p.accept("}") {
			v.Rows = append(v.Rows, []rdf.Term{p.parseDataValue()})
		}
		return v
	}
	if p.tok.kind == tokNil {
		p.advance()
	} else {
		p.expect("(")
		for p.tok.kind == tokVar {
			v.Vars = append(v.Vars, p.parseVar())
		}
		p.expect(")")
	}
	p.expect("{")
	for !p.accept("}") {
		start := p.tok.pos
		var row []rdf.Term
		if p.tok.kind == tokNil {
			p.advance()
		} else {
			p.expect("(")
			for !p.accept(")") {
				row = append(row, p.parseDataValue())
			}
		}
		if len(row) != len(v.Vars) {
			p.failAt(start, "VALUES row has "+strconv.Itoa(len(row))+" values for "+strconv.Itoa(len(v.Vars))+" variables")
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}

// parseDataValue parses DataBlockValue; UNDEF is the zero Term.
func (p *parser) parseDataValue() rdf.Term {
	if p.acceptKw("UNDEF") {
		return rdf.Term{}
	}
	if p.isIRIStart() {
		return rdf.IRI(p.parseIRI("an IRI"))
	}
	t, ok := p.parseLiteral()
	if !ok {
		p.expected("an IRI, a literal or UNDEF")
	}
	return t
}

// parseLiteral parses an RDF, numeric or boolean literal if one is next.
func (p *parser) parseLiteral() (rdf.Term, bool) {
	switch p.tok.kind {
	case tokString:
		lex := p.tok.text
		p.advance()
		switch {
		case p.tok.kind == tokLang:
			tag := p.tok.text
			p.advance()
			return rdf.LangLiteral(lex, tag), true
		case p.accept("^^"):
			return rdf.Literal(lex, p.parseIRI("a datatype IRI after '^^'")), true
		}
		return rdf.String(lex), true
	case tokInteger, tokDecimal, tokDouble:
		t := numberTerm(p.tok)
		p.advance()
		return t, true
	case tokName:
		if p.isKw("true") || p.isKw("false") {
			v := strings.ToLower(p.tok.text)
			p.advance()
			return rdf.Literal(v, rdf.XSDBoolean), true
		}
	}
	return rdf.Term{}, false
}

func numberTerm(t token) rdf.Term {
	dt := rdf.XSDInteger
	switch t.kind {
	case tokDecimal:
		dt = rdf.XSDDecimal
	case tokDouble:
		dt = rdf.XSDDouble
	}
	return rdf.Literal(t.text, dt)
}
