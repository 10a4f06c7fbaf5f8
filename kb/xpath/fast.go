package xpath

import (
	"strings"

	"github.com/antchfx/htmlquery"
	"golang.org/x/net/html"
)

// Indexed is a document that lists its elements by name in document order
// ("*": all), as vdoc.Doc does after one walk.
type Indexed interface {
	Elements(name string) []*html.Node
}

// The native evaluator covers the fragment of XPath detection patterns are
// written in: an absolute location path of child and descendant steps with
// name tests (the last step may select an attribute), whose predicates
// combine with and, or and not() comparisons of an attribute, of the
// string value (.), of text() or of normalize-space/concat over them with literals
// (=, !=, contains, starts-with, ends-with), and relative paths of the
// same kind tested for existence. Its first step is answered from the
// document's element index, so patterns sharing a first element name share
// the one walk that built it; an expression outside the fragment is left
// to antchfx.

// plan is an expression compiled to the native form.
type plan struct{ steps []pstep }

type pstep struct {
	desc bool
	name string // element name or "*"; the attribute's for attr
	attr bool
	pred func(*html.Node) bool // nil: none
}

// compilePlan returns the native form of e, nil when e is outside the
// fragment.
func compilePlan(e *node) *plan {
	if e.kind == nFunc && e.op == "boolean" && len(e.args) == 1 {
		e = e.args[0]
	}
	if e.kind != nPath || !e.abs {
		return nil
	}
	steps, ok := compileSteps(e)
	if !ok || len(steps) == 0 {
		return nil
	}
	return &plan{steps: steps}
}

// compileSteps compiles the steps of a location path without filter
// expression; a leading self::node() (".") is dropped.
func compileSteps(e *node) ([]pstep, bool) {
	if len(e.args) > 0 || len(e.steps) == 0 {
		return nil, false
	}
	var out []pstep
	for i, st := range e.steps {
		if st.axis == "self" && st.name == "node()" && !st.desc && len(st.preds) == 0 && i == 0 {
			continue
		}
		ps := pstep{desc: st.desc, name: st.name}
		switch {
		case st.axis == "attribute" && i == len(e.steps)-1 && !st.desc && len(st.preds) == 0 && st.name != "" && st.name != "*":
			ps.attr = true
		case st.axis == "child" && st.name != "" && !strings.HasSuffix(st.name, "()"):
		default:
			return nil, false
		}
		if len(st.preds) > 0 {
			var preds []func(*html.Node) bool
			for _, pr := range st.preds {
				f, ok := compilePred(pr)
				if !ok {
					return nil, false
				}
				preds = append(preds, f)
			}
			ps.pred = all(preds)
		}
		out = append(out, ps)
	}
	return out, true
}

func all(preds []func(*html.Node) bool) func(*html.Node) bool {
	if len(preds) == 1 {
		return preds[0]
	}
	return func(n *html.Node) bool {
		for _, p := range preds {
			if !p(n) {
				return false
			}
		}
		return true
	}
}

// compilePred compiles a predicate evaluated with an element as context.
func compilePred(e *node) (func(*html.Node) bool, bool) {
	switch e.kind {
	case nBinary:
		switch e.op {
		case "and", "or":
			a, ok1 := compilePred(e.args[0])
			b, ok2 := compilePred(e.args[1])
			if !ok1 || !ok2 {
				return nil, false
			}
			if e.op == "and" {
				return func(n *html.Node) bool { return a(n) && b(n) }, true
			}
			return func(n *html.Node) bool { return a(n) || b(n) }, true
		case "=", "!=":
			x, lit := e.args[0], e.args[1]
			if x.kind == nLiteral {
				x, lit = lit, x
			}
			if lit.kind != nLiteral {
				return nil, false
			}
			eq := e.op == "="
			// A comparison with a node-set is true when some node's value
			// compares true: with a missing attribute, neither = nor != is.
			if name, ok := attrStep(x); ok {
				return func(n *html.Node) bool {
					v, has := attrValue(n, name)
					return has && (v == lit.str) == eq
				}, true
			}
			if s, ok := compileString(x); ok {
				return func(n *html.Node) bool { return (s(n) == lit.str) == eq }, true
			}
		}
	case nFunc:
		switch e.op {
		case "contains", "starts-with", "ends-with":
			if len(e.args) != 2 || e.args[1].kind != nLiteral {
				return nil, false
			}
			s, ok := compileString(e.args[0])
			if !ok {
				return nil, false
			}
			lit := e.args[1].str
			test := map[string]func(string, string) bool{"contains": strings.Contains,
				"starts-with": strings.HasPrefix, "ends-with": strings.HasSuffix}[e.op]
			return func(n *html.Node) bool { return test(s(n), lit) }, true
		case "not", "boolean":
			if len(e.args) != 1 {
				return nil, false
			}
			f, ok := compilePred(e.args[0])
			if !ok {
				return nil, false
			}
			if e.op == "boolean" {
				return f, true
			}
			return func(n *html.Node) bool { return !f(n) }, true
		}
	case nPath:
		if e.abs {
			return nil, false
		}
		steps, ok := compileSteps(e)
		if !ok {
			return nil, false
		}
		if len(steps) == 0 { // "." alone: an element exists
			return func(*html.Node) bool { return true }, true
		}
		return func(n *html.Node) bool { return walkFrom(n, steps) }, true
	}
	return nil, false
}

