package turtle

import "github.com/mneme-archive/mneme/rdf"

// The parser proper: predicate-object lists, [ ] blank nodes and ( )
// collections, one token per step on an explicit stack of frames, so that
// a triple is handed out as soon as its object is read.

// frame is one open construct: the predicate-object list of a statement or
// of a [ ] blank node, or a ( ) collection.
type frame struct {
	kind       frameKind
	state      listState
	subj, pred rdf.Term
	// asSubject marks a [ ] or ( ) that starts a statement: when it closes,
	// it becomes the subject of what follows.
	asSubject bool
	tail      rdf.Term // collection: the last list node so far
}

type frameKind uint8

const (
	fStatement  frameKind = iota // subject predicateObjectList
	fBlankList                   // [ predicateObjectList ]
	fCollection                  // ( object* )
)

type listState uint8

const (
	sVerb        listState = iota // a predicate is required
	sObject                       // an object is required
	sAfterObject                  // ',' ';' or the end
	sAfterSemi                    // a predicate, ';' or the end
	sOptVerb                      // after a [ ] subject: a predicate or the end
)

// push opens a nested construct; t is the token that opened it.
func (p *Reader) push(t token, f frame) error {
	if len(p.stack) >= MaxDepth {
		return p.errorf(t, "nesting deeper than %d levels of [ ] and ( )", MaxDepth)
	}
	p.stack = append(p.stack, f)
	return nil
}

// step consumes at least one token and queues the quads it completes.
func (p *Reader) step() error {
	t, err := p.token()
	if err != nil {
		return err
	}
	if len(p.stack) == 0 {
		return p.statementStart(t)
	}
	f := &p.stack[len(p.stack)-1]
	if f.kind == fCollection {
		if t.kind == tRParen {
			return p.closeCollection()
		}
		return p.object(t)
	}
	switch f.state {
	case sVerb:
		return p.verb(f, t)
	case sObject:
		return p.object(t)
	case sAfterSemi, sOptVerb:
		if p.ends(f, t) {
			return p.closeList(t)
		}
		if t.kind == tSemicolon && f.state == sAfterSemi {
			return nil
		}
		if !isVerb(t) {
			return p.expected(t, "predicate or "+p.endName(f))
		}
		return p.verb(f, t)
	default: // sAfterObject
		switch {
		case t.kind == tComma:
			f.state = sObject
		case t.kind == tSemicolon:
			f.state = sAfterSemi
		case p.ends(f, t):
			return p.closeList(t)
		case f.kind == fStatement && p.inGraph:
			return p.expected(t, "',', ';', '.' or '}'")
		default:
			return p.expected(t, "',', ';' or "+p.endName(f))
		}
	}
	return nil
}

func isVerb(t token) bool { return t.kind == tIRI || t.kind == tPName || t.kind == tA }

// ends reports whether t closes the predicate-object list of f.
func (p *Reader) ends(f *frame, t token) bool {
	if f.kind == fBlankList {
		return t.kind == tRBracket
	}
	return t.kind == tDot || (p.inGraph && t.kind == tRBrace)
}

func (p *Reader) endName(f *frame) string {
	switch {
	case f.kind == fBlankList:
		return "']'"
	case p.inGraph:
		return "'.' or '}'"
	}
	return "'.'"
}

func (p *Reader) verb(f *frame, t token) error {
	switch t.kind {
	case tA:
		f.pred = rdf.IRI(rdf.RDFType)
	case tIRI, tPName:
		v, err := p.iri(t)
		if err != nil {
			return err
		}
		f.pred = rdf.IRI(v)
	default:
		return p.expected(t, "predicate (IRI, prefixed name or 'a')")
	}
	f.state = sObject
	return nil
}

// closeList ends the predicate-object list on top of the stack; t is the
// '.', ']' or '}' that ended it.
func (p *Reader) closeList(t token) error {
	f := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	switch {
	case f.kind == fBlankList && f.asSubject:
		p.stack = append(p.stack, frame{kind: fStatement, state: sOptVerb, subj: f.subj})
	case t.kind == tRBrace:
		p.closeGraph()
	}
	return nil
}

// object handles a token in object position: the top frame is a
// predicate-object list waiting for an object, or a collection.
func (p *Reader) object(t token) error {
	var o rdf.Term
	switch t.kind {
	case tIRI, tPName, tBlank:
		var err error
		if o, err = p.nodeTerm(t); err != nil {
			return err
		}
	case tString:
		var err error
		if o, err = p.literal(t); err != nil {
			return err
		}
	case tInteger:
		o = rdf.Literal(t.text, rdf.XSDInteger)
	case tDecimal:
		o = rdf.Literal(t.text, rdf.XSDDecimal)
	case tDouble:
		o = rdf.Literal(t.text, rdf.XSDDouble)
	case tTrue:
		o = rdf.Literal("true", rdf.XSDBoolean)
	case tFalse:
		o = rdf.Literal("false", rdf.XSDBoolean)
	case tLBracket:
		nt, err := p.token()
		if err != nil {
			return err
		}
		b := p.newBlank()
		p.deliver(len(p.stack)-1, b)
		if nt.kind == tRBracket {
			return nil
		}
		p.unread(nt)
		return p.push(t, frame{kind: fBlankList, subj: b})
	case tLParen:
		return p.push(t, frame{kind: fCollection})
	default:
		if p.stack[len(p.stack)-1].kind == fCollection {
			return p.expected(t, "object or ')'")
		}
		return p.expected(t, "object")
	}
	p.deliver(len(p.stack)-1, o)
	return nil
}

// literal completes a string literal with its language tag or datatype.
func (p *Reader) literal(t token) (rdf.Term, error) {
	nt, err := p.token()
	if err != nil {
		return rdf.Term{}, err
	}
	switch nt.kind {
	case tAtWord:
		return rdf.LangLiteral(t.text, nt.text), nil
	case tCarets:
		dt, err := p.token()
		if err != nil {
			return rdf.Term{}, err
		}
		if dt.kind != tIRI && dt.kind != tPName {
			return rdf.Term{}, p.expected(dt, "datatype IRI after '^^'")
		}
		v, err := p.iri(dt)
		if err != nil {
			return rdf.Term{}, err
		}
		return rdf.Literal(t.text, v), nil
	}
	p.unread(nt)
	return rdf.String(t.text), nil
}

// deliver gives object o to the frame at index i: a predicate-object list
// emits its triple, a collection adds a list node.
func (p *Reader) deliver(i int, o rdf.Term) {
	f := &p.stack[i]
	if f.kind != fCollection {
		p.emit(f.subj, f.pred, o)
		f.state = sAfterObject
		return
	}
	n := p.newBlank()
	switch {
	case !f.tail.IsZero():
		p.emit(f.tail, rdf.IRI(rdf.RDFRest), n)
	case f.asSubject:
		f.subj = n
	default:
		p.deliver(i-1, n)
	}
	p.emit(n, rdf.IRI(rdf.RDFFirst), o)
	f.tail = n
}

// closeCollection handles ')'.
func (p *Reader) closeCollection() error {
	f := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	nilTerm := rdf.IRI(rdf.RDFNil)
	head := nilTerm
	if !f.tail.IsZero() {
		p.emit(f.tail, rdf.IRI(rdf.RDFRest), nilTerm)
		head = f.subj
	} else if !f.asSubject {
		p.deliver(len(p.stack)-1, nilTerm)
	}
	if f.asSubject {
		p.stack = append(p.stack, frame{kind: fStatement, subj: head})
	}
	return nil
}
