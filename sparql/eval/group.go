package eval

import (
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/expr"
	"github.com/mneme-archive/mneme/sparql/optimize"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// groupNode is hash aggregation on IDs: one accumulator set per distinct
// key, in memory (the groups, not the input rows, are kept). Keys that
// are plain variables are their IDs; aggregates over a plain variable
// read its IDs too (see aggKind), so a row's terms are decoded only for
// the aggregates that compute with values. HAVING is evaluated on each
// group's values before they are encoded, so that the groups it rejects
// cost no dictionary work.
type groupNode struct {
	sub      node
	keySlots []int
	keyVar   []int // slot read directly when the key is a plain variable, else -1
	keys     []*expr.Expr
	aggSlots []int
	aggs     []*expr.Aggregate
	kinds    []aggKind
	argSlots []int // the slot of each aggregate's variable, or -1
	// having are the HAVING conditions (and filters pushed onto them)
	// when the group evaluates them itself.
	having []*expr.Expr
	// countRows is set for one group of COUNT(*)s: an input that can
	// count its solutions (a counter) is asked for their number instead.
	countRows bool
	// groups counts the groups formed, before HAVING, for EXPLAIN when
	// the group evaluates HAVING; est is the planner's estimate of them.
	groups *Stats
	est    float64
}

// aggKind is how an aggregate accumulates.
type aggKind uint8

const (
	// aggValue folds decoded values through an expr.Accumulator.
	aggValue aggKind = iota
	// aggCount counts rows (COUNT(*)) or bound IDs of a variable
	// (COUNT(?x)): nothing is decoded.
	aggCount
	// aggCountDistinct keeps the set of a variable's IDs: distinct
	// terms have distinct IDs.
	aggCountDistinct
	// aggMin and aggMax keep the best ID and its prepared term; a row's
	// term is decoded only when its ID is not the best one.
	aggMin
	aggMax
	// aggSum folds the numbers of a variable's prepared terms (SUM,
	// AVG): a term's number is parsed once, not per row.
	aggSum
)

// counter is an iterator that can count the solutions it has left
// without producing them; ok is false (and nothing is consumed) when it
// cannot.
type counter interface {
	count() (n int64, ok bool, err error)
}

// compileGroup compiles a GROUP BY with its aggregates; having are the
// conditions of a FILTER right above it (HAVING), evaluated by the group.
func (c *compiler) compileGroup(x *algebra.Group, having []syntax.Expr, bound []bool) (node, error) {
	sub, err := c.compile(x.Sub, bound)
	if err != nil {
		return nil, err
	}
	g := &groupNode{sub: sub, est: c.groupEst(x)}
	for _, k := range x.Keys {
		g.keySlots = append(g.keySlots, c.slot(k.Var))
		direct := -1
		if v, ok := k.Expr.(*syntax.Var); ok {
			direct = c.slot(v.Name)
		}
		g.keyVar = append(g.keyVar, direct)
		e, err := c.expr(k.Expr, nil)
		if err != nil {
			return nil, err
		}
		g.keys = append(g.keys, e)
	}
	for _, a := range x.Aggs {
		if err := c.existsIn(a.Agg.Arg, nil); err != nil {
			return nil, err
		}
		ca, err := expr.CompileAggregate(a.Agg, c.ex.Scope)
		if err != nil {
			return nil, err
		}
		g.aggSlots = append(g.aggSlots, c.slot(a.Var))
		g.aggs = append(g.aggs, ca)
		g.kinds = append(g.kinds, kindOf(ca))
		s, ok := ca.VarArg()
		if !ok {
			s = -1
		}
		g.argSlots = append(g.argSlots, s)
	}
	// COUNT(?x) of a variable bound in every solution is COUNT(*).
	certain := optimize.CertainVars(x.Sub)
	g.countRows = len(g.keys) == 0 && len(g.aggs) > 0
	for i, a := range g.aggs {
		v, isVar := x.Aggs[i].Agg.Arg.(*syntax.Var)
		g.countRows = g.countRows && (a.CountsRows() || g.kinds[i] == aggCount && isVar && certain[v.Name])
	}
	if having != nil {
		for _, h := range having {
			e, err := c.expr(h, nil)
			if err != nil {
				return nil, err
			}
			g.having = append(g.having, e)
		}
		// The group is not compiled on its own: its statistics are
		// the groups formed.
		g.groups = &Stats{Est: g.est, Detail: g.detail()}
		c.stats[x] = g.groups
	}
	return g, nil
}

// kindOf picks how a is accumulated.
func kindOf(a *expr.Aggregate) aggKind {
	_, isVar := a.VarArg()
	switch {
	case a.Name() == "COUNT" && !a.Distinct() && (isVar || a.Star()):
		return aggCount
	case a.Name() == "COUNT" && a.Distinct() && isVar:
		return aggCountDistinct
	case a.Name() == "MIN" && isVar:
		return aggMin
	case a.Name() == "MAX" && isVar:
		return aggMax
	case a.SumsKeys():
		return aggSum
	}
	return aggValue
}

// hasExists reports whether any of es contains an EXISTS, which needs
// the solution's row and so cannot be evaluated on a group's values.
func hasExists(es []syntax.Expr) bool {
	found := false
	for _, e := range es {
		syntax.WalkExpr(e, func(x syntax.Expr) bool {
			if _, ok := x.(*algebra.Exists); ok {
				found = true
			}
			return !found
		})
	}
	return found
}

// groupEst estimates the groups of x: one without keys; else the
// product of the keys' distinct values, each from the statistics of a
// predicate the variable is the subject or object of in x's patterns,
// at most the input's estimate.
func (c *compiler) groupEst(x *algebra.Group) float64 {
	if len(x.Keys) == 0 {
		return 1
	}
	in := c.est(x.Sub)
	est := 1.0
	for _, k := range x.Keys {
		v, ok := k.Expr.(*syntax.Var)
		d := -1.0
		if ok {
			d = c.distinctOf(x.Sub, v.Name)
		}
		if d < 0 {
			return in
		}
		est *= d
	}
	if in >= 0 && in < est {
		return in
	}
	return est
}

// distinctOf is the fewest distinct values the store's statistics give
// variable v in the triple patterns of op, or -1.
func (c *compiler) distinctOf(op algebra.Op, v string) float64 {
	if c.storeStats == nil {
		st, err := c.ex.View.Stats()
		if err != nil {
			return -1
		}
		c.storeStats = st
	}
	best := -1.0
	consider := func(d uint64) {
		if best < 0 || float64(d) < best {
			best = float64(d)
		}
	}
	var walk func(op algebra.Op)
	walk = func(op algebra.Op) {
		if b, ok := op.(*algebra.BGP); ok {
			for _, t := range b.Triples {
				if t.P.IsVar() {
					if t.P.Var == v {
						consider(uint64(len(c.storeStats.Predicates)))
					}
					continue
				}
				if !(t.S.IsVar() && t.S.Var == v) && !(t.O.IsVar() && t.O.Var == v) {
					continue
				}
				id, found, err := c.ex.Dict.Lookup(t.P.Term)
				if err != nil || !found {
					continue
				}
				ps := c.storeStats.Predicates[id]
				if t.S.IsVar() && t.S.Var == v {
					consider(ps.Subjects)
				}
				if t.O.IsVar() && t.O.Var == v {
					consider(ps.Objects)
				}
			}
			return
		}
		if _, ok := op.(*algebra.Project); ok {
			return // a subquery's variables are its own
		}
		for _, ch := range algebra.Children(op) {
			walk(ch)
		}
	}
	walk(op)
	return best
}

func (g *groupNode) rowsEst() float64 {
	if g.having != nil {
		return -1 // the groups' estimate is on the group
	}
	return g.est
}

// detail names the physical operator for EXPLAIN.
func (g *groupNode) detail() string {
	s := "hash aggregate on ids"
	if g.countRows {
		s += ", COUNT(*) counted by the input"
	}
	if g.having != nil {
		s += ", HAVING in the aggregate"
	}
	return s
}

// group is one group's key and accumulators.
type group struct {
	key  []ID
	accs []aggAcc
}

// aggAcc is one aggregate's state in a group; which fields it uses
// depends on the aggregate's kind.
type aggAcc struct {
	acc  *expr.Accumulator // aggValue, aggSum
	n    int64             // aggCount
	ids  map[ID]struct{}   // aggCountDistinct
	best ID                // aggMin, aggMax
	key  *expr.OrderKey    // the best term, prepared
}

func (g *groupNode) open(ex *Exec, e env) (iter, error) {
	if sr := scanRows(ex, g.sub, e); sr != nil {
		if rg := groupRuns(ex, g, e, sr.(*scanRowIter)); rg != nil {
			return rg, nil
		}
		gi := &groupIter{ex: ex, g: g, e: e, in: sr, first: true}
		if g.countRows {
			return &countGroupIter{gi: gi, c: sr.(counter)}, nil
		}
		return gi, nil
	}
	it, err := g.sub.open(ex, e)
	if err != nil {
		return nil, err
	}
	gi := &groupIter{ex: ex, g: g, e: e, in: it, first: true}
	if c, ok := it.(counter); ok && g.countRows {
		return &countGroupIter{gi: gi, c: c}, nil
	}
	return gi, nil
}

// countGroupIter answers a COUNT over its input's rows by asking the input
// to count them (see counter), or, when it cannot, as groupIter does. It
// counts on the first next, not when opened, so that opening a query stays
// cheap and the count runs where the caller reads and can cancel it.
type countGroupIter struct {
	gi      *groupIter
	c       counter
	counted bool
}

func (ci *countGroupIter) next() ([]ID, error) {
	if ci.counted {
		return ci.gi.next()
	}
	ci.counted = true
	gi := ci.gi
	n, ok, err := ci.c.count()
	if err != nil {
		return nil, err
	}
	if !ok {
		return gi.next()
	}
	gi.in.close()
	gi.in = nil
	gr := gi.g.newGroup(nil)
	for i := range gr.accs {
		gr.accs[i].n += n
	}
	r, keep, err := gi.g.row(gi.ex, gi.e, gr)
	if err != nil || !keep {
		return nil, err
	}
	return r, nil
}

func (ci *countGroupIter) close() { ci.gi.close() }

// groupIter aggregates its input in passes. A pass keeps one accumulator
// set per group in memory; once the groups reach the memory bound, the
// rows of groups it does not hold go to a spill file, which the next pass
// aggregates. Every group is thus aggregated whole, in one pass, from its
// rows in input order.
type groupIter struct {
	ex    *Exec
	g     *groupNode
	e     env
	in    iter
	first bool
	out   sliceIter
}

func (gi *groupIter) next() ([]ID, error) {
	for {
		if r, _ := gi.out.next(); r != nil {
			return r, nil
		}
		if gi.in == nil {
			return nil, nil
		}
		rows, spill, err := gi.g.pass(gi.ex, gi.e, gi.in, gi.first)
		gi.in.close()
		gi.in, gi.first = nil, false
		if err != nil {
			if spill != nil {
				spill.close()
			}
			return nil, err
		}
		gi.out = sliceIter{rows: rows}
		if spill != nil {
			if gi.in, err = spill.rowsIter(); err != nil {
				return nil, err
			}
		}
	}
}

func (gi *groupIter) close() {
	if gi.in != nil {
		gi.in.close()
	}
}

// pass aggregates the rows of it; rows of groups beyond the memory bound
// are returned in spill.
func (g *groupNode) pass(ex *Exec, e env, it iter, first bool) (rows [][]ID, spill *spillFile, err error) {
	groups := map[string]*group{}
	// One key, the common case, is looked up by its ID, not by bytes.
	var byID map[ID]*group
	if len(g.keys) == 1 {
		byID = map[ID]*group{}
	}
	var order []*group
	defer func() { ex.memRows -= len(order) }()
	var kb []byte
	keyIDs := make([]ID, len(g.keys))
	// One binding re-pointed at each row: the keys and accumulators read
	// it at once and keep nothing of it.
	b := &rowBinding{ex: ex, graph: e.graph}
	var last *group // the previous row's group: inputs often come grouped
	alloc := &groupAlloc{}
	for {
		r, err := it.next()
		if err != nil {
			return nil, spill, err
		}
		if r == nil {
			break
		}
		if err := ex.tick(); err != nil {
			return nil, spill, err
		}
		b.row = r
		for i, k := range g.keys {
			if s := g.keyVar[i]; s >= 0 {
				keyIDs[i] = slot(r, s)
				continue
			}
			ex.Expr.NewSolution()
			t, err := k.Eval(ex.Expr, b)
			if err != nil {
				keyIDs[i] = 0
				continue
			}
			if keyIDs[i], err = ex.Dict.Encode(t); err != nil {
				return nil, spill, err
			}
		}
		gr := last
		if gr == nil || !sameIDs(gr.key, keyIDs) {
			if byID != nil {
				gr = byID[keyIDs[0]]
			} else {
				kb = rowKey(kb[:0], keyIDs, nil)
				gr = groups[string(kb)]
			}
		}
		if gr == nil {
			if ex.full() && len(order) > 0 {
				if spill == nil {
					if spill, err = ex.newSpill(); err != nil {
						return nil, nil, err
					}
				}
				if err := spill.write(0, r, nil); err != nil {
					return nil, spill, err
				}
				continue
			}
			gr = g.newGroupIn(alloc, keyIDs)
			if byID != nil {
				byID[keyIDs[0]] = gr
			} else {
				groups[string(kb)] = gr
			}
			order = append(order, gr)
			ex.memRows++
		}
		last = gr
		g.add(ex, gr, r, b)
		if ex.storeErr != nil {
			return nil, spill, ex.storeErr
		}
	}
	if first && len(order) == 0 && len(g.keys) == 0 {
		order = append(order, g.newGroup(nil))
		ex.memRows++
	}
	rows = make([][]ID, 0, len(order))
	for _, gr := range order {
		r, keep, err := g.row(ex, e, gr)
		if err != nil {
			return nil, spill, err
		}
		if keep {
			rows = append(rows, r)
		}
	}
	return rows, spill, nil
}

func sameIDs(a, b []ID) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// add folds row r (bound to b) into gr.
func (g *groupNode) add(ex *Exec, gr *group, r []ID, b *rowBinding) {
	for i := range gr.accs {
		a := &gr.accs[i]
		switch g.kinds[i] {
		case aggCount:
			if s := g.argSlots[i]; s < 0 || slot(r, s) != 0 {
				a.n++
			}
		case aggCountDistinct:
			if id := slot(r, g.argSlots[i]); id != 0 {
				a.ids[id] = struct{}{}
			}
		case aggMin, aggMax:
			id := slot(r, g.argSlots[i])
			if id == 0 || id == a.best {
				continue
			}
			k, err := ex.Dict.orderKey(id)
			if err != nil {
				ex.fail(err)
				return
			}
			if a.best != 0 {
				c := expr.CompareKeys(k, a.key)
				if g.kinds[i] == aggMin && c >= 0 || g.kinds[i] == aggMax && c <= 0 {
					continue
				}
			}
			a.best, a.key = id, k
		case aggSum:
			id := slot(r, g.argSlots[i])
			if id == 0 {
				ex.Expr.NewSolution()
				a.acc.Add(ex.Expr, b) // the unbound argument's error
				continue
			}
			k, err := ex.Dict.orderKey(id)
			if err != nil {
				ex.fail(err)
				return
			}
			a.acc.AddKey(k)
		default:
			ex.Expr.NewSolution()
			a.acc.Add(ex.Expr, b)
		}
	}
}

// result is the value of aggregate i of a group, as a term or, when the
// value is a term of the input, as its ID (id != 0).
func (g *groupNode) result(i int, a *aggAcc) (t rdf.Term, id ID, err error) {
	switch g.kinds[i] {
	case aggCount:
		return expr.Integer(a.n), 0, nil
	case aggCountDistinct:
		return expr.Integer(int64(len(a.ids))), 0, nil
	case aggMin, aggMax:
		if a.best == 0 {
			return rdf.Term{}, 0, expr.ErrUnbound
		}
		return a.key.Term(), a.best, nil
	}
	t, err = a.acc.Result()
	return t, 0, err
}

// row is the solution of group gr: its key and aggregate values; keep
// is false when HAVING rejects it.
func (g *groupNode) row(ex *Exec, e env, gr *group) (r []ID, keep bool, err error) {
	if g.groups != nil {
		g.groups.Rows++
	}
	r = ex.newRow(e.seed)
	for i, s := range g.keySlots {
		r[s] = gr.key[i]
	}
	var vals []rdf.Term // the aggregates' values, for HAVING
	if g.having != nil {
		vals = make([]rdf.Term, len(gr.accs))
	}
	for i := range gr.accs {
		if vals == nil && (g.kinds[i] == aggCount || g.kinds[i] == aggCountDistinct) {
			n := gr.accs[i].n
			if g.kinds[i] == aggCountDistinct {
				n = int64(len(gr.accs[i].ids))
			}
			if r[g.aggSlots[i]], err = ex.Dict.Integer(n); err != nil {
				return nil, false, err
			}
			continue
		}
		t, id, err := g.result(i, &gr.accs[i])
		if err != nil {
			continue
		}
		if vals != nil {
			vals[i] = t
		}
		if id != 0 {
			r[g.aggSlots[i]] = id
			continue
		}
		if vals != nil {
			continue // encoded once HAVING has kept the group
		}
		if r[g.aggSlots[i]], err = ex.Dict.Encode(t); err != nil {
			return nil, false, err
		}
	}
	if vals == nil {
		return r, true, nil
	}
	hb := &havingBinding{rowBinding: rowBinding{row: r, ex: ex, graph: e.graph}, slots: g.aggSlots, vals: vals}
	for _, h := range g.having {
		ex.Expr.NewSolution()
		ok, err := h.EBV(ex.Expr, hb)
		if ex.storeErr != nil {
			return nil, false, ex.storeErr
		}
		if err != nil || !ok {
			return nil, false, nil
		}
	}
	for i, t := range vals {
		if r[g.aggSlots[i]] == 0 && !t.IsZero() {
			if r[g.aggSlots[i]], err = ex.Dict.Encode(t); err != nil {
				return nil, false, err
			}
		}
	}
	return r, true, nil
}

// havingBinding reads a group's aggregate values from their terms, not
// yet encoded, and its other slots from the row.
type havingBinding struct {
	rowBinding
	slots []int
	vals  []rdf.Term
}

func (b *havingBinding) Value(slot int) rdf.Term {
	for i, s := range b.slots {
		if s == slot {
			return b.vals[i]
		}
	}
	return b.rowBinding.Value(slot)
}

func (b *havingBinding) Bound(slot int) bool {
	for i, s := range b.slots {
		if s == slot {
			return !b.vals[i].IsZero()
		}
	}
	return b.rowBinding.Bound(slot)
}

func (g *groupNode) newGroup(key []ID) *group { return g.newGroupIn(nil, key) }

// groupAlloc hands out groups, their keys and accumulators from chunks:
// a pass forms many small groups that all live until it ends.
type groupAlloc struct {
	groups []group
	ids    []ID
	accs   []aggAcc
}

const groupChunk = 256

// newGroupIn makes a group with a copy of key, from a when it is not nil.
func (g *groupNode) newGroupIn(a *groupAlloc, key []ID) *group {
	var gr *group
	if a == nil {
		gr = &group{key: append([]ID(nil), key...), accs: make([]aggAcc, len(g.aggs))}
	} else {
		if len(a.groups) == cap(a.groups) {
			a.groups = make([]group, 0, groupChunk)
		}
		if len(a.ids)+len(key) > cap(a.ids) {
			a.ids = make([]ID, 0, groupChunk*max(len(key), 1))
		}
		if len(a.accs)+len(g.aggs) > cap(a.accs) {
			a.accs = make([]aggAcc, 0, groupChunk*max(len(g.aggs), 1))
		}
		a.groups = append(a.groups, group{})
		gr = &a.groups[len(a.groups)-1]
		n := len(a.ids)
		a.ids = append(a.ids, key...)
		gr.key = a.ids[n:len(a.ids):len(a.ids)]
		n = len(a.accs)
		a.accs = append(a.accs, make([]aggAcc, len(g.aggs))...)
		gr.accs = a.accs[n:len(a.accs):len(a.accs)]
	}
	for i, ag := range g.aggs {
		switch g.kinds[i] {
		case aggValue, aggSum:
			gr.accs[i].acc = ag.New()
		case aggCountDistinct:
			gr.accs[i].ids = map[ID]struct{}{}
		}
	}
	return gr
}
