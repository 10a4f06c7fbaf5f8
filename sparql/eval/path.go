package eval

import (
	"errors"
	"slices"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// ppath is a compiled property path over IDs. rev marks a step walked
// backwards (from object to subject).
type ppath interface{ inverse() ppath }

type pLink struct {
	id     ID // 0: the IRI is not in the store, the step matches nothing
	rev    bool
	absent bool
}
type pSeq struct{ a, b ppath }
type pAlt struct{ a, b ppath }
type pMod struct {
	sub        ppath
	zero, many bool // * = zero+many, + = many, ? = zero
}
type pNeg struct {
	fwd, bwd       []ID
	hasFwd, hasBwd bool
}

func (p *pLink) inverse() ppath { return &pLink{id: p.id, rev: !p.rev, absent: p.absent} }
func (p *pSeq) inverse() ppath  { return &pSeq{a: p.b.inverse(), b: p.a.inverse()} }
func (p *pAlt) inverse() ppath  { return &pAlt{a: p.a.inverse(), b: p.b.inverse()} }
func (p *pMod) inverse() ppath  { return &pMod{sub: p.sub.inverse(), zero: p.zero, many: p.many} }
func (p *pNeg) inverse() ppath {
	return &pNeg{fwd: p.bwd, bwd: p.fwd, hasFwd: p.hasBwd, hasBwd: p.hasFwd}
}

func (c *compiler) compilePathExpr(p syntax.Path) (ppath, error) {
	lookup := func(iri string) (ID, bool, error) {
		id, ok, err := c.ex.Dict.Lookup(rdf.IRI(iri))
		if ok && c.ex.Dict.isLocal(id) {
			ok = false
		}
		return id, ok, err
	}
	switch x := p.(type) {
	case *syntax.PathLink:
		id, ok, err := lookup(x.IRI)
		if err != nil {
			return nil, err
		}
		return &pLink{id: id, absent: !ok}, nil
	case *syntax.PathInverse:
		sub, err := c.compilePathExpr(x.Path)
		if err != nil {
			return nil, err
		}
		return sub.inverse(), nil
	case *syntax.PathSeq, *syntax.PathAlt:
		var l, r syntax.Path
		if s, ok := x.(*syntax.PathSeq); ok {
			l, r = s.Left, s.Right
		} else {
			a := x.(*syntax.PathAlt)
			l, r = a.Left, a.Right
		}
		a, err := c.compilePathExpr(l)
		if err != nil {
			return nil, err
		}
		b, err := c.compilePathExpr(r)
		if err != nil {
			return nil, err
		}
		if _, ok := x.(*syntax.PathSeq); ok {
			return &pSeq{a: a, b: b}, nil
		}
		return &pAlt{a: a, b: b}, nil
	case *syntax.PathMod:
		sub, err := c.compilePathExpr(x.Path)
		if err != nil {
			return nil, err
		}
		return &pMod{sub: sub, zero: x.Mod != '+', many: x.Mod != '?'}, nil
	case *syntax.PathNegated:
		n := &pNeg{hasFwd: len(x.Forward) > 0 || len(x.Inverse) == 0, hasBwd: len(x.Inverse) > 0}
		for _, iri := range x.Forward {
			if id, ok, err := lookup(iri); err != nil {
				return nil, err
			} else if ok {
				n.fwd = append(n.fwd, id)
			}
		}
		for _, iri := range x.Inverse {
			if id, ok, err := lookup(iri); err != nil {
				return nil, err
			} else if ok {
				n.bwd = append(n.bwd, id)
			}
		}
		return n, nil
	}
	return nil, &unsupportedPath{p}
}

type unsupportedPath struct{ p syntax.Path }

func (u *unsupportedPath) Error() string {
	return "eval: unsupported property path " + string(u.p.AppendSSE(nil))
}

// pathNode matches a property path between two nodes.
type pathNode struct {
	s, o pos
	p    ppath
}

func (c *compiler) compilePath(x *algebra.Path) (node, error) {
	p, err := c.compilePathExpr(x.Path)
	if err != nil {
		return nil, err
	}
	n := &pathNode{p: p}
	for i, nd := range [2]syntax.Node{x.S, x.O} {
		var ps pos
		if nd.IsVar() {
			ps = pos{slot: c.slot(nd.Var)}
		} else {
			// A constant the store lacks still matches itself by a
			// zero-length path, so it gets a (local) ID.
			id, err := c.ex.Dict.Encode(nd.Term)
			if err != nil {
				return nil, err
			}
			ps = pos{slot: -1, id: id}
		}
		if i == 0 {
			n.s = ps
		} else {
			n.o = ps
		}
	}
	return n, nil
}

// pathEval walks paths in one active graph.
type pathEval struct {
	ex  *Exec
	sel *graphSel
}

func (pe *pathEval) scan(pat graph.Pattern, fn func(graph.IDQuad) error) error {
	q := pe.ex.scan(pat, pe.sel)
	defer q.close()
	for q.next() {
		if err := fn(q.quad); err != nil {
			return err
		}
	}
	return q.err
}

// succ calls emit for every node reachable from `from` by p: with
// repetitions for links, sequences and alternatives (bag semantics), once
// each for *, + and ? (§18.5 ALP: a visited set per start node, so the
// walk is linear in the graph, never exponential).
func (pe *pathEval) succ(p ppath, from ID, emit func(ID) error) error {
	if err := pe.ex.tick(); err != nil {
		return err
	}
	switch x := p.(type) {
	case *pLink:
		if x.absent {
			return nil
		}
		if x.rev {
			return pe.scan(graph.Pattern{P: x.id, O: from}, func(q graph.IDQuad) error { return emit(q.S) })
		}
		return pe.scan(graph.Pattern{S: from, P: x.id}, func(q graph.IDQuad) error { return emit(q.O) })
	case *pSeq:
		return pe.succ(x.a, from, func(m ID) error { return pe.succ(x.b, m, emit) })
	case *pAlt:
		if err := pe.succ(x.a, from, emit); err != nil {
			return err
		}
		return pe.succ(x.b, from, emit)
	case *pNeg:
		if x.hasFwd {
			err := pe.scan(graph.Pattern{S: from}, func(q graph.IDQuad) error {
				if slices.Contains(x.fwd, q.P) {
					return nil
				}
				return emit(q.O)
			})
			if err != nil {
				return err
			}
		}
		if x.hasBwd {
			return pe.scan(graph.Pattern{O: from}, func(q graph.IDQuad) error {
				if slices.Contains(x.bwd, q.P) {
					return nil
				}
				return emit(q.S)
			})
		}
		return nil
	case *pMod:
		visited := map[ID]bool{}
		if x.zero {
			visited[from] = true
			if err := emit(from); err != nil {
				return err
			}
		}
		queue := []ID{from}
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			err := pe.succ(x.sub, n, func(m ID) error {
				if visited[m] {
					return nil
				}
				visited[m] = true
				if x.many {
					queue = append(queue, m)
				}
				return emit(m)
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
	return nil
}

// inGraph reports whether id is a subject or object of the active graph.
func (pe *pathEval) inGraph(id ID) (bool, error) {
	if pe.ex.Dict.isLocal(id) {
		return false, nil
	}
	found := false
	stop := errors.New("found")
	for _, pat := range [2]graph.Pattern{{S: id}, {O: id}} {
		err := pe.scan(pat, func(graph.IDQuad) error { found = true; return stop })
		if err != nil && err != stop {
			return false, err
		}
		if found {
			return true, nil
		}
	}
	return false, nil
}

// nodes lists every subject and object of the active graph: the start
// points of a path with both ends unbound.
func (pe *pathEval) nodes() ([]ID, error) {
	seen := map[ID]bool{}
	var out []ID
	add := func(id ID) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	err := pe.scan(graph.Pattern{}, func(q graph.IDQuad) error {
		add(q.S)
		add(q.O)
		return nil
	})
	return out, err
}

func (n *pathNode) open(ex *Exec, e env) (iter, error) {
	pe := &pathEval{ex: ex, sel: e.graph}
	seed := ex.newRow(e.seed)
	val := func(p pos) ID {
		if p.slot < 0 {
			return p.id
		}
		return seed[p.slot]
	}
	var rows [][]ID
	add := func(s, o ID) error {
		r := ex.newRow(seed)
		for _, b := range [2]struct {
			p pos
			v ID
		}{{n.s, s}, {n.o, o}} {
			if b.p.slot < 0 {
				if b.p.id != b.v {
					return nil
				}
				continue
			}
			if r[b.p.slot] != 0 && r[b.p.slot] != b.v {
				return nil
			}
			r[b.p.slot] = b.v
		}
		rows = append(rows, r)
		return nil
	}
	s, o := val(n.s), val(n.o)
	// A variable end bound from outside joins with the path's solutions,
	// which only hold nodes of the graph: a value that is no node of it
	// has no path, not even a zero-length one (unlike a constant).
	for _, p := range [2]pos{n.s, n.o} {
		if p.slot >= 0 && seed[p.slot] != 0 {
			in, err := pe.inGraph(seed[p.slot])
			if err != nil || !in {
				return emptyIter{}, err
			}
		}
	}
	var err error
	switch {
	case s != 0:
		err = pe.succ(n.p, s, func(m ID) error { return add(s, m) })
	case o != 0:
		err = pe.succ(n.p.inverse(), o, func(m ID) error { return add(m, o) })
	default:
		var starts []ID
		if starts, err = pe.nodes(); err != nil {
			return nil, err
		}
		for _, st := range starts {
			if err = pe.succ(n.p, st, func(m ID) error { return add(st, m) }); err != nil {
				break
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return &sliceIter{rows: rows}, nil
}
