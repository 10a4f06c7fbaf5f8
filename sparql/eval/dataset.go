package eval

import (
	"slices"

	"github.com/mneme-archive/mneme/graph"
)

// Dataset is the RDF dataset a query reads (SPARQL 1.1 §13).
type Dataset struct {
	// UnionDefault makes the default graph the union of all graphs of the
	// store (mneme's default: cross-crawl questions need no GRAPH).
	// Otherwise the default graph is the merge of Default, whose entries
	// may include graph.DefaultGraph, the store's own default graph.
	UnionDefault bool
	Default      []ID
	// AllNamed makes every graph but graph.DefaultGraph a named graph;
	// otherwise the named graphs are Named.
	AllNamed bool
	Named    []ID
}

// graphSel is an active graph: the union of all graphs, or the merge of
// a list of graphs (empty: the empty graph).
type graphSel struct {
	union bool
	ids   []ID
}

func (d *Dataset) defaultGraph() *graphSel {
	if d.UnionDefault {
		return &graphSel{union: true}
	}
	return &graphSel{ids: d.Default}
}

// isNamed reports whether g is a named graph of the dataset.
func (d *Dataset) isNamed(g ID) bool {
	if d.AllNamed {
		return g != graph.DefaultGraph
	}
	return slices.Contains(d.Named, g)
}

// namedGraphs lists the dataset's named graphs that hold data.
func (ex *Exec) namedGraphs() ([]ID, error) {
	if !ex.Data.AllNamed {
		return ex.Data.Named, nil
	}
	all, err := ex.View.Graphs()
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(g ID) bool { return g == graph.DefaultGraph }), nil
}

// quadIter yields the quads matching a pattern in an active graph, each
// triple of a merge of several graphs once (G is then Any), or, for
// graph-variable scans, every quad of a named graph. It keeps its store
// iterators across reset, so that a join re-targets it per input row at
// the cost of a seek.
type quadIter struct {
	ex    *Exec
	base  graph.Pattern // what every pattern of a reset binds
	pat   graph.Pattern
	sel   *graphSel // nil: a graph-variable scan
	order graph.Order
	i     int // next graph of sel.ids
	its   []*graph.QuadIter
	cur   *graph.QuadIter
	seen  map[[3]ID]bool // merge of several graphs: triples returned
	quad  graph.IDQuad
	err   error
}

// scan starts a quadIter. With sel nil, pat.G is the graph to read (Any:
// every named graph, each quad with its graph).
func (ex *Exec) scan(pat graph.Pattern, sel *graphSel) *quadIter {
	return ex.scanShaped(pat, pat, sel)
}

// scanShaped starts a quadIter that can be reset to patterns binding
// base's IDs and the positions shape binds, in the order fit for shape.
func (ex *Exec) scanShaped(base, shape graph.Pattern, sel *graphSel) *quadIter {
	q := &quadIter{ex: ex, base: base, pat: shape, sel: sel}
	n := 1
	switch {
	case sel == nil:
		q.order = graph.AutoOrder(shape, false)
	case sel.union:
		shape.G = graph.Any
		q.order = graph.AutoOrder(shape, true)
	default:
		shape.G = graph.DefaultGraph
		q.order = graph.AutoOrder(shape, false)
		n = len(sel.ids)
	}
	q.its = make([]*graph.QuadIter, n)
	if n > 1 {
		q.seen = map[[3]ID]bool{}
	}
	return q
}

// reset restarts the scan for pat, which binds what the scan was
// started with.
func (q *quadIter) reset(pat graph.Pattern) {
	q.pat, q.i, q.cur, q.err = pat, 0, nil, nil
	if q.seen != nil {
		clear(q.seen)
	}
}

// open starts the scan of the next graph; false when there is none.
func (q *quadIter) open() bool {
	pat, base, opts := q.pat, q.base, graph.ScanOptions{Order: q.order}
	switch {
	case q.sel == nil:
		if q.i > 0 {
			return false
		}
	case q.sel.union:
		if q.i > 0 {
			return false
		}
		pat.G, base.G, opts.Union = graph.Any, graph.Any, true
	default:
		if q.i >= len(q.sel.ids) {
			return false
		}
		pat.G, base.G = q.sel.ids[q.i], q.sel.ids[q.i]
	}
	it := q.its[q.i]
	if it == nil {
		var err error
		if it, err = q.ex.View.Scan(q.ex.Ctx, base, opts); err != nil {
			q.err = err
			return false
		}
		q.its[q.i] = it
	}
	q.i++
	if err := it.Reset(pat); err != nil {
		q.err = err
		return false
	}
	q.cur = it
	return true
}

// next advances to the next quad.
func (q *quadIter) next() bool {
	for q.err == nil {
		if q.cur == nil && !q.open() {
			return false
		}
		for q.cur.Next() {
			c := q.cur.Quad()
			if q.sel == nil {
				if !q.ex.Data.isNamed(c.G) {
					continue
				}
			} else if q.seen != nil {
				k := [3]ID{c.S, c.P, c.O}
				if q.seen[k] {
					continue
				}
				q.seen[k] = true
				c.G = graph.Any
			}
			q.quad = c
			return true
		}
		q.err = q.cur.Err()
		q.cur = nil
	}
	return false
}

func (q *quadIter) close() {
	for i, it := range q.its {
		if it != nil {
			_ = it.Close()
			q.its[i] = nil
		}
	}
	q.cur = nil
}
