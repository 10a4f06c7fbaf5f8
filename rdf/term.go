package rdf

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind tells what a Term is.
type Kind uint8

const (
	// KindNone is the zero Term. In a Quad's graph position it means the
	// default graph.
	KindNone Kind = iota
	KindIRI
	KindBlank
	KindLiteral
)

func (k Kind) String() string {
	switch k {
	case KindIRI:
		return "IRI"
	case KindBlank:
		return "blank node"
	case KindLiteral:
		return "literal"
	}
	return "none"
}

// Term is an RDF 1.1 term. It is a plain comparable value, so it can be a
// map key and compared with ==.
//
// Literals always carry their datatype: xsd:string for simple literals and
// rdf:langString for language-tagged ones (RDF 1.1 §3.3), so two literals
// are the same term exactly when their fields are equal.
type Term struct {
	Kind Kind
	// Value is the IRI, the blank node label (without "_:") or the
	// literal's lexical form.
	Value string
	// Datatype is the literal's datatype IRI; empty for other kinds.
	Datatype string
	// Lang is the literal's language tag as written; empty otherwise.
	Lang string
}

// IRI returns the IRI term for iri.
func IRI(iri string) Term { return Term{Kind: KindIRI, Value: iri} }

// Blank returns the blank node with the given label.
func Blank(label string) Term { return Term{Kind: KindBlank, Value: label} }

// String returns a simple literal (datatype xsd:string).
func String(lex string) Term {
	return Term{Kind: KindLiteral, Value: lex, Datatype: XSDString}
}

// Literal returns a literal with the given datatype; an empty datatype
// means xsd:string.
func Literal(lex, datatype string) Term {
	if datatype == "" {
		datatype = XSDString
	}
	return Term{Kind: KindLiteral, Value: lex, Datatype: datatype}
}

// LangLiteral returns a language-tagged string (datatype rdf:langString).
func LangLiteral(lex, lang string) Term {
	return Term{Kind: KindLiteral, Value: lex, Datatype: RDFLangString, Lang: lang}
}

// IsZero reports whether t is the zero Term (the default graph).
func (t Term) IsZero() bool { return t.Kind == KindNone }

// IsIRI reports whether t is an IRI.
func (t Term) IsIRI() bool { return t.Kind == KindIRI }

// IsBlank reports whether t is a blank node.
func (t Term) IsBlank() bool { return t.Kind == KindBlank }

// IsLiteral reports whether t is a literal.
func (t Term) IsLiteral() bool { return t.Kind == KindLiteral }

// Clone returns a copy of t whose strings share no memory with t's. Readers
// may return terms that alias their buffers; Clone makes them safe to keep.
func (t Term) Clone() Term {
	return Term{Kind: t.Kind, Value: strings.Clone(t.Value), Datatype: cloneDatatype(t.Datatype), Lang: strings.Clone(t.Lang)}
}

// cloneDatatype avoids copying the datatypes that almost every literal has.
func cloneDatatype(dt string) string {
	switch dt {
	case "":
		return ""
	case XSDString:
		return XSDString
	case RDFLangString:
		return RDFLangString
	case XSDInteger:
		return XSDInteger
	case XSDDecimal:
		return XSDDecimal
	case XSDDouble:
		return XSDDouble
	case XSDBoolean:
		return XSDBoolean
	case XSDDate:
		return XSDDate
	case XSDDateTime:
		return XSDDateTime
	}
	return strings.Clone(dt)
}

// String returns the canonical N-Triples form of t: <iri>, _:label,
// "lexical", "lexical"@lang or "lexical"^^<datatype>. The zero Term
// (default graph) is the empty string.
func (t Term) String() string {
	return string(t.Append(make([]byte, 0, len(t.Value)+len(t.Datatype)+8)))
}

// Append appends the canonical N-Triples form of t to dst and returns the
// extended slice; it does not allocate when dst has room.
func (t Term) Append(dst []byte) []byte {
	switch t.Kind {
	case KindIRI:
		return appendIRI(dst, t.Value)
	case KindBlank:
		dst = append(dst, '_', ':')
		return append(dst, t.Value...)
	case KindLiteral:
		dst = append(dst, '"')
		dst = AppendEscaped(dst, t.Value)
		dst = append(dst, '"')
		switch {
		case t.Lang != "":
			dst = append(dst, '@')
			dst = append(dst, t.Lang...)
		case t.Datatype != "" && t.Datatype != XSDString:
			dst = append(dst, '^', '^')
			dst = appendIRI(dst, t.Datatype)
		}
	}
	return dst
}

