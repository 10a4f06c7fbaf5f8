package syntax

import (
	"strconv"

	"github.com/mneme-archive/mneme/rdf"
)

// parseGroup parses GroupGraphPattern ::= '{' ( SubSelect | GroupGraphPatternSub ) '}'.
func (p *parser) parseGroup() *Group {
	p.enter()
	defer p.leave()
	p.expect("{")
	g := &Group{}
	if p.isKw("SELECT") {
		g.Elems = []Pattern{&SubSelect{Query: p.parseSelect(true)}}
		p.expect("}")
		return g
	}
	outer := p.bgp
	defer func() { p.bgp = outer }()
	p.newBGP() // a new group starts a new basic graph pattern
	triplesOK := true
	for !p.accept("}") {
		start := p.tok.pos
		if e := p.parseNotTriples(); e != nil {
			if _, isFilter := e.(*Filter); !isFilter {
				p.newBGP() // anything but a FILTER ends the current BGP
			}
			if b, ok := e.(*Bind); ok {
				p.checkBind(g, b, start)
			}
			g.Elems = append(g.Elems, e)
			p.accept(".")
			triplesOK = true
			continue
		}
		if !triplesOK {
			p.expected("'.', '}' or a graph pattern keyword")
		}
		if p.tok.kind == tokEOF || p.isPunct(".") {
			p.expected("a triple pattern, a graph pattern or '}'")
		}
		var bgp *BGP
		if n := len(g.Elems); n > 0 {
			bgp, _ = g.Elems[n-1].(*BGP)
		}
		if bgp == nil {
			bgp = &BGP{}
			g.Elems = append(g.Elems, bgp)
		}
		bgp.Triples = p.parseTriplesSameSubject(bgp.Triples, true)
		triplesOK = p.accept(".")
	}
	return g
}

// newBGP starts a new basic graph pattern for blank node label scoping.
func (p *parser) newBGP() {
	p.nbgp++
	p.bgp = p.nbgp
}

// parseNotTriples parses a GraphPatternNotTriples if one starts here.
func (p *parser) parseNotTriples() Pattern {
	switch {
	case p.isPunct("{"):
		first := p.parseGroup()
		if !p.isKw("UNION") {
			return first
		}
		u := &Union{Groups: []*Group{first}}
		for p.acceptKw("UNION") {
			if !p.isPunct("{") {
				p.expected("'{' after UNION")
			}
			u.Groups = append(u.Groups, p.parseGroup())
		}
		return u
	case p.acceptKw("OPTIONAL"):
		return &Optional{Group: p.parseGroupAfter("OPTIONAL")}
	case p.acceptKw("MINUS"):
		return &Minus{Group: p.parseGroupAfter("MINUS")}
	case p.acceptKw("GRAPH"):
		name := p.parseVarOrIRI("a variable or IRI after GRAPH")
		return &Graph{Name: name, Group: p.parseGroupAfter("GRAPH name")}
	case p.acceptKw("SERVICE"):
		s := &Service{Silent: p.acceptKw("SILENT")}
		s.Name = p.parseVarOrIRI("a variable or IRI after SERVICE")
		s.Group = p.parseGroupAfter("SERVICE name")
		return s
	case p.acceptKw("FILTER"):
		return &Filter{Expr: p.parseConstraint(false)}
	case p.acceptKw("BIND"):
		p.expect("(")
		e := p.parseExpr()
		p.expectKw("AS")
		v := p.parseVar()
		p.expect(")")
		return &Bind{Expr: e, Var: v}
	case p.acceptKw("VALUES"):
		return p.parseDataBlock()
	}
	return nil
}

func (p *parser) parseGroupAfter(what string) *Group {
	if !p.isPunct("{") {
		p.expected("'{' after " + what)
	}
	return p.parseGroup()
}

