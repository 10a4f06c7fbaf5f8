package turtle

import (
	"io"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/iri"
)

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
		s, err := p.nodeTerm(t)
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

// nodeTerm returns the IRI or blank node of an IRIREF, prefixed name or
// blank node label token.
func (p *Reader) nodeTerm(t token) (rdf.Term, error) {
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
		if g, err = p.nodeTerm(t); err != nil {
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
	ns, err := p.directiveIRI(sparql)
	if err != nil {
		return err
	}
	p.prefixes[prefix] = ns
	return nil
}

func (p *Reader) baseDirective(sparql bool) error {
	base, err := p.directiveIRI(sparql)
	if err != nil {
		return err
	}
	p.base = base
	return nil
}

// directiveIRI reads the IRI ending a directive and, for the @ forms,
// the final '.'.
func (p *Reader) directiveIRI(sparql bool) (string, error) {
	v, err := p.iriRefToken()
	if err != nil || sparql {
		return v, err
	}
	return v, p.directiveDot()
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
