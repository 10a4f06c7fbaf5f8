package turtle

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/internal/chars"
)

// Writer writes Turtle or TriG. It groups what arrives consecutively:
// quads of the same graph and subject share one statement (';'), and
// repeated predicates share one predicate (','). It never sorts or holds
// more than the current graph, subject and predicate, so memory stays
// bounded; give it sorted input for the most compact output.
type Writer struct {
	w        *bufio.Writer
	trig     bool
	base     string
	prefixes []prefix // sorted by name, for the header
	byNS     []prefix // longest namespace first, for abbreviation

	started bool
	inStmt  bool     // a statement is open: s and p are set
	inGraph bool     // a TriG block { } is open
	g, s, p rdf.Term // current graph, subject, predicate
	err     error
	buf     []byte
}

type prefix struct{ name, ns string }

// NewWriter returns a Turtle writer. Quads in named graphs are refused:
// Turtle has none (use NewTriGWriter).
func NewWriter(w io.Writer, opts rdf.WriteOptions) *Writer {
	return newWriter(w, opts, false)
}

// NewTriGWriter returns a TriG writer: default-graph triples are written
// at the top level, named graphs as label { ... } blocks.
func NewTriGWriter(w io.Writer, opts rdf.WriteOptions) *Writer {
	return newWriter(w, opts, true)
}

func newWriter(w io.Writer, opts rdf.WriteOptions, trig bool) *Writer {
	wr := &Writer{w: bufio.NewWriter(w), trig: trig, base: opts.Base}
	for name, ns := range opts.Prefixes {
		if name != "" && !validPrefixName(name) {
			wr.err = fmt.Errorf("turtle: prefix name %q is not a valid Turtle PN_PREFIX", name)
		}
		if !writableIRI(ns) {
			wr.err = fmt.Errorf("turtle: namespace of prefix %q has a character IRIs cannot contain", name)
		}
		wr.prefixes = append(wr.prefixes, prefix{name, ns})
	}
	sort.Slice(wr.prefixes, func(i, j int) bool { return wr.prefixes[i].name < wr.prefixes[j].name })
	wr.byNS = append([]prefix(nil), wr.prefixes...)
	sort.SliceStable(wr.byNS, func(i, j int) bool { return len(wr.byNS[i].ns) > len(wr.byNS[j].ns) })
	return wr
}

// Write adds one quad.
func (w *Writer) Write(q rdf.Quad) error {
	if w.err != nil {
		return w.err
	}
	if err := q.Validate(); err != nil {
		return fmt.Errorf("turtle: cannot write quad: %w", err)
	}
	if !q.G.IsZero() && !w.trig {
		return fmt.Errorf("turtle: quad in named graph %s: Turtle has no named graphs (write TriG instead)", q.G)
	}
	for _, t := range [...]rdf.Term{q.S, q.P, q.O, q.G} {
		if t.IsIRI() && !writableIRI(t.Value) || t.IsLiteral() && !writableIRI(t.Datatype) {
			return fmt.Errorf("turtle: IRI in %s has a character IRIs cannot contain, so it cannot be written", t)
		}
		if t.IsBlank() && !validBlankLabel(t.Value) {
			return fmt.Errorf("turtle: blank node label %q cannot be written as a Turtle label", t.Value)
		}
		if t.Lang != "" && !validLangTag(t.Lang) {
			return fmt.Errorf("turtle: language tag %q is not valid Turtle", t.Lang)
		}
	}
	w.header()
	b := w.buf[:0]
	switch {
	case w.inStmt && q.G == w.g && q.S == w.s && q.P == w.p:
		b = append(b, ", "...)
	case w.inStmt && q.G == w.g && q.S == w.s:
		b = append(b, " ;\n"...)
		b = w.indent(b, 2)
		b = w.appendPredicate(b, q.P)
		b = append(b, ' ')
	default:
		if w.inStmt {
			b = append(b, " .\n"...)
		}
		if q.G != w.g {
			if w.inGraph {
				b = append(b, "}\n"...)
				w.inGraph = false
			}
			if !q.G.IsZero() {
				b = append(b, '\n')
				b = w.appendTerm(b, q.G)
				b = append(b, " {\n"...)
				w.inGraph = true
			}
		}
		b = w.indent(b, 1)
		b = w.appendTerm(b, q.S)
		b = append(b, ' ')
		b = w.appendPredicate(b, q.P)
		b = append(b, ' ')
	}
	b = w.appendTerm(b, q.O)
	w.buf = b
	w.inStmt, w.g, w.s, w.p = true, q.G, q.S, q.P
	if _, err := w.w.Write(b); err != nil {
		w.err = err
	}
	return w.err
}

// Close ends the open statement and graph block and flushes.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	w.header()
	if w.inStmt {
		w.w.WriteString(" .\n")
		w.inStmt = false
	}
	if w.inGraph {
		w.w.WriteString("}\n")
		w.inGraph = false
	}
	w.err = w.w.Flush()
	return w.err
}

// header writes @base and the @prefix lines before the first statement.
func (w *Writer) header() {
	if w.started {
		return
	}
	w.started = true
	b := w.buf[:0]
	if w.base != "" {
		b = append(b, "@base "...)
		b = rdf.IRI(w.base).Append(b)
		b = append(b, " .\n"...)
	}
	for _, p := range w.prefixes {
		b = append(b, "@prefix "...)
		b = append(b, p.name...)
		b = append(b, ": "...)
		b = rdf.IRI(p.ns).Append(b)
		b = append(b, " .\n"...)
	}
	if len(b) > 0 {
		b = append(b, '\n')
	}
	w.buf = b
	w.w.Write(b)
}

