package eval

import (
	"math"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/expr"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// A filter equating variables of two parts of a basic graph pattern that
// share no variable — FILTER(?a = ?b) or FILTER(sameTerm(?a, ?b)) — is a
// join on that equality, not a filter over the parts' product: the parts
// are planned apart and joined by a value join (valueJoinNode), and the
// filter still checks every joined row.
//
// The value join reads its left side (in chunks of at most the memory
// bound) and keys each row on its ?a: a term compared by identity (an
// IRI or blank node under =, anything under sameTerm) on its ID, which
// is exact since a term has one ID; a literal under = on
// expr.EqualKey, which equal values share (numbers of different types,
// say) though unequal ones may too — the filter above sorts those out.
// The right side is then either looked up once per distinct ?a with ?b
// bound to it (bind: only when every key is by identity, where the
// equal terms are exactly ?a), or read once and probed (hash), whichever
// the estimates favour for the distinct keys actually read.

// eqLink is a conjunct ?a = ?b or sameTerm(?a, ?b).
type eqLink struct {
	a, b string
	same bool
}

// eqLinks returns the conjuncts of exprs that equate two variables.
func eqLinks(exprs []syntax.Expr) []eqLink {
	var out []eqLink
	var walk func(e syntax.Expr)
	walk = func(e syntax.Expr) {
		c, ok := e.(*syntax.Call)
		if !ok {
			return
		}
		if c.Op == "&&" {
			for _, a := range c.Args {
				walk(a)
			}
			return
		}
		if (c.Op != "=" && c.Op != "SAMETERM") || len(c.Args) != 2 {
			return
		}
		a, okA := c.Args[0].(*syntax.Var)
		b, okB := c.Args[1].(*syntax.Var)
		if okA && okB && a.Name != b.Name {
			out = append(out, eqLink{a: a.Name, b: b.Name, same: c.Op == "SAMETERM"})
		}
	}
	for _, e := range exprs {
		walk(e)
	}
	return out
}

// components splits triples into groups connected by variables not
// bound from outside; each group lists its triples and variables.
func (c *compiler) components(triples []syntax.Triple, bound []bool) ([][]syntax.Triple, []map[string]bool) {
	parent := make([]int, len(triples))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	owner := map[string]int{}
	for i, tr := range triples {
		for _, nd := range [3]syntax.Node{tr.S, tr.P, tr.O} {
			if !nd.IsVar() {
				continue
			}
			if s := c.slot(nd.Var); s < len(bound) && bound[s] {
				continue
			}
			if j, ok := owner[nd.Var]; ok {
				parent[find(i)] = find(j)
			} else {
				owner[nd.Var] = i
			}
		}
	}
	index := map[int]int{}
	var groups [][]syntax.Triple
	var vars []map[string]bool
	for i, tr := range triples {
		r := find(i)
		g, ok := index[r]
		if !ok {
			g = len(groups)
			index[r] = g
			groups = append(groups, nil)
			vars = append(vars, map[string]bool{})
		}
		groups[g] = append(groups[g], tr)
		for _, nd := range [3]syntax.Node{tr.S, tr.P, tr.O} {
			if nd.IsVar() {
				vars[g][nd.Var] = true
			}
		}
	}
	return groups, vars
}

// compileValueJoin compiles x, a filter over the basic graph pattern b,
// as value joins of b's parts when a conjunct equates variables of two
// parts; ok is false when none does.
func (c *compiler) compileValueJoin(x *algebra.Filter, b *algebra.BGP, bound []bool) (node, bool, error) {
	links := eqLinks(x.Exprs)
	if len(links) == 0 || len(b.Triples) < 2 {
		return nil, false, nil
	}
	groups, vars := c.components(b.Triples, bound)
	if len(groups) < 2 {
		return nil, false, nil
	}
	group := func(v string) int {
		for g, vs := range vars {
			if vs[v] {
				return g
			}
		}
		return -1
	}
	// linked[g] lists the links from part g to another part.
	type edge struct {
		to   int
		link eqLink // a in the part joined so far, b in part to
	}
	linked := make([][]edge, len(groups))
	for _, l := range links {
		ga, gb := group(l.a), group(l.b)
		if ga < 0 || gb < 0 || ga == gb {
			continue
		}
		linked[ga] = append(linked[ga], edge{to: gb, link: l})
		linked[gb] = append(linked[gb], edge{to: ga, link: eqLink{a: l.b, b: l.a, same: l.same}})
	}
	// Start from the linked part with the fewest estimated rows.
	ops := make([]*algebra.BGP, len(groups))
	rows := make([]float64, len(groups))
	start := -1
	for g := range groups {
		ops[g] = &algebra.BGP{Triples: groups[g]}
		if len(linked[g]) == 0 {
			continue
		}
		_, r, err := c.measure(ops[g], bound)
		if err != nil {
			return nil, false, err
		}
		rows[g] = r
		if start < 0 || r < rows[start] {
			start = g
		}
	}
	if start < 0 {
		return nil, false, nil
	}
	// Parts linked to none (joined by the filter's other conjuncts or
	// not at all) stay with the first part, as their product.
	joined := make([]bool, len(groups))
	joined[start] = true
	reach := []int{start}
	for i := 0; i < len(reach); i++ {
		for _, e := range linked[reach[i]] {
			if !joined[e.to] {
				joined[e.to] = true
				reach = append(reach, e.to)
			}
		}
	}
	first := &algebra.BGP{Triples: append([]syntax.Triple(nil), groups[start]...)}
	for g := range groups {
		if !joined[g] {
			first.Triples = append(first.Triples, groups[g]...)
		}
	}
	n, err := c.compile(first, bound)
	if err != nil {
		return nil, false, err
	}
	var cur algebra.Op = first
	curRows := c.leftRows(first)
	done := make([]bool, len(groups))
	done[start] = true
	for {
		var next *edge
		for _, g := range reach {
			if !done[g] {
				continue
			}
			for i, e := range linked[g] {
				if !done[e.to] {
					next = &linked[g][i]
					break
				}
			}
			if next != nil {
				break
			}
		}
		if next == nil {
			break
		}
		done[next.to] = true
		right := ops[next.to]
		vj := &valueJoinNode{left: n, aSlot: c.slot(next.link.a), bSlot: c.slot(next.link.b), same: next.link.same}
		withB := append([]bool(nil), bound...)
		for len(withB) <= vj.bSlot {
			withB = append(withB, false)
		}
		withB[vj.bSlot] = true
		perCost, perRows, err := c.measure(right, withB)
		if err != nil {
			return nil, false, err
		}
		scanCost, scanRows, err := c.measure(right, bound)
		if err != nil {
			return nil, false, err
		}
		vj.lookupCost = math.Max(perCost, lookupCost)
		vj.scanCost = scanCost + math.Max(scanRows, 0)*probeCost
		if vj.bound, err = c.compile(right, withB); err != nil {
			return nil, false, err
		}
		free := &algebra.BGP{Triples: right.Triples}
		if vj.free, err = c.compile(free, bound); err != nil {
			return nil, false, err
		}
		join := &algebra.Join{Left: cur, Right: right}
		st := &Stats{Est: curRows * math.Max(perRows, 0), Detail: "value join ?" + next.link.a + " = ?" + next.link.b}
		vj.stats, vj.detail = st, st.Detail
		c.stats[join] = st
		n, cur, curRows = &counted{n: vj, stats: st}, join, st.Est
	}
	c.rewrites[b] = cur
	c.stats[b] = c.stats[cur]
	return n, true, nil
}

// valueJoinNode joins its left side to the parts matching each left
// row's aSlot value in bSlot (see the top of the file): bound is the
// right side planned with bSlot bound, free without.
type valueJoinNode struct {
	left, bound, free node
	aSlot, bSlot      int
	same              bool // sameTerm: every key by identity
	// lookupCost is the planned cost of one lookup of the right side,
	// scanCost of reading and probing it whole.
	lookupCost, scanCost float64
	stats                *Stats
	detail               string
}

func (j *valueJoinNode) open(ex *Exec, e env) (iter, error) {
	l, err := j.left.open(ex, e)
	if err != nil {
		return nil, err
	}
	return &valueJoinIter{ex: ex, j: j, e: e, left: l}, nil
}

type valueJoinIter struct {
	ex   *Exec
	j    *valueJoinNode
	e    env
	left iter
	done bool // left exhausted
	// The chunk of left rows being joined: keyed by ID (ids, in the
	// order first met: keys) or by value (lits).
	rows  [][]ID
	ids   map[ID][]int
	keys  []ID
	lits  map[string][]int
	held  int
	bindK int  // next key looked up (bind)
	right iter // the open right side
	hash  bool
	// out are joined rows not yet returned.
	out [][]ID
}

func (it *valueJoinIter) next() ([]ID, error) {
	for {
		if len(it.out) > 0 {
			r := it.out[0]
			it.out = it.out[1:]
			return r, nil
		}
		if it.right != nil {
			r, err := pull(it.ex, it.right)
			if err != nil {
				return nil, err
			}
			if r != nil {
				if err := it.match(r); err != nil {
					return nil, err
				}
				continue
			}
			it.right.close()
			it.right = nil
		}
		if !it.hash && it.bindK < len(it.keys) {
			seed := it.ex.newRow(it.e.seed)
			seed[it.j.bSlot] = it.keys[it.bindK]
			it.bindK++
			r, err := it.j.bound.open(it.ex, env{seed: seed, graph: it.e.graph})
			if err != nil {
				return nil, err
			}
			it.right = r
			continue
		}
		if it.done {
			return nil, nil
		}
		if err := it.chunk(); err != nil {
			return nil, err
		}
		if len(it.rows) == 0 {
			return nil, nil
		}
		if it.hash {
			r, err := it.j.free.open(it.ex, it.e)
			if err != nil {
				return nil, err
			}
			it.right = r
		}
	}
}

// chunk reads the next left rows, up to the memory bound, keys them and
// chooses bind or hash for them.
func (it *valueJoinIter) chunk() error {
	ex := it.ex
	ex.memRows -= it.held
	it.held, it.rows, it.keys, it.bindK = 0, it.rows[:0], it.keys[:0], 0
	it.ids, it.lits = map[ID][]int{}, nil
	budget := max(ex.maxRows()-ex.memRows, 1024)
	for len(it.rows) < budget {
		r, err := pull(ex, it.left)
		if err != nil {
			return err
		}
		if r == nil {
			it.done = true
			break
		}
		v := r[it.j.aSlot]
		if v == 0 {
			continue
		}
		i := len(it.rows)
		it.rows = append(it.rows, r)
		if !it.j.same {
			t, err := ex.Dict.Term(v)
			if err != nil {
				return err
			}
			if t.Kind == rdf.KindLiteral {
				if it.lits == nil {
					it.lits = map[string][]int{}
				}
				k := expr.EqualKey(t)
				it.lits[k] = append(it.lits[k], i)
				continue
			}
		}
		if _, ok := it.ids[v]; !ok {
			it.keys = append(it.keys, v)
		}
		it.ids[v] = append(it.ids[v], i)
	}
	it.held = len(it.rows)
	ex.memRows += it.held
	it.hash = it.lits != nil || float64(len(it.keys))*it.j.lookupCost > it.j.scanCost
	// EXPLAIN shows how the last chunk was joined.
	if it.hash {
		it.j.stats.Detail = it.j.detail + " hash"
	} else {
		it.j.stats.Detail = it.j.detail + " bind"
	}
	return nil
}

// match joins a right row to the left rows of its key.
func (it *valueJoinIter) match(r []ID) error {
	v := r[it.j.bSlot]
	if v == 0 {
		return nil
	}
	for _, i := range it.ids[v] {
		it.out = append(it.out, it.ex.merge(it.rows[i], r))
	}
	if it.lits == nil {
		return nil
	}
	t, err := it.ex.Dict.Term(v)
	if err != nil {
		return err
	}
	if t.Kind != rdf.KindLiteral {
		return nil
	}
	for _, i := range it.lits[expr.EqualKey(t)] {
		it.out = append(it.out, it.ex.merge(it.rows[i], r))
	}
	return nil
}

func (it *valueJoinIter) close() {
	if it.right != nil {
		it.right.close()
		it.right = nil
	}
	it.left.close()
	it.ex.memRows -= it.held
	it.held = 0
}
