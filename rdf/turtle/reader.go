package turtle

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"strconv"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/iri"
)

// MaxDepth bounds the nesting of [ ] and ( ) so that hostile input cannot
// make the parser's stack grow without limit.
const MaxDepth = 1000

// Reader parses Turtle or TriG. It implements rdf.PrefixReader.
type Reader struct {
	lex      *lexer
	name     string
	trig     bool
	base     string
	prefixes map[string]string

	peeked  token
	hasPeek bool

	stack   []frame
	graph   rdf.Term // graph of the triples being read
	inGraph bool     // inside a TriG { } block

	out    []rdf.Quad // quads completed by the last step, handed out first
	outPos int
	bnodes uint64
	err    error
}

// NewReader returns a reader of the Turtle document r.
func NewReader(r io.Reader, opts rdf.ParseOptions) *Reader {
	return newReader(r, opts, false)
}

// NewTriGReader returns a reader of the TriG document r; quads of named
// graphs carry their graph in Quad.G.
func NewTriGReader(r io.Reader, opts rdf.ParseOptions) *Reader {
	return newReader(r, opts, true)
}

func newReader(r io.Reader, opts rdf.ParseOptions, trig bool) *Reader {
	return &Reader{
		lex:      newLexer(r),
		name:     opts.Name,
		trig:     trig,
		base:     opts.Base,
		prefixes: map[string]string{},
		out:      make([]rdf.Quad, 0, 4),
	}
}

// Prefixes returns a copy of the prefix declarations read so far.
func (p *Reader) Prefixes() map[string]string { return maps.Clone(p.prefixes) }

// Next returns the next quad, io.EOF at the end of the document, or the
// first syntax error (a *rdf.ParseError), which it keeps returning.
func (p *Reader) Next() (rdf.Quad, error) {
	for {
		if p.outPos < len(p.out) {
			q := p.out[p.outPos]
			p.outPos++
			return q, nil
		}
		if p.err != nil {
			return rdf.Quad{}, p.err
		}
		p.out, p.outPos = p.out[:0], 0
		if err := p.step(); err != nil {
			p.err = p.wrap(err)
		}
	}
}

func (p *Reader) wrap(err error) error {
	var le *errLex
	if errors.As(err, &le) {
		return &rdf.ParseError{Name: p.name, Line: le.line, Col: le.col, Msg: le.msg}
	}
	return err
}

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

func (p *Reader) token() (token, error) {
	if p.hasPeek {
		p.hasPeek = false
		return p.peeked, nil
	}
	return p.lex.token()
}

func (p *Reader) unread(t token) { p.peeked, p.hasPeek = t, true }

func (p *Reader) peekToken() (token, error) {
	t, err := p.token()
	if err == nil {
		p.unread(t)
	}
	return t, err
}

func (p *Reader) errorf(t token, format string, args ...any) error {
	return &errLex{line: t.line, col: t.col, msg: fmt.Sprintf(format, args...)}
}

func (p *Reader) expected(t token, what string) error {
	return p.errorf(t, "expected %s, found %s", what, t.describe())
}

func (p *Reader) emit(s, pr, o rdf.Term) {
	p.out = append(p.out, rdf.Quad{S: s, P: pr, O: o, G: p.graph})
}

func (p *Reader) newBlank() rdf.Term {
	p.bnodes++
	return rdf.Blank("_g" + strconv.FormatUint(p.bnodes, 10))
}

// blank maps a label written in the document to its term (see the package
// documentation for why labels starting with '_' are changed).
func blank(label string) rdf.Term {
	if label[0] == '_' {
		return rdf.Blank("_" + label)
	}
	return rdf.Blank(label)
}

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

func (p *Reader) closeGraph() {
	p.inGraph = false
	p.graph = rdf.Term{}
}

// statementStart handles the first token of a directive, a statement or a
// TriG graph block.
func (p *Reader) statementStart(t token) error {
	switch t.kind {
	case tEOF:
		if p.inGraph {
			return p.expected(t, "'}' to close the graph block")
		}
		return io.EOF
	case tAtWord, tPrefix, tBase:
		if p.inGraph {
			return p.errorf(t, "directive %s is not allowed inside a graph block", t.describe())
		}
		sparql := t.kind != tAtWord
		switch {
		case t.kind == tPrefix || t.text == "prefix":
			return p.prefixDirective(sparql)
		case t.kind == tBase || t.text == "base":
			return p.baseDirective(sparql)
		}
		return p.errorf(t, "unknown directive @%s (expected @prefix or @base)", t.text)
	case tIRI, tPName, tBlank:
		s, err := p.subjectTerm(t)
		if err != nil {
			return err
		}
		return p.subjectOrGraph(t, s)
	case tLBracket:
		nt, err := p.token()
		if err != nil {
			return err
		}
		if nt.kind == tRBracket {
			return p.subjectOrGraph(t, p.newBlank())
		}
		p.unread(nt)
		return p.push(t, frame{kind: fBlankList, subj: p.newBlank(), asSubject: true})
	case tLParen:
		return p.push(t, frame{kind: fCollection, asSubject: true})
	}
	if p.trig {
		switch {
		case t.kind == tGraph && !p.inGraph:
			return p.graphBlock()
		case t.kind == tLBrace && !p.inGraph:
			p.inGraph = true
			return nil
		case t.kind == tRBrace && p.inGraph:
			p.closeGraph()
			return nil
		case p.inGraph:
			return p.expected(t, "subject or '}'")
		}
		return p.expected(t, "subject, graph block or directive")
	}
	return p.expected(t, "subject or directive")
}