func (p *parser) parseVarOrIRI(what string) Node {
	if p.tok.kind == tokVar {
		return VarNode(p.parseVar())
	}
	if p.isIRIStart() {
		return TermNode(rdf.IRI(p.parseIRI(what)))
	}
	p.expected(what)
	return Node{}
}

// parseTriplesSameSubject parses one subject with its property list and
// appends the triples to out. With paths set it accepts property paths
// (TriplesSameSubjectPath), else only plain verbs (template triples).
func (p *parser) parseTriplesSameSubject(out []Triple, paths bool) []Triple {
	if p.isPunct("[") || p.isPunct("(") {
		var subj Node
		subj, out = p.parseTriplesNode(out, paths)
		if p.isPropertyListStart() {
			return p.parsePropertyList(subj, out, paths)
		}
		return out
	}
	subj, ok := p.parseVarOrTerm()
	if !ok {
		p.expected("a subject (variable, IRI, literal, blank node or collection)")
	}
	if !p.isPropertyListStart() {
		p.expected("a predicate after the subject")
	}
	return p.parsePropertyList(subj, out, paths)
}

// isPropertyListStart reports whether a verb can start here.
func (p *parser) isPropertyListStart() bool {
	switch {
	case p.tok.kind == tokVar, p.isIRIStart(), p.isKw("a") && p.tok.text == "a":
		return true
	case p.tok.kind == tokPunct:
		switch p.tok.text {
		case "^", "!", "(":
			return true
		}
	case p.tok.kind == tokNil:
		return false
	}
	return false
}

// parsePropertyList parses PropertyListNotEmpty for subj.
func (p *parser) parsePropertyList(subj Node, out []Triple, paths bool) []Triple {
	for {
		var pred Node
		var path Path
		switch {
		case p.tok.kind == tokVar:
			pred = VarNode(p.parseVar())
		case paths:
			path = p.parsePath()
			if l, ok := path.(*PathLink); ok {
				pred, path = TermNode(rdf.IRI(l.IRI)), nil
			}
		case p.tok.kind == tokName && p.tok.text == "a":
			p.advance()
			pred = TermNode(rdf.IRI(rdf.RDFType))
		default:
			pred = TermNode(rdf.IRI(p.parseIRI("a predicate (variable, IRI or 'a')")))
		}
		for {
			var obj Node
			obj, out = p.parseGraphNode(out, paths)
			out = append(out, Triple{S: subj, P: pred, O: obj, Path: path})
			if !p.accept(",") {
				break
			}
		}
		if !p.accept(";") {
			return out
		}
		for p.accept(";") {
		}
		if !p.isPropertyListStart() {
			return out
		}
	}
}

// parseGraphNode parses an object: a term, a variable, or a blank node
// property list or collection whose triples are appended to out.
func (p *parser) parseGraphNode(out []Triple, paths bool) (Node, []Triple) {
	if p.isPunct("[") || p.isPunct("(") {
		return p.parseTriplesNode(out, paths)
	}
	n, ok := p.parseVarOrTerm()
	if !ok {
		p.expected("an object (variable, IRI, literal, blank node or collection)")
	}
	return n, out
}

// parseTriplesNode parses '[' PropertyList ']' or '(' GraphNode+ ')'.
func (p *parser) parseTriplesNode(out []Triple, paths bool) (Node, []Triple) {
	p.enter()
	defer p.leave()
	if p.accept("[") {
		b := p.freshBlank()
		if !p.isPropertyListStart() {
			p.expected("a predicate inside '[ ]'")
		}
		out = p.parsePropertyList(b, out, paths)
		p.expect("]")
		return b, out
	}
	p.expect("(")
	var items []Node
	for !p.accept(")") {
		var n Node
		n, out = p.parseGraphNode(out, paths)
		items = append(items, n)
	}
	if len(items) == 0 {
		p.expected("a collection member")
	}
	head := p.freshBlank()
	cur := head
	first, rest := TermNode(rdf.IRI(rdf.RDFFirst)), TermNode(rdf.IRI(rdf.RDFRest))
	for i, it := range items {
		out = append(out, Triple{S: cur, P: first, O: it})
		next := TermNode(rdf.IRI(rdf.RDFNil))
		if i < len(items)-1 {
			next = p.freshBlank()
		}
		out = append(out, Triple{S: cur, P: rest, O: next})
		cur = next
	}
	return head, out
}

