// Package xpath compiles and evaluates the XPath 1.0 patterns of the
// application knowledge base over virtual documents (package vdoc), and
// finds the literals a pattern requires so that a detection index can skip
// patterns whose literals a page lacks.
//
// Evaluation is antchfx/xpath's; this package makes a compiled expression
// safe for concurrent use and gives its results as nodes and strings.
package xpath

import (
	"fmt"
	"strings"
	"sync"

	"github.com/antchfx/htmlquery"
	"github.com/antchfx/xpath"
	"golang.org/x/net/html"
)

// Expr is a compiled XPath expression, safe for concurrent use.
type Expr struct {
	src     string
	expr    *xpath.Expr
	nodeSet bool
	// mu serialises Evaluate of expressions that are not node-sets:
	// antchfx evaluates them in the compiled query's own state. Node-set
	// expressions are evaluated on a private clone (Expr.Select) instead.
	mu sync.Mutex
	// Literals are the strings the expression requires in the markup
	// (RequiredLiterals).
	Literals []string
	// plan is the native form (fast.go), nil outside its fragment.
	plan *plan
}

// Compile compiles src. Errors name the column where the literal analysis
// found the syntax error, or quote antchfx's message.
func Compile(src string) (*Expr, error) {
	tree, err := parse(src)
	if err != nil {
		return nil, err
	}
	x, err := xpath.Compile(src)
	if err != nil {
		return nil, fmt.Errorf("invalid XPath: %v", err)
	}
	e := &Expr{src: src, expr: x, Literals: requiredOf(tree), plan: compilePlan(tree)}
	_, e.nodeSet = x.Evaluate(htmlquery.CreateXPathNavigator(&html.Node{Type: html.DocumentNode})).(*xpath.NodeIterator)
	return e, nil
}

// NodeSet reports whether the expression selects nodes (Select, First)
// rather than computing a string, number or boolean (Value).
func (e *Expr) NodeSet() bool { return e.nodeSet }

// String returns the source of the expression.
func (e *Expr) String() string { return e.src }

// Item is one node an expression selected. For an attribute, Node is its
// element, Attr its name and Value its value; for a text or comment node,
// Value is its text; for an element, Value is empty (see Text).
type Item struct {
	Node  *html.Node
	Attr  string
	Value string
}

// Text returns the value of an attribute or text node, or the text content
// of an element.
func (it Item) Text() string {
	if it.Attr != "" || it.Node.Type != html.ElementNode {
		return it.Value
	}
	return htmlquery.InnerText(it.Node)
}

// Select returns the nodes the expression selects with context n; an
// expression that is not a node-set selects nothing.
func (e *Expr) Select(n *html.Node) []Item {
	if !e.nodeSet {
		return nil
	}
	var out []Item
	it := e.expr.Select(navAt(n))
	for it.MoveNext() {
		out = append(out, itemAt(it))
	}
	return out
}

// First returns the first node the expression selects with context n.
func (e *Expr) First(n *html.Node) (Item, bool) {
	if !e.nodeSet {
		return Item{}, false
	}
	it := e.expr.Select(navAt(n))
	if !it.MoveNext() {
		return Item{}, false
	}
	return itemAt(it), true
}

// itemAt is the node an iterator is at.
func itemAt(it *xpath.NodeIterator) Item {
	nav := it.Current().(*htmlquery.NodeNavigator)
	item := Item{Node: nav.Current()}
	switch nav.NodeType() {
	case xpath.AttributeNode:
		item.Attr = nav.LocalName()
		item.Value = nav.Value()
	case xpath.TextNode, xpath.CommentNode:
		item.Value = nav.Value()
	}
	return item
}

// Match reports whether the expression is true with context n: a
// non-empty node-set, true, a non-empty string or a non-zero number.
func (e *Expr) Match(n *html.Node) bool {
	if e.nodeSet {
		return e.expr.Select(navAt(n)).MoveNext()
	}
	e.mu.Lock()
	v := e.expr.Evaluate(navAt(n))
	e.mu.Unlock()
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return v != ""
	case float64:
		return v != 0 && v == v
	}
	return false
}

// MatchIndexed is Match with the document node root as context, answered
// by the native evaluator from ix when the expression is in its fragment.
func (e *Expr) MatchIndexed(root *html.Node, ix Indexed) bool {
	if e.plan != nil {
		return e.plan.match(root, ix)
	}
	return e.Match(root)
}

// Native reports whether MatchIndexed evaluates the expression natively.
func (e *Expr) Native() bool { return e.plan != nil }

// Value returns the string value of the expression with context n: the
// text of the first node selected, or the value of a string, number or
// boolean, with white space collapsed.
func (e *Expr) Value(n *html.Node) string {
	if e.nodeSet {
		it, ok := e.First(n)
		if !ok {
			return ""
		}
		return Collapse(it.Text())
	}
	e.mu.Lock()
	v := e.expr.Evaluate(navAt(n))
	e.mu.Unlock()
	return Collapse(fmt.Sprint(v))
}

// navAt returns a navigator at n whose root is the root of n's tree, so
// that an absolute path (//link[@rel='canonical']) in an expression
// evaluated relative to a record still searches the whole document:
// htmlquery's navigators take the node they are created on as root.
func navAt(n *html.Node) *htmlquery.NodeNavigator {
	top := n
	var chain []*html.Node
	for top.Parent != nil {
		chain = append(chain, top)
		top = top.Parent
	}
	nav := htmlquery.CreateXPathNavigator(top)
	for i := len(chain) - 1; i >= 0; i-- {
		nav.MoveToChild()
		for nav.Current() != chain[i] {
			nav.MoveToNext()
		}
	}
	return nav
}

// Collapse trims s and replaces each run of white space with one space.
func Collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
