package xpath

import (
	"fmt"
	"strings"
	"unicode"
)

// RequiredLiterals returns string literals that every document on which
// src is true must contain verbatim in its markup (or in one value of its
// <http> element: URL, header, cookie; see vdoc.Doc.Lower). A detection
// index searches documents for these literals first and evaluates src
// only where one is present.
//
// The analysis is conservative: a literal counts only where the
// expression cannot be true without it — the name of an attribute the
// expression needs to exist, a string compared with '=' to, or the
// second argument of contains/starts-with/ends-with on, an attribute, a
// text() node or an element of <http>, whose values are contiguous in the
// markup (an HTML element's string value is not: markup may split it) —
// and only through 'and', predicates and path steps; 'or', '|', not() and
// every other function contribute nothing. It assumes the literal is not
// written with character references in the markup.
func RequiredLiterals(src string) ([]string, error) {
	e, err := parse(src)
	if err != nil {
		return nil, err
	}
	return requiredOf(e), nil
}

// parse parses src into the tree the literal analysis and the native
// evaluator work on.
func parse(src string) (*node, error) {
	p := &parser{src: src}
	if err := p.lex(); err != nil {
		return nil, err
	}
	e, err := p.parseExpr()
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) {
		return nil, p.errorf("unexpected %q", p.toks[p.pos].text)
	}
	return e, nil
}

func requiredOf(e *node) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range required(e, false) {
		if l != "" && !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// node is a parsed XPath expression, kept only as far as the literal
// analysis needs it.
type node struct {
	kind  nodeKind
	op    string  // operator, function name
	str   string  // literal value
	args  []*node // operands, arguments
	preds []*node // predicates of a path's steps or of a filter
	// A location path's steps, for the native evaluator (fast.go);
	// abs marks a path from the root. A filter expression has none.
	steps []*step
	abs   bool
}

// step is one step of a location path.
type step struct {
	desc  bool   // after "//": descendant-or-self::node()/ first
	axis  string // child, attribute, self, parent or an explicit axis
	name  string // name test, "*", or a node-type test such as "text()"
	preds []*node
}

type nodeKind int

const (
	nLiteral nodeKind = iota
	nNumber
	nBinary
	nFunc
	nPath // a location path or filter expression: a node-set
	nOther
)

// required returns the literals e requires; inHTTP tells that the
// context node's string value is one run of the markup (an element of
// <http>, a comment, a text node).
func required(e *node, inHTTP bool) []string {
	switch e.kind {
	case nBinary:
		switch e.op {
		case "and":
			return append(required(e.args[0], inHTTP), required(e.args[1], inHTTP)...)
		case "=":
			a, b := e.args[0], e.args[1]
			if a.kind == nLiteral {
				a, b = b, a
			}
			switch {
			case a.kind == nPath && b.kind == nLiteral:
				out := required(a, inHTTP)
				if contiguous(a, inHTTP) {
					out = append(out, b.str)
				}
				return out
			case a.kind == nPath && b.kind == nPath:
				return append(required(a, inHTTP), required(b, inHTTP)...)
			}
		}
	case nFunc:
		switch e.op {
		case "contains", "starts-with", "ends-with":
			if len(e.args) == 2 && e.args[0].kind == nPath && e.args[1].kind == nLiteral {
				out := required(e.args[0], inHTTP)
				if contiguous(e.args[0], inHTTP) {
					out = append(out, e.args[1].str)
				}
				return out
			}
		case "boolean":
			if len(e.args) == 1 {
				return required(e.args[0], inHTTP)
			}
		}
	case nPath:
		var out []string
		for _, a := range e.args {
			out = append(out, required(a, inHTTP)...)
		}
		if len(e.steps) == 0 {
			for _, p := range e.preds {
				out = append(out, required(p, inHTTP)...)
			}
			return out
		}
		if e.abs {
			inHTTP = !e.steps[0].desc && e.steps[0].axis == "child" && e.steps[0].name == "http"
		}
		for _, st := range e.steps {
			// An attribute the path needs is in the markup by its name
			// (not so the attributes of <http>'s synthetic elements).
			if st.axis == "attribute" && st.name != "" && st.name != "*" && !inHTTP {
				out = append(out, st.name)
			}
			// A comment or text node's string value is one run too.
			flat := inHTTP || st.name == "comment()" || st.name == "text()"
			for _, p := range st.preds {
				out = append(out, required(p, flat)...)
			}
		}
		return out
	}
	return nil
}

// contiguous reports whether the string value of the first node path
// selects is one run of the markup: an attribute, a text node, or the
// context node itself when that is an element of <http>.
func contiguous(path *node, inHTTP bool) bool {
	if len(path.steps) == 0 || len(path.args) > 0 {
		return false
	}
	last := path.steps[len(path.steps)-1]
	switch {
	case last.axis == "attribute", last.name == "text()":
		return true
	case inHTTP && !path.abs && len(path.steps) == 1 && last.axis == "self":
		return true
	}
	return false
}

// SyntaxError is an XPath syntax error at a column (a byte offset in the
// expression, from 1).
type SyntaxError struct {
	Col int
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

type token struct {
	text string
	kind tokKind
	col  int
}

type tokKind int

const (
	tName tokKind = iota
	tLiteral
	tNumber
	tOp
)

type parser struct {
	src  string
	toks []token
	pos  int
}

func (p *parser) errorf(format string, args ...any) error {
	col := len(p.src) + 1
	if p.pos < len(p.toks) {
		col = p.toks[p.pos].col
	}
	return &SyntaxError{Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) lex() error {
	s := p.src
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return &SyntaxError{Col: i + 1, Msg: "unterminated string literal"}
			}
			p.toks = append(p.toks, token{s[i+1 : i+1+j], tLiteral, i + 1})
			i += j + 2
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
			p.toks = append(p.toks, token{s[i:j], tNumber, i + 1})
			i = j
		case isNameStart(rune(c)) || c >= 0x80:
			j := i
			for j < len(s) && (isNameChar(rune(s[j])) || s[j] >= 0x80) {
				j++
			}
			// A name ends before "::" or a single ":" that is not a prefix.
			p.toks = append(p.toks, token{s[i:j], tName, i + 1})
			i = j
		default:
			op := string(c)
			if i+1 < len(s) {
				switch two := s[i : i+2]; two {
				case "//", "!=", "<=", ">=", "::", "..":
					op = two
				}
			}
			if !strings.Contains("/[]()@,|=!<>*+-.:$", op[:1]) || op == "!" {
				return &SyntaxError{Col: i + 1, Msg: fmt.Sprintf("unexpected character %q", op)}
			}
			p.toks = append(p.toks, token{op, tOp, i + 1})
			i += len(op)
		}
	}
	return nil
}

func isNameStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isNameChar(r rune) bool {
	return isNameStart(r) || r == '-' || r == '.' || unicode.IsDigit(r)
}

func (p *parser) peek() token {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return token{kind: -1}
}

func (p *parser) isOp(text string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == text
}

func (p *parser) expect(text string) error {
	if !p.isOp(text) {
		if p.pos >= len(p.toks) {
			return p.errorf("expected %q at the end", text)
		}
		return p.errorf("expected %q, found %q", text, p.peek().text)
	}
	p.pos++
	return nil
}

// binary parses left-associative levels of the grammar, from 'or' down.
var levels = [][]string{{"or"}, {"and"}, {"=", "!="}, {"<", "<=", ">", ">="}, {"+", "-"}, {"*", "div", "mod"}}

func (p *parser) parseExpr() (*node, error) { return p.parseLevel(0) }

func (p *parser) parseLevel(l int) (*node, error) {
	if l == len(levels) {
		return p.parseUnary()
	}
	left, err := p.parseLevel(l + 1)
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != tOp && t.kind != tName || !contains(levels[l], t.text) {
			return left, nil
		}
		p.pos++
		right, err := p.parseLevel(l + 1)
		if err != nil {
			return nil, err
		}
		left = &node{kind: nBinary, op: t.text, args: []*node{left, right}}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *parser) parseUnary() (*node, error) {
	if p.isOp("-") {
		p.pos++
		if _, err := p.parseUnary(); err != nil {
			return nil, err
		}
		return &node{kind: nOther}, nil
	}
	left, err := p.parsePath()
	if err != nil {
		return nil, err
	}
	for p.isOp("|") {
		p.pos++
		if _, err := p.parsePath(); err != nil {
			return nil, err
		}
		left = &node{kind: nOther}
	}
	return left, nil
}

var nodeTypes = map[string]bool{"text": true, "node": true, "comment": true, "processing-instruction": true}