// freshBlank makes a blank node whose label no query can write.
func (p *parser) freshBlank() Node {
	p.anon++
	return TermNode(rdf.Blank("." + strconv.Itoa(p.anon)))
}

// parseVarOrTerm parses Var | GraphTerm (IRI, literal, blank node, NIL).
func (p *parser) parseVarOrTerm() (Node, bool) {
	switch p.tok.kind {
	case tokVar:
		return VarNode(p.parseVar()), true
	case tokIRI, tokPName:
		return TermNode(rdf.IRI(p.parseIRI("an IRI"))), true
	case tokBlank:
		label := p.tok.text
		if !p.template {
			if id, seen := p.labels[label]; seen && id != p.bgp {
				p.failAt(p.tok.pos, "blank node label _:"+label+" is used in more than one basic graph pattern")
			}
			p.labels[label] = p.bgp
		}
		p.advance()
		return TermNode(rdf.Blank(label)), true
	case tokAnon:
		p.advance()
		return p.freshBlank(), true
	case tokNil:
		p.advance()
		return TermNode(rdf.IRI(rdf.RDFNil)), true
	}
	if t, ok := p.parseLiteral(); ok {
		return TermNode(t), true
	}
	return Node{}, false
}

// parsePath parses Path ::= PathAlternative.
func (p *parser) parsePath() Path {
	p.enter()
	defer p.leave()
	l := p.parsePathSeq()
	for p.accept("|") {
		l = &PathAlt{Left: l, Right: p.parsePathSeq()}
	}
	return l
}

func (p *parser) parsePathSeq() Path {
	l := p.parsePathEltOrInverse()
	for p.accept("/") {
		l = &PathSeq{Left: l, Right: p.parsePathEltOrInverse()}
	}
	return l
}

func (p *parser) parsePathEltOrInverse() Path {
	if p.accept("^") {
		return &PathInverse{Path: p.parsePathElt()}
	}
	return p.parsePathElt()
}

func (p *parser) parsePathElt() Path {
	prim := p.parsePathPrimary()
	if p.tok.kind == tokPunct {
		switch p.tok.text {
		case "*", "+", "?":
			m := p.tok.text[0]
			p.advance()
			return &PathMod{Path: prim, Mod: m}
		}
	}
	return prim
}

func (p *parser) parsePathPrimary() Path {
	switch {
	case p.isIRIStart():
		return &PathLink{IRI: p.parseIRI("an IRI")}
	case p.tok.kind == tokName && p.tok.text == "a":
		p.advance()
		return &PathLink{IRI: rdf.RDFType}
	case p.accept("!"):
		neg := &PathNegated{}
		if p.tok.kind == tokNil {
			p.advance()
			return neg
		}
		if !p.accept("(") {
			p.parseOneInSet(neg)
			return neg
		}
		p.parseOneInSet(neg)
		for p.accept("|") {
			p.parseOneInSet(neg)
		}
		p.expect(")")
		return neg
	case p.accept("("):
		inner := p.parsePath()
		p.expect(")")
		return inner
	}
	p.expected("a property path (IRI, 'a', '^', '!' or '(')")
	return nil
}

func (p *parser) parseOneInSet(neg *PathNegated) {
	inv := p.accept("^")
	var s string
	if p.tok.kind == tokName && p.tok.text == "a" {
		p.advance()
		s = rdf.RDFType
	} else {
		s = p.parseIRI("an IRI or 'a' in a negated property set")
	}
	if inv {
		neg.Inverse = append(neg.Inverse, s)
	} else {
		neg.Forward = append(neg.Forward, s)
	}
}
