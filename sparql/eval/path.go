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

// pathNode matches a property path between two nodes. pre, when set, is
// the walk from a constant end done at planning (see planPath), which
// the first run in the same graphs reuses.
type pathNode struct {
	s, o pos
	p    ppath
	pre  *pathWalk
	// check marks the variable ends (subject, object) bound from outside
	// the basic graph pattern, whose values need not be nodes of the
	// graph; values bound by its triples are.
	check [2]bool
}

// pathWalk is the result of a walk from the ends s and o (0: free) in
// the graphs sel.
type pathWalk struct {
	s, o  ID
	sel   graphSel
	pairs [][2]ID
}

func (c *compiler) compilePath(x *algebra.Path) (*pathNode, error) {
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

// errWalkBudget stops a walk done at planning that reached more nodes
// than an estimate is worth.
var errWalkBudget = errors.New("path walk over budget")

// pathEval walks paths in one active graph, re-targeting one store scan
// per shape of lookup rather than opening one per node.
type pathEval struct {
	ex    *Exec
	sel   *graphSel
	scans map[scanKey]*quadIter
	// budget, when positive, is how many lookups the walk may make.
	budget int
	// adj are the links read whole (see pathadj.go).
	adj map[adjKey]map[ID][]ID
	// free are visited sets of finished walks, cleared for the next.
	free []map[ID]bool
}

func newPathEval(ex *Exec, sel *graphSel) *pathEval {
	return &pathEval{ex: ex, sel: sel, scans: map[scanKey]*quadIter{}}
}

// collect returns the values at position k (0 subject, 2 object) of the
// quads matching pat, which binds the positions of shape base plus one.
func (pe *pathEval) collect(pat graph.Pattern, base graph.Pattern, k int) ([]ID, error) {
	if pe.budget > 0 {
		pe.budget--
		if pe.budget == 0 {
			return nil, errWalkBudget
		}
	}
	key := scanKey{base: base, shape: patShape(pat), sel: pe.sel}
	q := pe.scans[key]
	if q == nil {
		if q = pe.ex.idleScan(key); q == nil {
			q = pe.ex.scanShaped(base, pat, pe.sel)
		}
		pe.scans[key] = q
	}
	q.reset(pat)
	var out []ID
	for q.next() {
		if k == 0 {
			out = append(out, q.quad.S)
		} else {
			out = append(out, q.quad.O)
		}
	}
	return out, q.err
}

// close gives the walk's scans back to the execution.
func (pe *pathEval) close() {
	for k, q := range pe.scans {
		pe.ex.putScan(k, q)
	}
	clear(pe.scans)
}

// succ calls emit for every node reachable from `from` by p: with
// repetitions for links, sequences and alternatives (bag semantics), once
// each for *, + and ? (§18.5 ALP: a visited set per start node, so the
// walk is linear in the graph, never exponential). It is breadth-first,
// and a link's matches are read before emit runs, so that the scans of a
// sequence's steps never nest.
func (pe *pathEval) succ(p ppath, from ID, emit func(ID) error) error {
	if err := pe.ex.tick(); err != nil {
		return err
	}
	switch x := p.(type) {
	case *pLink:
		if x.absent {
			return nil
		}
		ids, ok := pe.neighbours(x, from)
		var err error
		switch {
		case ok:
		case x.rev:
			ids, err = pe.collect(graph.Pattern{P: x.id, O: from}, graph.Pattern{P: x.id}, 0)
		default:
			ids, err = pe.collect(graph.Pattern{S: from, P: x.id}, graph.Pattern{P: x.id}, 2)
		}
		if err != nil {
			return err
		}
		for _, id := range ids {
			if err := emit(id); err != nil {
				return err
			}
		}
		return nil
	case *pSeq:
		return pe.succ(x.a, from, func(m ID) error { return pe.succ(x.b, m, emit) })
	case *pAlt:
		if err := pe.succ(x.a, from, emit); err != nil {
			return err
		}
		return pe.succ(x.b, from, emit)
	case *pNeg:
		for _, dir := range [2]struct {
			on    bool
			pat   graph.Pattern
			k     int
			avoid []ID
		}{{x.hasFwd, graph.Pattern{S: from}, 2, x.fwd}, {x.hasBwd, graph.Pattern{O: from}, 0, x.bwd}} {
			if !dir.on {
				continue
			}
			// The predicates are needed: read quads, not one column.
			q := pe.ex.scan(dir.pat, pe.sel)
			var ids []ID
			for q.next() {
				if slices.Contains(dir.avoid, q.quad.P) {
					continue
				}
				if dir.k == 0 {
					ids = append(ids, q.quad.S)
				} else {
					ids = append(ids, q.quad.O)
				}
			}
			q.close()
			if q.err != nil {
				return q.err
			}
			for _, id := range ids {
				if err := emit(id); err != nil {
					return err
				}
			}
		}
		return nil
	case *pMod:
		visited := pe.visitedSet()
		defer pe.release(visited)
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
	for _, pat := range [2]graph.Pattern{{S: id}, {O: id}} {
		key := scanKey{shape: patShape(pat), sel: pe.sel}
		q := pe.scans[key]
		if q == nil {
			if q = pe.ex.idleScan(key); q == nil {
				q = pe.ex.scanShaped(graph.Pattern{}, pat, pe.sel)
			}
			pe.scans[key] = q
		}
		q.reset(pat)
		found := q.next()
		if q.err != nil {
			return false, q.err
		}
		if found {
			return true, nil
		}
	}
	return false, nil
}

// canBeEmpty reports whether p matches a zero-length path.
func canBeEmpty(p ppath) bool {
	switch x := p.(type) {
	case *pSeq:
		return canBeEmpty(x.a) && canBeEmpty(x.b)
	case *pAlt:
		return canBeEmpty(x.a) || canBeEmpty(x.b)
	case *pMod:
		return x.zero || canBeEmpty(x.sub)
	}
	return false
}

// firstLinks lists the links a match of p starts with, so that the
// nodes a walk with both ends free starts from are their subjects (or
// objects, walked backwards); false when p can start anywhere (a
// negated property set).
func firstLinks(p ppath) ([]*pLink, bool) {
	switch x := p.(type) {
	case *pLink:
		return []*pLink{x}, true
	case *pSeq:
		a, ok := firstLinks(x.a)
		if !ok || !canBeEmpty(x.a) {
			return a, ok
		}
		b, ok := firstLinks(x.b)
		return append(a, b...), ok
	case *pAlt:
		a, ok := firstLinks(x.a)
		if !ok {
			return nil, false
		}
		b, ok := firstLinks(x.b)
		return append(a, b...), ok
	case *pMod:
		return firstLinks(x.sub)
	}
	return nil, false
}

// starts lists the nodes a walk of p with both ends free starts from:
// every node of the graph when p can be empty or start with any
// predicate, otherwise the subjects of its first links (the objects of
// those walked backwards), read from the predicate's index.
func (pe *pathEval) starts(p ppath) ([]ID, error) {
	seen := map[ID]bool{}
	var out []ID
	add := func(id ID) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	links, ok := firstLinks(p)
	if !ok || canBeEmpty(p) {
		q := pe.ex.scan(graph.Pattern{}, pe.sel)
		defer q.close()
		for q.next() {
			add(q.quad.S)
			add(q.quad.O)
		}
		return out, q.err
	}
	for _, l := range links {
		if l.absent {
			continue
		}
		q := pe.ex.scan(graph.Pattern{P: l.id}, pe.sel)
		for q.next() {
			if l.rev {
				add(q.quad.O)
			} else {
				add(q.quad.S)
			}
		}
		q.close()
		if q.err != nil {
			return nil, q.err
		}
	}
	return out, nil
}

// pairs returns the (subject, object) pairs p matches with the ends s
// and o (0: free), walking from a bound end: forwards from the subject,
// backwards from the object, from each start node when both are free.
func (pe *pathEval) pairs(p ppath, s, o ID) ([][2]ID, error) {
	var out [][2]ID
	var err error
	switch {
	case s != 0:
		err = pe.succ(p, s, func(m ID) error {
			if o == 0 || m == o {
				out = append(out, [2]ID{s, m})
			}
			return nil
		})
	case o != 0:
		err = pe.succ(p.inverse(), o, func(m ID) error {
			out = append(out, [2]ID{m, o})
			return nil
		})
	default:
		if links, ok := altLinks(p); ok {
			// Links and their alternatives match exactly the quads
			// of their predicates: read those, not walks per node.
			return pe.linkPairs(links)
		}
		var starts []ID
		if starts, err = pe.starts(p); err != nil {
			return nil, err
		}
		if pe.budget == 0 {
			if err = pe.loadAdjacency(p, adjacencyPerStart*len(starts)+adjacencyMin); err != nil {
				return nil, err
			}
		}
		for _, st := range starts {
			if err = pe.succ(p, st, func(m ID) error {
				out = append(out, [2]ID{st, m})
				return nil
			}); err != nil {
				break
			}
		}
	}
	return out, err
}

// ends returns the path's end values for row (0: free).
func (n *pathNode) ends(row []ID) (s, o ID) {
	val := func(p pos) ID {
		if p.slot < 0 {
			return p.id
		}
		if p.slot < len(row) {
			return row[p.slot]
		}
		return 0
	}
	return val(n.s), val(n.o)
}

// extend returns row with the pair's values for the path's variables, or
// nil when they conflict with its bindings (or with each other, for a
// path from a variable to itself).
func (n *pathNode) extend(ex *Exec, row []ID, pr [2]ID) []ID {
	var out []ID
	for i, p := range [2]pos{n.s, n.o} {
		v := pr[i]
		if p.slot < 0 {
			if p.id != v {
				return nil
			}
			continue
		}
		cur := row[p.slot]
		if out != nil {
			cur = out[p.slot]
		}
		if cur == v {
			continue
		}
		if cur != 0 {
			return nil
		}
		if out == nil {
			out = ex.newRow(row)
		}
		out[p.slot] = v
	}
	if out == nil {
		return ex.newRow(row)
	}
	return out
}

// match returns the pairs of the path for row's bindings. A variable end
// bound in the row joins with the path's solutions, which only hold
// nodes of the graph: a value that is no node of it has no path, not
// even a zero-length one (unlike a constant).
func (n *pathNode) match(pe *pathEval, row []ID) ([][2]ID, error) {
	for i, p := range [2]pos{n.s, n.o} {
		if n.check[i] && p.slot < len(row) && row[p.slot] != 0 {
			in, err := pe.inGraph(row[p.slot])
			if err != nil || !in {
				return nil, err
			}
		}
	}
	s, o := n.ends(row)
	if w := n.pre; w != nil && w.sel.union == pe.sel.union && slices.Equal(w.sel.ids, pe.sel.ids) &&
		(w.s == 0 || w.s == s) && (w.o == 0 || w.o == o) {
		var out [][2]ID
		for _, pr := range w.pairs {
			if (s == 0 || pr[0] == s) && (o == 0 || pr[1] == o) {
				out = append(out, pr)
			}
		}
		return out, nil
	}
	return pe.pairs(n.p, s, o)
}

// altLinks returns the links of p when p is a link or an alternative of
// links (forwards or inverse), whose matches are the quads of their
// predicates, each quad once per link (bag semantics).
func altLinks(p ppath) ([]*pLink, bool) {
	switch x := p.(type) {
	case *pLink:
		return []*pLink{x}, true
	case *pAlt:
		a, ok := altLinks(x.a)
		if !ok {
			return nil, false
		}
		b, ok := altLinks(x.b)
		return append(a, b...), ok
	}
	return nil, false
}

// linkPairs returns the (subject, object) pairs of links, both ends
// free: one scan of each predicate.
func (pe *pathEval) linkPairs(links []*pLink) ([][2]ID, error) {
	var out [][2]ID
	for _, l := range links {
		if l.absent {
			continue
		}
		q := pe.ex.scan(graph.Pattern{P: l.id}, pe.sel)
		for q.next() {
			if err := pe.ex.tick(); err != nil {
				q.close()
				return nil, err
			}
			if l.rev {
				out = append(out, [2]ID{q.quad.O, q.quad.S})
			} else {
				out = append(out, [2]ID{q.quad.S, q.quad.O})
			}
		}
		q.close()
		if q.err != nil {
			return nil, q.err
		}
	}
	return out, nil
}
