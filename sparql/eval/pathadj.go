package eval

import "github.com/mneme-archive/mneme/graph"

// A walk of a path from every start node (both ends free) looks up each
// node it reaches: one scan re-targeted per node, a cache lookup or a
// seek each. When the path's links hold not many more triples than there
// are start nodes, reading each link's triples once into a map from node
// to neighbours costs less than the lookups, and every step of every walk
// is then a map read.

// adjKey names a link's direction: the map of a forward link is keyed by
// subject, that of an inverse one by object.
type adjKey struct {
	id  ID
	rev bool
}

// loadAdjacency reads into pe.adj the links of p whose triples number at
// most budget; a link over it is left to per-node lookups (its map nil).
func (pe *pathEval) loadAdjacency(p ppath, budget int) error {
	switch x := p.(type) {
	case *pLink:
		k := adjKey{x.id, x.rev}
		if _, done := pe.adj[k]; done || x.absent {
			return nil
		}
		if pe.adj == nil {
			pe.adj = map[adjKey]map[ID][]ID{}
		}
		m := map[ID][]ID{}
		q := pe.ex.scan(graph.Pattern{P: x.id}, pe.sel)
		defer q.close()
		n := 0
		for q.next() {
			if n++; n > budget {
				pe.adj[k] = nil
				return nil
			}
			if err := pe.ex.tick(); err != nil {
				return err
			}
			if x.rev {
				m[q.quad.O] = append(m[q.quad.O], q.quad.S)
			} else {
				m[q.quad.S] = append(m[q.quad.S], q.quad.O)
			}
		}
		if q.err != nil {
			return q.err
		}
		pe.adj[k] = m
	case *pSeq:
		if err := pe.loadAdjacency(x.a, budget); err != nil {
			return err
		}
		return pe.loadAdjacency(x.b, budget)
	case *pAlt:
		if err := pe.loadAdjacency(x.a, budget); err != nil {
			return err
		}
		return pe.loadAdjacency(x.b, budget)
	case *pMod:
		return pe.loadAdjacency(x.sub, budget)
	}
	return nil
}

// neighbours returns the nodes link x leads to from `from` when its map
// is loaded.
func (pe *pathEval) neighbours(x *pLink, from ID) ([]ID, bool) {
	m := pe.adj[adjKey{x.id, x.rev}]
	if m == nil {
		return nil, false
	}
	return m[from], true
}

// A walk from every start node reads a link into a map when it holds at
// most adjacencyPerStart triples per start node plus adjacencyMin: a
// lookup costs about as much as reading a few triples. (Variables so
// that tests can turn the maps off.)
var adjacencyPerStart, adjacencyMin = 4, 1024

// visitedSet returns an empty visited set for a walk: one a finished walk
// gave back, so that walks from many start nodes do not each allocate
// and grow a map.
func (pe *pathEval) visitedSet() map[ID]bool {
	if n := len(pe.free); n > 0 {
		m := pe.free[n-1]
		pe.free = pe.free[:n-1]
		return m
	}
	return map[ID]bool{}
}

// release gives a walk's visited set back, cleared.
func (pe *pathEval) release(m map[ID]bool) {
	if len(m) > 4096 {
		return // a large map is not worth keeping cleared
	}
	clear(m)
	pe.free = append(pe.free, m)
}
