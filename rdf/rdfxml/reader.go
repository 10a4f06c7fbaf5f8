package rdfxml

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/iri"
)

const (
	xmlNS   = "http://www.w3.org/XML/1998/namespace"
	xmlnsNS = "xmlns" // how encoding/xml names xmlns:p attributes' space
)

// Reader reads the triples of one RDF/XML document. It implements
// rdf.PrefixReader; every quad is in the default graph. After an error it
// returns that same error from then on.
type Reader struct {
	dec   *xml.Decoder
	pos   *posReader
	name  string
	base  string
	stack []*frame
	queue []rdf.Quad
	err   error
	// bnodes numbers generated blank nodes. Their labels start with a
	// digit, which an rdf:nodeID (an XML NCName) cannot, so they never
	// clash with the document's own labels.
	bnodes int
	// line and col locate the token being processed, for errors.
	line, col int
	seenRoot  bool
	prefixes  map[string]string
}

// NewReader returns a reader of the RDF/XML document r. opts.Base is the
// document's base IRI (overridden by xml:base); opts.Name names it in
// errors.
func NewReader(r io.Reader, opts rdf.ParseOptions) *Reader {
	p := newPosReader(r)
	d := xml.NewDecoder(p)
	return &Reader{dec: d, pos: p, name: opts.Name, base: opts.Base, prefixes: map[string]string{}}
}

// Next returns the next triple as a quad of the default graph, io.EOF at
// the end of the document, or a *rdf.ParseError.
func (r *Reader) Next() (rdf.Quad, error) {
	for len(r.queue) == 0 {
		if r.err != nil {
			return rdf.Quad{}, r.err
		}
		r.err = r.step()
	}
	q := r.queue[0]
	r.queue = r.queue[1:]
	return q, nil
}

// step processes one XML token.
func (r *Reader) step() error {
	r.line, r.col = r.pos.at(r.dec.InputOffset())
	tok, err := r.dec.Token()
	if err == io.EOF {
		if !r.seenRoot {
			return r.errorf("no RDF/XML document element")
		}
		return io.EOF
	}
	if err != nil {
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			err = errors.New(se.Msg)
		}
		r.line, r.col = r.pos.at(r.dec.InputOffset())
		return r.errorf("XML: %v", err)
	}
	switch t := tok.(type) {
	case xml.StartElement:
		return r.start(t)
	case xml.EndElement:
		return r.end()
	case xml.CharData:
		return r.text(t)
	case xml.ProcInst:
		if f := r.top(); f != nil && f.kind == kindLiteral {
			f.lit.procInst(t)
		}
	}
	// Comments and directives carry no triples.
	return nil
}

// Prefixes returns the namespace prefixes declared so far (xmlns:p), so a
// conversion to Turtle can keep them. A prefix declared twice keeps its
// first namespace.
func (r *Reader) Prefixes() map[string]string { return r.prefixes }

func (r *Reader) errorf(format string, args ...any) error {
	return &rdf.ParseError{Name: r.name, Line: r.line, Col: r.col, Msg: fmt.Sprintf(format, args...)}
}

func (r *Reader) top() *frame {
	if len(r.stack) == 0 {
		return nil
	}
	return r.stack[len(r.stack)-1]
}

func (r *Reader) emit(s, p, o rdf.Term) {
	r.queue = append(r.queue, rdf.Quad{S: s, P: p, O: o})
}

// emitStatement emits the triple a property element stands for, and its
// reification when the element has an rdf:ID.
func (r *Reader) emitStatement(f *frame, o rdf.Term) {
	r.emit(f.subj, f.pred, o)
	if f.reify.IsZero() {
		return
	}
	r.emit(f.reify, rdf.IRI(rdf.RDFType), rdf.IRI(rdf.RDFNS+"Statement"))
	r.emit(f.reify, rdf.IRI(rdf.RDFNS+"subject"), f.subj)
	r.emit(f.reify, rdf.IRI(rdf.RDFNS+"predicate"), f.pred)
	r.emit(f.reify, rdf.IRI(rdf.RDFNS+"object"), o)
}

func (r *Reader) newBlank() rdf.Term {
	r.bnodes++
	return rdf.Blank(strconv.Itoa(r.bnodes) + "b")
}

// resolve resolves an IRI reference against the in-scope base.
func (r *Reader) resolve(base, ref string) (rdf.Term, error) {
	if iri.IsAbsolute(ref) {
		s, err := iri.Resolve("", ref)
		if err != nil {
			return rdf.Term{}, r.errorf("bad IRI %q: %v", ref, err)
		}
		return rdf.IRI(s), nil
	}
	if base == "" {
		return rdf.Term{}, r.errorf("relative IRI %q and no base IRI (give one, or use xml:base)", ref)
	}
	s, err := iri.Resolve(base, ref)
	if err != nil {
		return rdf.Term{}, r.errorf("cannot resolve %q against base %q: %v", ref, base, err)
	}
	return rdf.IRI(s), nil
}

// elementIRI returns the IRI an element or attribute name stands for.
func (r *Reader) elementIRI(n xml.Name) (rdf.Term, error) {
	s := n.Space + n.Local
	if n.Space == "" || !iri.IsAbsolute(s) {
		if n.Space == "" {
			return rdf.Term{}, r.errorf("name %q is in no namespace, so it names no IRI", n.Local)
		}
		return rdf.Term{}, r.errorf("prefix %q of %s:%s is not declared", n.Space, n.Space, n.Local)
	}
	return rdf.IRI(s), nil
}

func isSpace(s []byte) bool {
	return len(strings.Trim(string(s), " \t\r\n")) == 0
}

func (r *Reader) text(t xml.CharData) error {
	f := r.top()
	switch {
	case f == nil:
		return nil // whitespace around the document element
	case f.kind == kindLiteral:
		f.lit.text(t)
		return nil
	case f.kind == kindProperty && !f.empty && f.obj.IsZero():
		f.buf = append(f.buf, t...)
		return nil
	case isSpace(t):
		return nil
	case f.kind == kindProperty:
		return r.errorf("text %q not allowed in a property element that has a node or rdf:resource, rdf:nodeID or property attributes", clip(string(t)))
	}
	return r.errorf("text %q not allowed here: expected %s", clip(string(t)), f.kind.expects())
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