// indent writes the indentation of a statement (level 1) or of a
// continued predicate (level 2); inside a TriG block one more level.
func (w *Writer) indent(b []byte, level int) []byte {
	if w.inGraph {
		level++
	}
	for i := 1; i < level; i++ {
		b = append(b, "    "...)
	}
	return b
}

func (w *Writer) appendPredicate(b []byte, p rdf.Term) []byte {
	if p.Value == rdf.RDFType {
		return append(b, 'a')
	}
	return w.appendTerm(b, p)
}

func (w *Writer) appendTerm(b []byte, t rdf.Term) []byte {
	switch t.Kind {
	case rdf.KindIRI:
		return w.appendIRI(b, t.Value)
	case rdf.KindBlank:
		b = append(b, "_:"...)
		return append(b, t.Value...)
	}
	return w.appendLiteral(b, t)
}

// appendIRI writes a prefixed name when a prefix's namespace starts the
// IRI and the rest is a valid local name, else <iri>.
func (w *Writer) appendIRI(b []byte, v string) []byte {
	for _, p := range w.byNS {
		if strings.HasPrefix(v, p.ns) && validLocal(v[len(p.ns):]) {
			b = append(b, p.name...)
			b = append(b, ':')
			return append(b, v[len(p.ns):]...)
		}
	}
	return rdf.IRI(v).Append(b)
}

func (w *Writer) appendLiteral(b []byte, t rdf.Term) []byte {
	switch t.Datatype {
	case rdf.XSDInteger, rdf.XSDDecimal, rdf.XSDDouble:
		if k, ok := numberKind(t.Value); ok && numberDatatype[k] == t.Datatype {
			return append(b, t.Value...)
		}
	case rdf.XSDBoolean:
		if t.Value == "true" || t.Value == "false" {
			return append(b, t.Value...)
		}
	}
	b = appendString(b, t.Value)
	switch {
	case t.Lang != "":
		b = append(b, '@')
		b = append(b, t.Lang...)
	case t.Datatype != rdf.XSDString:
		b = append(b, "^^"...)
		b = w.appendIRI(b, t.Datatype)
	}
	return b
}

var numberDatatype = map[tokKind]string{tInteger: rdf.XSDInteger, tDecimal: rdf.XSDDecimal, tDouble: rdf.XSDDouble}

// appendString writes s as a string literal: long form ("""...""") when
// it spans lines, so that multi-line text stays readable.
func appendString(b []byte, s string) []byte {
	if !strings.Contains(s, "\n") {
		b = append(b, '"')
		return append(rdf.AppendEscaped(b, s), '"')
	}
	b = append(b, `"""`...)
	// Keep newlines raw in the long form; every other character is
	// escaped as in a short string, which is also valid inside """.
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b = append(b, '\n')
		}
		b = rdf.AppendEscaped(b, line)
	}
	return append(b, `"""`...)
}

// numberKind tells whether s as a whole is a Turtle INTEGER, DECIMAL or
// DOUBLE token, so that writing it bare re-parses to the same literal.
func numberKind(s string) (tokKind, bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	whole, frac, kind := digits(), 0, tInteger
	if i < len(s) && s[i] == '.' {
		i++
		frac, kind = digits(), tDecimal
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, false
		}
		kind = tDouble
	}
	switch {
	case i != len(s):
		return 0, false
	case kind == tInteger:
		return kind, whole > 0
	case kind == tDecimal:
		return kind, frac > 0
	}
	return kind, whole > 0 || frac > 0
}

// writableIRI reports whether an IRI has none of the characters IRIREF
// forbids even as \u escapes, so that it reads back as written.
func writableIRI(s string) bool {
	return !strings.ContainsFunc(s, isIRIForbidden)
}

func validPrefixName(s string) bool {
	for i, r := range s {
		switch {
		case i == 0 && !chars.PNCharsBase(r):
			return false
		case r == '.' && i == len(s)-1, r != '.' && !chars.PNChars(r):
			return false
		}
	}
	return s != ""
}

// validLocal reports whether s can be written unescaped as PN_LOCAL
// (possibly empty); %XX sequences are kept as they are.
func validLocal(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '%':
			if i+2 >= len(s) || !chars.IsHex(s[i+1]) || !chars.IsHex(s[i+2]) {
				return false
			}
			n = 3
		case r == '.':
			if i == 0 || i+1 == len(s) {
				return false
			}
		case r == ':' || chars.PNCharsU(r) || chars.IsDigit(r):
		case chars.PNChars(r):
			if i == 0 {
				return false
			}
		default:
			return false
		}
		i += n
	}
	return true
}

func validBlankLabel(s string) bool {
	for i, r := range s {
		switch {
		case i == 0 && !chars.PNCharsU(r) && !chars.IsDigit(r):
			return false
		case r == '.' && i == len(s)-1, r != '.' && !chars.PNChars(r):
			return false
		}
	}
	return s != ""
}

func validLangTag(s string) bool {
	for i, part := range strings.Split(s, "-") {
		if part == "" {
			return false
		}
		for _, r := range part {
			if !chars.IsLetter(r) && (i == 0 || !chars.IsDigit(r)) {
				return false
			}
		}
	}
	return true
}
