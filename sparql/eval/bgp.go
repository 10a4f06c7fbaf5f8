package eval

import (
	"math"
	"strings"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/plan"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// pos is a quad position: a variable slot (slot ≥ 0) or a constant ID
// (slot -1; ID 0 for the unconstrained graph of an active-graph scan).
type pos struct {
	slot int
	id   ID
}

// quadPat is a compiled triple pattern; its graph is the active graph
// unless graphVar (then g holds the graph variable's slot).
type quadPat struct {
	t        [4]pos
	graphVar bool
	card     float64 // estimated matches with the constants bound
	// path, when set, makes the pattern a property path between t[0]
	// and t[2].
	path *pathNode
}

// Stats counts what an operator did, for EXPLAIN.
type Stats struct {
	Est    float64 // estimated rows (negative: no estimate)
	Rows   int64   // rows produced, over all openings
	Detail string  // the physical choice, e.g. "bind" or "hash"
}

// bgpNode runs a basic graph pattern as a pipeline, one step per pattern
// in the planned order.
type bgpNode struct {
	pats  []quadPat
	steps []plan.Step
	stats []*Stats // per step
	// empty is set when a constant is absent from the dictionary.
	empty bool
	// keys are, per step, the positions whose variable is bound before it
	// (the hash join key).
	keys [][]int
	// sortPos is, per pattern, the position of the variable a scan of it
	// is sorted on, or -1.
	sortPos []int
	// planned is how the planner saw each pattern.
	planned []plan.Pattern
	// lf is the leapfrog triejoin of the leading steps when the plan
	// starts with one; alt is then the left-deep plan, run instead when
	// the triejoin's arrays would not fit in memory.
	lf  *lfPlan
	alt *bgpNode
	// fellBack is set once alt ran in lf's place, for EXPLAIN.
	fellBack bool
	// paths are the property paths planned with the triples: pattern
	// len(triples)+i is paths[i].
	paths []*algebra.Path
}

// compileBGP encodes the constants of triples, estimates each pattern and
// plans the order, with the property paths paths as further patterns
// (only without a graph variable). graphVar is the slot of GRAPH ?g, or -1 for the active
// graph; bound are the slots bound before the pattern runs; inRows is how
// many times it is expected to run (seed rows).
func (c *compiler) compileBGP(triples []syntax.Triple, paths []*algebra.Path, graphVar int, bound []bool, inRows float64) (*bgpNode, error) {
	n := &bgpNode{paths: paths}
	if c.storeStats == nil {
		st, err := c.ex.View.Stats()
		if err != nil {
			return nil, err
		}
		c.storeStats = st
	}
	st := c.storeStats
	pats := make([]plan.Pattern, len(triples), len(triples)+len(paths))
	for i, tr := range triples {
		var qp quadPat
		var pat graph.Pattern
		nodes := [3]syntax.Node{tr.S, tr.P, tr.O}
		for k, nd := range nodes {
			if nd.IsVar() {
				qp.t[k] = pos{slot: c.slot(nd.Var)}
				continue
			}
			id, ok, err := c.ex.Dict.Lookup(nd.Term)
			if err != nil {
				return nil, err
			}
			if !ok || c.ex.Dict.isLocal(id) {
				n.empty = true
			}
			qp.t[k] = pos{slot: -1, id: id}
		}
		qp.t[3] = pos{slot: -1}
		if graphVar >= 0 {
			qp.t[3] = pos{slot: graphVar}
			qp.graphVar = true
		}
		pat.S, pat.P, pat.O = qp.t[0].id, qp.t[1].id, qp.t[2].id
		n.pats = append(n.pats, qp)
		if n.empty {
			continue
		}
		card, err := c.estimate(pat)
		if err != nil {
			return nil, err
		}
		n.pats[i].card = card
		pats[i] = planPattern(qp, card, st)
		pats[i].Hashed = c.hashed[tableName(&n.pats[i])]
		n.sortPos = append(n.sortPos, sortPos(qp))
		if k := n.sortPos[i]; k >= 0 {
			pats[i].Sorted = qp.t[k].slot
		}
	}
	if n.empty {
		return n, nil
	}
	for _, x := range paths {
		pn, err := c.compilePath(x)
		if err != nil {
			return nil, err
		}
		for i, p := range [2]pos{pn.s, pn.o} {
			pn.check[i] = p.slot >= 0 && isBound(bound, p.slot)
		}
		qp := pathPattern(pn)
		pp, err := c.planPath(x, &qp)
		if err != nil {
			return nil, err
		}
		n.pats = append(n.pats, qp)
		n.sortPos = append(n.sortPos, -1)
		pats = append(pats, pp)
	}
	n.planned = pats
	steps, err := plan.OrderFrom(c.ex.Ctx, pats, bound, inRows)
	if err != nil {
		return nil, err
	}
	n.setSteps(c, steps, bound, true)
	cost, _ := n.estimate()
	c.spent += cost
	if len(n.steps) > 0 && n.steps[0].Join == plan.Leapfrog {
		n.compileLeapfrog()
		n.alt = &bgpNode{pats: n.pats, sortPos: n.sortPos}
		if steps, err = plan.LeftDeep(c.ex.Ctx, pats, bound, inRows); err != nil {
			return nil, err
		}
		n.alt.setSteps(c, steps, bound, false)
	}
	return n, nil
}

// setSteps takes the planned steps and derives each one's hash join key
// and statistics; record notes the hash tables the steps build for the
// planning of later patterns.
func (n *bgpNode) setSteps(c *compiler, steps []plan.Step, bound []bool, record bool) {
	n.steps = steps
	known := append([]bool(nil), bound...)
	for _, s := range n.steps {
		var key []int
		for k, p := range n.pats[s.Pattern].t {
			if p.slot >= 0 && p.slot < len(known) && known[p.slot] {
				key = append(key, k)
			}
		}
		n.keys = append(n.keys, key)
		for _, p := range n.pats[s.Pattern].t {
			if p.slot >= 0 {
				for len(known) <= p.slot {
					known = append(known, false)
				}
				known[p.slot] = true
			}
		}
		detail := s.Join.String()
		if pn := n.pats[s.Pattern].path; pn != nil {
			detail += " " + pn.walkNote(key, s.Join)
		}
		n.stats = append(n.stats, &Stats{Est: s.Rows, Detail: detail})
		if s.Join == plan.Hash && record && n.pats[s.Pattern].path == nil {
			mask := 0
			for _, k := range key {
				mask |= 1 << k
			}
			c.hashed[tableName(&n.pats[s.Pattern])] |= 1 << mask
		}
	}
}

// estimate is the store's estimate of pat's matches, asked once per
// pattern: factoring a union plans the same patterns several times.
func (c *compiler) estimate(pat graph.Pattern) (float64, error) {
	if n, ok := c.estimates[pat]; ok {
		return n, nil
	}
	est, err := c.ex.View.Estimate(c.ex.Ctx, pat)
	if err != nil {
		return 0, err
	}
	c.estimates[pat] = float64(est.N)
	return float64(est.N), nil
}

// sortPos returns the position of the variable a scan of qp (its
// constants bound) returns quads sorted by: the first unbound column of
// the scan's order, the same whether the scan reads the union of all
// graphs or one graph. -1 when qp has a graph variable or the column is
// not a variable that occurs once.
func sortPos(qp quadPat) int {
	if qp.graphVar {
		return -1
	}
	shape := qp.pattern(nil)
	order := graph.AutoOrder(shape, true)
	ids := [4]ID{shape.S, shape.P, shape.O, shape.G}
	for _, c := range order.String() {
		k := strings.IndexByte("spog", byte(c))
		if ids[k] != graph.Any {
			continue
		}
		slot := qp.t[k].slot
		if slot < 0 {
			return -1
		}
		for j, p := range qp.t {
			if j != k && p.slot == slot {
				return -1
			}
		}
		return k
	}
	return -1
}

// planPattern describes qp to the planner: card matches with only the
// constants bound; distinct counts from the predicate statistics.
func planPattern(qp quadPat, card float64, st *graph.Stats) plan.Pattern {
	p := plan.Pattern{Card: card, Sorted: -1}
	var ps graph.PredicateStats
	var hasPred bool
	if qp.t[1].slot < 0 {
		ps, hasPred = st.Predicates[qp.t[1].id]
	}
	nvars := 0
	for k, x := range qp.t {
		p.Vars[k] = x.slot
		if x.slot >= 0 {
			nvars++
		}
	}
	for k, x := range qp.t {
		if x.slot < 0 {
			continue
		}
		d := card
		switch {
		case k == plan.P:
			d = float64(len(st.Predicates))
		case k == plan.G:
			d = float64(len(st.Graphs))
		case hasPred && nvars > 1 && k == plan.S:
			d = float64(ps.Subjects)
		case hasPred && nvars > 1 && k == plan.O:
			d = float64(ps.Objects)
		}
		p.Distinct[k] = math.Max(math.Min(d, card), 1)
	}
	return p
}

func (n *bgpNode) open(ex *Exec, e env) (iter, error) { return n.openFrom(ex, e, nil) }

// openFrom runs the pattern from the rows of in (each extending e's
// seed) instead of the seed alone, when in is not nil: the steps are
// then always left-deep ones.
func (n *bgpNode) openFrom(ex *Exec, e env, in iter) (iter, error) {
	if n.empty {
		if in != nil {
			in.close()
		}
		return emptyIter{}, nil
	}
	if in != nil && n.lf != nil {
		return n.alt.openFrom(ex, e, in)
	}
	var it iter = &sliceIter{rows: [][]ID{ex.newRow(e.seed)}}
	if in != nil {
		it = in
	}
	i := 0
	if n.lf != nil {
		lf, err := openLeapfrog(ex, n.lf, e.seed, e.graph)
		if err != nil {
			return nil, err
		}
		if lf == nil {
			n.fellBack = true
			return n.alt.open(ex, e)
		}
		it, i = lf, len(n.lf.rels)
	}
	for ; i < len(n.steps); i++ {
		s := n.steps[i]
		qp := &n.pats[s.Pattern]
		if i == 0 && in == nil && len(n.steps) > 1 && n.steps[1].Join == plan.Merge && e.graph.mergeable() {
			b := n.steps[1].Pattern
			m, err := openMerge(ex, e.seed, qp, &n.pats[b], n.sortPos[s.Pattern], n.sortPos[b], e.graph,
				[2]*Stats{n.stats[0], n.stats[1]})
			if err != nil {
				return nil, err
			}
			if m != nil {
				it = m
				i++
				continue
			}
		}
		switch {
		case qp.path != nil:
			it = openPathStep(ex, it, qp, s.Join, n.keys[i], e, n.stats[i])
		case s.Join == plan.Hash || s.Join == plan.Merge:
			it = &hashStep{ex: ex, in: it, pat: qp, key: n.keys[i], sel: e.graph, stats: n.stats[i]}
		default:
			it = &bindStep{ex: ex, in: it, pat: qp, sel: e.graph, stats: n.stats[i]}
		}
	}
	return it, nil
}

// extendInto is extend writing into dst (as wide as row) instead of a new
// row; nil when the quad conflicts with row.
func (qp *quadPat) extendInto(dst, row []ID, q graph.IDQuad) []ID {
	vals := [4]ID{q.S, q.P, q.O, q.G}
	copy(dst, row)
	for k, p := range qp.t {
		if p.slot < 0 {
			continue
		}
		if cur := dst[p.slot]; cur != vals[k] {
			if cur != 0 {
				return nil
			}
			dst[p.slot] = vals[k]
		}
	}
	return dst
}

// pattern substitutes row's bindings into qp.
func (qp *quadPat) pattern(row []ID) graph.Pattern {
	var ids [4]ID
	for k, p := range qp.t {
		if p.slot < 0 {
			ids[k] = p.id
		} else if p.slot < len(row) {
			ids[k] = row[p.slot]
		}
	}
	return graph.Pattern{S: ids[0], P: ids[1], O: ids[2], G: ids[3]}
}

// extend returns row extended with q's values for qp's variables, or nil
// when they conflict (a variable twice in the pattern, or already bound).
func (qp *quadPat) extend(ex *Exec, row []ID, q graph.IDQuad) []ID {
	vals := [4]ID{q.S, q.P, q.O, q.G}
	var out []ID
	for k, p := range qp.t {
		if p.slot < 0 {
			continue
		}
		cur := row[p.slot]
		if out != nil {
			cur = out[p.slot]
		}
		if cur == vals[k] {
			continue
		}
		if cur != 0 {
			return nil
		}
		if out == nil {
			out = ex.newRow(row)
		}
		out[p.slot] = vals[k]
	}
	if out == nil {
		return ex.newRow(row)
	}
	return out
}