// attrStep reports whether e is the relative path @name.
func attrStep(e *node) (string, bool) {
	if e.kind != nPath || e.abs || len(e.args) > 0 || len(e.steps) != 1 {
		return "", false
	}
	st := e.steps[0]
	if st.axis != "attribute" || st.desc || len(st.preds) > 0 || st.name == "" || st.name == "*" {
		return "", false
	}
	return st.name, true
}

// compileString compiles an expression converted to a string: @name, .,
// a literal, normalize-space() or concat() of those.
func compileString(e *node) (func(*html.Node) string, bool) {
	if name, ok := attrStep(e); ok {
		return func(n *html.Node) string { v, _ := attrValue(n, name); return v }, true
	}
	switch e.kind {
	case nLiteral:
		s := e.str
		return func(*html.Node) string { return s }, true
	case nPath:
		if e.abs || len(e.args) > 0 || len(e.steps) != 1 || len(e.steps[0].preds) > 0 || e.steps[0].desc {
			break
		}
		switch st := e.steps[0]; {
		case st.axis == "self":
			return htmlquery.InnerText, true
		case st.axis == "child" && st.name == "text()":
			return firstText, true
		}
	case nFunc:
		switch {
		case e.op == "normalize-space" && len(e.args) == 1:
			s, ok := compileString(e.args[0])
			if !ok {
				return nil, false
			}
			return func(n *html.Node) string { return strings.Join(strings.Fields(s(n)), " ") }, true
		case e.op == "concat" && len(e.args) >= 2:
			parts := make([]func(*html.Node) string, len(e.args))
			for i, a := range e.args {
				f, ok := compileString(a)
				if !ok {
					return nil, false
				}
				parts[i] = f
			}
			return func(n *html.Node) string {
				var b strings.Builder
				for _, f := range parts {
					b.WriteString(f(n))
				}
				return b.String()
			}, true
		}
	}
	return nil, false
}

// firstText is the string value of text() as a string: its first node's.
func firstText(n *html.Node) string {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			return c.Data
		}
	}
	return ""
}

func attrValue(n *html.Node, name string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == name && a.Namespace == "" {
			return a.Val, true
		}
	}
	return "", false
}

// matches reports whether element n passes step s's name test and
// predicates.
func (s *pstep) matches(n *html.Node) bool {
	return n.Type == html.ElementNode && (s.name == "*" || n.Data == s.name) && (s.pred == nil || s.pred(n))
}

// walkFrom reports whether steps select some node from context n.
func walkFrom(n *html.Node, steps []pstep) bool {
	s := &steps[0]
	if s.attr {
		_, ok := attrValue(n, s.name)
		return ok
	}
	rest := steps[1:]
	found := false
	var visit func(c *html.Node)
	visit = func(c *html.Node) {
		for ; c != nil && !found; c = c.NextSibling {
			if s.matches(c) && (len(rest) == 0 || walkFrom(c, rest)) {
				found = true
				return
			}
			if s.desc {
				visit(c.FirstChild)
			}
		}
	}
	visit(n.FirstChild)
	return found
}

// match evaluates the plan on the document whose root is root.
func (p *plan) match(root *html.Node, ix Indexed) bool {
	s := &p.steps[0]
	if !s.desc || s.attr {
		return walkFrom(root, p.steps)
	}
	rest := p.steps[1:]
	for _, n := range ix.Elements(s.name) {
		if (s.pred == nil || s.pred(n)) && (len(rest) == 0 || walkFrom(n, rest)) {
			return true
		}
	}
	return false
}