// subjectOrGraph starts a statement with subject s, or in TriG a graph
// block named s when '{' follows.
func (p *Reader) subjectOrGraph(t token, s rdf.Term) error {
	if p.trig && !p.inGraph {
		nt, err := p.peekToken()
		if err != nil {
			return err
		}
		if nt.kind == tLBrace {
			p.token()
			p.inGraph, p.graph = true, s
			return nil
		}
	}
	return p.push(t, frame{kind: fStatement, subj: s})
}

func (p *Reader) subjectTerm(t token) (rdf.Term, error) {
	if t.kind == tBlank {
		return blank(t.text), nil
	}
	v, err := p.iri(t)
	return rdf.IRI(v), err
}

// graphBlock reads the rest of GRAPH label {.
func (p *Reader) graphBlock() error {
	t, err := p.token()
	if err != nil {
		return err
	}
	var g rdf.Term
	switch t.kind {
	case tIRI, tPName, tBlank:
		if g, err = p.subjectTerm(t); err != nil {
			return err
		}
	case tLBracket:
		nt, err := p.token()
		if err != nil {
			return err
		}
		if nt.kind != tRBracket {
			return p.expected(nt, "']' of the graph name []")
		}
		g = p.newBlank()
	default:
		return p.expected(t, "graph name (IRI or blank node) after GRAPH")
	}
	if t, err = p.token(); err != nil {
		return err
	}
	if t.kind != tLBrace {
		return p.expected(t, "'{' to open the graph block")
	}
	p.inGraph, p.graph = true, g
	return nil
}

func (p *Reader) prefixDirective(sparql bool) error {
	t, err := p.token()
	if err != nil {
		return err
	}
	if t.kind != tPName || t.text != "" {
		return p.expected(t, "prefix name ending with ':'")
	}
	prefix := t.prefix
	ns, err := p.iriRefToken()
	if err != nil {
		return err
	}
	if !sparql {
		if err := p.directiveDot(); err != nil {
			return err
		}
	}
	p.prefixes[prefix] = ns
	return nil
}

func (p *Reader) baseDirective(sparql bool) error {
	base, err := p.iriRefToken()
	if err != nil {
		return err
	}
	if !sparql {
		if err := p.directiveDot(); err != nil {
			return err
		}
	}
	p.base = base
	return nil
}

func (p *Reader) iriRefToken() (string, error) {
	t, err := p.token()
	if err != nil {
		return "", err
	}
	if t.kind != tIRI {
		return "", p.expected(t, "IRI in angle brackets")
	}
	return p.resolve(t)
}

func (p *Reader) directiveDot() error {
	t, err := p.token()
	if err != nil {
		return err
	}
	if t.kind != tDot {
		return p.expected(t, "'.' to end the directive")
	}
	return nil
}

// iri returns the IRI of an IRIREF or prefixed name token.
func (p *Reader) iri(t token) (string, error) {
	if t.kind == tIRI {
		return p.resolve(t)
	}
	ns, ok := p.prefixes[t.prefix]
	if !ok {
		return "", p.errorf(t, "undefined prefix %q", t.prefix+":")
	}
	return ns + t.text, nil
}

// resolve resolves an IRIREF against the base; absolute IRIs are kept
// exactly as written.
func (p *Reader) resolve(t token) (string, error) {
	if iri.IsAbsolute(t.text) {
		return t.text, nil
	}
	if p.base == "" {
		return "", p.errorf(t, "relative IRI <%s> but no base IRI is set", clip(t.text))
	}
	v, err := iri.Resolve(p.base, t.text)
	if err != nil {
		return "", p.errorf(t, "cannot resolve <%s> against base <%s>: %v", clip(t.text), clip(p.base), err)
	}
	return v, nil
}

// object handles a token in object position: the top frame is a
// predicate-object list waiting for an object, or a collection.
func (p *Reader) object(t token) error {
	var o rdf.Term
	switch t.kind {
	case tIRI, tPName, tBlank:
		var err error
		if o, err = p.subjectTerm(t); err != nil {
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
