package eval

import (
	"github.com/mneme-archive/mneme/sparql/algebra"
)

func (c *compiler) compileGraph(x *algebra.Graph, bound []bool) (node, error) {
	if !x.Name.IsVar() {
		id, ok, err := c.ex.Dict.Lookup(x.Name.Term)
		if err != nil {
			return nil, err
		}
		if !ok || c.ex.Dict.isLocal(id) {
			return emptyNode{}, nil
		}
		sub, err := c.compile(x.Sub, bound)
		if err != nil {
			return nil, err
		}
		return &graphConstNode{sub: sub, id: id}, nil
	}
	slot := c.slot(x.Name.Var)
	if b, ok := x.Sub.(*algebra.BGP); ok && len(b.Triples) > 0 {
		// The graph becomes the fourth position of every pattern, so
		// the planner joins on it like on any variable.
		n, err := c.compileBGP(b.Triples, nil, slot, bound, 1)
		if err != nil {
			return nil, err
		}
		c.bgps[b] = n
		if len(n.stats) > 0 {
			c.stats[b] = n.stats[len(n.stats)-1]
		}
		return n, nil
	}
	sub, err := c.compile(x.Sub, bound)
	if err != nil {
		return nil, err
	}
	return &graphVarNode{sub: sub, slot: slot}, nil
}

// emptyNode has no solutions.
type emptyNode struct{}

func (emptyNode) open(*Exec, env) (iter, error) { return emptyIter{}, nil }

// graphConstNode evaluates its operand in one named graph.
type graphConstNode struct {
	sub node
	id  ID
}

func (g *graphConstNode) open(ex *Exec, e env) (iter, error) {
	if !ex.Data.isNamed(g.id) {
		return emptyIter{}, nil
	}
	return g.sub.open(ex, env{seed: e.seed, graph: &graphSel{ids: []ID{g.id}}})
}

// graphVarNode evaluates its operand in each named graph in turn and
// binds the graph variable.
type graphVarNode struct {
	sub  node
	slot int
}

func (g *graphVarNode) open(ex *Exec, e env) (iter, error) {
	graphs, err := ex.namedGraphs()
	if err != nil {
		return nil, err
	}
	if g.slot < len(e.seed) && e.seed[g.slot] != 0 {
		id := e.seed[g.slot]
		graphs = nil
		if ex.Data.isNamed(id) {
			graphs = []ID{id}
		}
	}
	return &graphVarIter{ex: ex, e: e, n: g, graphs: graphs}, nil
}

type graphVarIter struct {
	ex     *Exec
	e      env
	n      *graphVarNode
	graphs []ID
	g      ID
	cur    iter
}

func (it *graphVarIter) next() ([]ID, error) {
	for {
		if it.cur != nil {
			for {
				r, err := it.cur.next()
				if err != nil || r == nil {
					if err != nil {
						return nil, err
					}
					break
				}
				if v := r[it.n.slot]; v != 0 && v != it.g {
					continue
				}
				out := it.ex.newRow(r)
				out[it.n.slot] = it.g
				return out, nil
			}
			it.cur.close()
			it.cur = nil
		}
		if len(it.graphs) == 0 {
			return nil, nil
		}
		it.g, it.graphs = it.graphs[0], it.graphs[1:]
		var err error
		if it.cur, err = it.n.sub.open(it.ex, env{seed: it.e.seed, graph: &graphSel{ids: []ID{it.g}}}); err != nil {
			return nil, err
		}
	}
}

func (it *graphVarIter) close() {
	if it.cur != nil {
		it.cur.close()
	}
}