// parsePath parses a location path or a filter expression with an
// optional path after it.
func (p *parser) parsePath() (*node, error) {
	t := p.peek()
	primary := t.kind == tLiteral || t.kind == tNumber || t.kind == tOp && (t.text == "(" || t.text == "$") ||
		t.kind == tName && !nodeTypes[t.text] && p.pos+1 < len(p.toks) && p.toks[p.pos+1].text == "("
	if !primary {
		return p.parseLocationPath()
	}
	e, err := p.parsePrimary()
	if err != nil {
		return nil, err
	}
	var preds []*node
	for p.isOp("[") {
		pr, err := p.parsePredicate()
		if err != nil {
			return nil, err
		}
		preds = append(preds, pr)
	}
	if len(preds) == 0 && !p.isOp("/") && !p.isOp("//") {
		return e, nil
	}
	path := &node{kind: nPath, preds: preds}
	if e.kind == nPath {
		path.args = []*node{e}
	}
	if p.isOp("/") || p.isOp("//") {
		desc := p.isOp("//")
		p.pos++
		rest, err := p.parseRelative(desc)
		if err != nil {
			return nil, err
		}
		path.preds = append(path.preds, rest.preds...)
	}
	return path, nil
}

func (p *parser) parsePrimary() (*node, error) {
	t := p.peek()
	p.pos++
	switch {
	case t.kind == tLiteral:
		return &node{kind: nLiteral, str: t.text}, nil
	case t.kind == tNumber:
		return &node{kind: nNumber}, nil
	case t.text == "$":
		if p.peek().kind != tName {
			return nil, p.errorf("expected a variable name after $")
		}
		p.pos++
		return &node{kind: nOther}, nil
	case t.text == "(":
		e, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		return e, p.expect(")")
	}
	// function call
	p.pos++ // "("
	f := &node{kind: nFunc, op: t.text}
	if p.isOp(")") {
		p.pos++
		return f, nil
	}
	for {
		a, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		f.args = append(f.args, a)
		if p.isOp(",") {
			p.pos++
			continue
		}
		return f, p.expect(")")
	}
}

func (p *parser) parsePredicate() (*node, error) {
	p.pos++ // "["
	e, err := p.parseExpr()
	if err != nil {
		return nil, err
	}
	return e, p.expect("]")
}

func (p *parser) parseLocationPath() (*node, error) {
	if p.isOp("/") {
		p.pos++
		if !p.startsStep() {
			return &node{kind: nPath, abs: true}, nil
		}
		path, err := p.parseRelative(false)
		if path != nil {
			path.abs = true
		}
		return path, err
	}
	if p.isOp("//") {
		p.pos++
		path, err := p.parseRelative(true)
		if path != nil {
			path.abs = true
		}
		return path, err
	}
	return p.parseRelative(false)
}

func (p *parser) startsStep() bool {
	t := p.peek()
	return t.kind == tName || t.kind == tOp && (t.text == "@" || t.text == "*" || t.text == "." || t.text == "..")
}

// parseRelative parses steps; desc tells whether "//" came before the
// first.
func (p *parser) parseRelative(desc bool) (*node, error) {
	path := &node{kind: nPath}
	for {
		if err := p.parseStep(path, desc); err != nil {
			return nil, err
		}
		if !p.isOp("/") && !p.isOp("//") {
			return path, nil
		}
		desc = p.isOp("//")
		p.pos++
	}
}

func (p *parser) parseStep(path *node, desc bool) error {
	st := &step{desc: desc, axis: "child"}
	path.steps = append(path.steps, st)
	if p.isOp(".") || p.isOp("..") {
		st.axis, st.name = "self", "node()"
		if p.isOp("..") {
			st.axis = "parent"
		}
		p.pos++
		return nil
	}
	if p.isOp("@") {
		st.axis = "attribute"
		p.pos++
	} else if p.peek().kind == tName && p.pos+1 < len(p.toks) && p.toks[p.pos+1].text == "::" {
		st.axis = p.peek().text
		p.pos += 2
	}
	t := p.peek()
	st.name = t.text
	switch {
	case t.kind == tOp && t.text == "*":
		p.pos++
	case t.kind == tName:
		p.pos++
		if p.isOp(":") { // prefix:local or prefix:*
			st.name = "" // namespaces: left to the general evaluator
			p.pos++
			if n := p.peek(); n.kind == tName || n.text == "*" {
				p.pos++
			}
		}
		if nodeTypes[t.text] && p.isOp("(") {
			st.name = t.text + "()"
			p.pos++
			if p.peek().kind == tLiteral {
				p.pos++
			}
			if err := p.expect(")"); err != nil {
				return err
			}
		}
	default:
		if p.pos >= len(p.toks) {
			return p.errorf("expected a step at the end")
		}
		return p.errorf("expected a step, found %q", t.text)
	}
	for p.isOp("[") {
		pr, err := p.parsePredicate()
		if err != nil {
			return err
		}
		path.preds = append(path.preds, pr)
		st.preds = append(st.preds, pr)
	}
	return nil
}
