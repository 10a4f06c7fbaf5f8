package w3c

import (
	"net/url"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
)

// Graph is the content of one manifest file, indexed by subject so that
// a test entry and the nodes it points to can be walked. Objects keep
// their document order.
type Graph struct {
	props map[rdf.Term]*properties
}

type properties struct {
	order []string // predicates in first-seen order
	objs  map[string][]rdf.Term
}

// NewGraph indexes quads (graph names are ignored: manifests are
// single-graph documents).
func NewGraph(quads []rdf.Quad) *Graph {
	g := &Graph{props: map[rdf.Term]*properties{}}
	for _, q := range quads {
		p := g.props[q.S]
		if p == nil {
			p = &properties{objs: map[string][]rdf.Term{}}
			g.props[q.S] = p
		}
		if _, ok := p.objs[q.P.Value]; !ok {
			p.order = append(p.order, q.P.Value)
		}
		p.objs[q.P.Value] = append(p.objs[q.P.Value], q.O)
	}
	return g
}

// Node returns t as a node of g.
func (g *Graph) Node(t rdf.Term) Node { return Node{Term: t, g: g} }

// subjects returns the nodes that have obj as a value of pred.
func (g *Graph) subjects(pred string, obj rdf.Term) []Node {
	var out []Node
	for s, p := range g.props {
		for _, o := range p.objs[pred] {
			if o == obj {
				out = append(out, g.Node(s))
				break
			}
		}
	}
	return out
}

// Node is a term of a manifest graph together with that graph, so its
// properties can be read generically: Get(QT+"query"), All(UT+"graphData"),
// List() for collections. The zero Node stands for "absent"; reading it
// gives zero Nodes and empty strings.
type Node struct {
	Term rdf.Term
	g    *Graph
}

// IsZero reports whether n is absent.
func (n Node) IsZero() bool { return n.Term.IsZero() }

// All returns the objects of n's pred property in document order.
func (n Node) All(pred string) []Node {
	if n.g == nil {
		return nil
	}
	p := n.g.props[n.Term]
	if p == nil {
		return nil
	}
	objs := p.objs[pred]
	out := make([]Node, len(objs))
	for i, o := range objs {
		out[i] = Node{Term: o, g: n.g}
	}
	return out
}

// Get returns the first object of n's pred property, or the zero Node.
func (n Node) Get(pred string) Node {
	if all := n.All(pred); len(all) > 0 {
		return all[0]
	}
	return Node{}
}

// Text returns the value (IRI, literal lexical form or blank label) of the
// first object of pred, or "".
func (n Node) Text(pred string) string { return n.Get(pred).Term.Value }

// Predicates returns the IRIs of n's properties in document order.
func (n Node) Predicates() []string {
	if n.g == nil || n.g.props[n.Term] == nil {
		return nil
	}
	return n.g.props[n.Term].order
}

// List returns the members of the RDF collection n heads (rdf:first /
// rdf:rest down to rdf:nil). It stops at a malformed or cyclic list
// rather than looping.
func (n Node) List() []Node {
	var out []Node
	seen := map[rdf.Term]bool{}
	for cur := n; !cur.IsZero() && cur.Term.Value != rdf.RDFNil && !seen[cur.Term]; cur = cur.Get(rdf.RDFRest) {
		seen[cur.Term] = true
		first := cur.Get(rdf.RDFFirst)
		if first.IsZero() {
			break
		}
		out = append(out, first)
	}
	return out
}

// Path returns the local file path of a file: IRI node (manifests are
// loaded with file: base IRIs, so mf:action <x.ttl> becomes one), or ""
// for any other node.
func (n Node) Path() string {
	if !n.Term.IsIRI() || !strings.HasPrefix(n.Term.Value, "file:") {
		return ""
	}
	u, err := url.Parse(n.Term.Value)
	if err != nil {
		return ""
	}
	return u.Path
}

// fileIRI returns the file: IRI of an absolute local path.
func fileIRI(path string) string {
	return (&url.URL{Scheme: "file", Path: path}).String()
}