// appendIRI writes <iri>, escaping as \uXXXX the characters N-Triples does
// not allow inside IRIREF.
func appendIRI(dst []byte, iri string) []byte {
	dst = append(dst, '<')
	for i := 0; i < len(iri); i++ {
		c := iri[i]
		if c <= 0x20 || c == '<' || c == '>' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`' || c == '\\' {
			dst = appendUChar(dst, rune(c))
			continue
		}
		dst = append(dst, c)
	}
	return append(dst, '>')
}

// AppendEscaped appends s escaped for the inside of a double-quoted
// N-Triples/Turtle string literal, the canonical way: ECHAR for
// \b \t \n \f \r " and \\, UCHAR for the other control characters,
// everything else as UTF-8. The quotes themselves are not written.
func AppendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			if c < 0x20 || c == 0x7f {
				dst = appendUChar(dst, rune(c))
			} else {
				dst = append(dst, c)
			}
		}
	}
	return dst
}

func appendUChar(dst []byte, r rune) []byte {
	if r > 0xffff {
		dst = append(dst, '\\', 'U')
		return appendHex(dst, uint32(r), 8)
	}
	dst = append(dst, '\\', 'u')
	return appendHex(dst, uint32(r), 4)
}

func appendHex(dst []byte, v uint32, width int) []byte {
	const digits = "0123456789ABCDEF"
	for i := width - 1; i >= 0; i-- {
		dst = append(dst, digits[(v>>(4*uint(i)))&0xf])
	}
	return dst
}

// Triple is an RDF triple.
type Triple struct {
	S, P, O Term
}

// In returns the triple as a quad in graph g (the zero Term for the
// default graph).
func (t Triple) In(g Term) Quad { return Quad{S: t.S, P: t.P, O: t.O, G: g} }

// String returns the triple as one N-Triples statement without newline.
func (t Triple) String() string { return t.In(Term{}).String() }

// Quad is a triple in a graph; G is the zero Term for the default graph.
type Quad struct {
	S, P, O, G Term
}

// Triple drops the graph.
func (q Quad) Triple() Triple { return Triple{S: q.S, P: q.P, O: q.O} }

// Clone returns a copy of q that shares no memory with the reader that
// produced it.
func (q Quad) Clone() Quad {
	return Quad{S: q.S.Clone(), P: q.P.Clone(), O: q.O.Clone(), G: q.G.Clone()}
}

// Append appends q as one N-Quads statement (N-Triples when G is the
// default graph), without the final newline.
func (q Quad) Append(dst []byte) []byte {
	dst = q.S.Append(dst)
	dst = append(dst, ' ')
	dst = q.P.Append(dst)
	dst = append(dst, ' ')
	dst = q.O.Append(dst)
	if !q.G.IsZero() {
		dst = append(dst, ' ')
		dst = q.G.Append(dst)
	}
	return append(dst, ' ', '.')
}

// String returns q as one N-Quads statement without newline.
func (q Quad) String() string { return string(q.Append(nil)) }

// Validate checks the RDF 1.1 rules a quad must follow whatever syntax it
// came from: subject IRI or blank node, predicate IRI, graph IRI, blank
// node or default, literal datatypes consistent with language tags, and
// valid UTF-8 everywhere. It is ValidateKinds plus each term's Validate.
func (q Quad) Validate() error {
	if err := q.ValidateKinds(); err != nil {
		return err
	}
	for _, p := range [...]struct {
		pos string
		t   Term
	}{{"subject", q.S}, {"predicate", q.P}, {"object", q.O}, {"graph", q.G}} {
		if err := p.t.Validate(p.pos); err != nil {
			return err
		}
	}
	return nil
}

// ValidateKinds checks the rules of Validate that depend on where a term
// stands (which kinds each position takes) and not on the terms' text:
// a writer that sees the same terms many times checks the text once each
// with Term.Validate and this for every quad.
func (q Quad) ValidateKinds() error {
	if q.S.Kind != KindIRI && q.S.Kind != KindBlank {
		return &TermError{Position: "subject", Term: q.S, Reason: "must be an IRI or a blank node"}
	}
	if q.P.Kind != KindIRI {
		return &TermError{Position: "predicate", Term: q.P, Reason: "must be an IRI"}
	}
	if q.O.Kind == KindNone {
		return &TermError{Position: "object", Term: q.O, Reason: "is missing"}
	}
	if q.G.Kind == KindLiteral {
		return &TermError{Position: "graph", Term: q.G, Reason: "must be an IRI or a blank node"}
	}
	return nil
}

// Validate checks the rules of Quad.Validate that a term meets or breaks
// wherever it stands (valid UTF-8, a literal's datatype consistent with
// its language tag); position names its place in the quad for the error.
func (t Term) Validate(position string) error {
	if err := t.validate(); err != "" {
		return &TermError{Position: position, Term: t, Reason: err}
	}
	return nil
}

func (t Term) validate() string {
	if !utf8.ValidString(t.Value) || !utf8.ValidString(t.Lang) || !utf8.ValidString(t.Datatype) {
		return "is not valid UTF-8"
	}
	if t.Kind != KindLiteral {
		return ""
	}
	switch {
	case t.Lang != "" && t.Datatype != RDFLangString:
		return "has a language tag but datatype " + strconv.Quote(t.Datatype)
	case t.Lang == "" && t.Datatype == RDFLangString:
		return "has datatype rdf:langString but no language tag"
	case t.Datatype == "":
		return "has no datatype"
	}
	return ""
}

// TermError says which term of a quad breaks the RDF 1.1 rules.
type TermError struct {
	Position string // subject, predicate, object or graph
	Term     Term
	Reason   string
}

func (e *TermError) Error() string {
	return e.Position + " " + e.Term.String() + " " + e.Reason
}
