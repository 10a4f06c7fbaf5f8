package eval

import (
	"container/heap"
	"slices"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/expr"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// groupNode is hash aggregation: one accumulator set per distinct key, in
// memory (the groups, not the input rows, are kept).
type groupNode struct {
	sub      node
	keySlots []int
	keyVar   []int // slot read directly when the key is a plain variable, else -1
	keys     []*expr.Expr
	aggSlots []int
	aggs     []*expr.Aggregate
	// countRows is set for one group of COUNT(*)s: an input that can
	// count its solutions (a counter) is asked for their number instead.
	countRows bool
}

// counter is an iterator that can count the solutions it has left
// without producing them; ok is false (and nothing is consumed) when it
// cannot.
type counter interface {
	count() (n int64, ok bool, err error)
}

func (c *compiler) compileGroup(x *algebra.Group, bound []bool) (node, error) {
	sub, err := c.compile(x.Sub, bound)
	if err != nil {
		return nil, err
	}
	g := &groupNode{sub: sub}
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
	}
	g.countRows = len(g.keys) == 0 && len(g.aggs) > 0
	for _, a := range g.aggs {
		g.countRows = g.countRows && a.CountsRows()
	}
	return g, nil
}

type group struct {
	key  []ID
	accs []*expr.Accumulator
}

func (g *groupNode) open(ex *Exec, e env) (iter, error) {
	it, err := g.sub.open(ex, e)
	if err != nil {
		return nil, err
	}
	if c, ok := it.(counter); ok && g.countRows {
		n, ok, err := c.count()
		if err != nil {
			it.close()
			return nil, err
		}
		if ok {
			it.close()
			gr := g.newGroup(nil)
			for _, acc := range gr.accs {
				acc.AddRows(n)
			}
			r, err := g.row(ex, e.seed, gr)
			if err != nil {
				return nil, err
			}
			return &sliceIter{rows: [][]ID{r}}, nil
		}
	}
	return &groupIter{ex: ex, g: g, e: e, in: it, first: true}, nil
}

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
	var order []*group
	defer func() { ex.memRows -= len(order) }()
	var kb []byte
	keyIDs := make([]ID, len(g.keys))
	// One binding re-pointed at each row: the keys and accumulators read
	// it at once and keep nothing of it.
	b := &rowBinding{ex: ex, graph: e.graph}
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
				keyIDs[i] = r[s]
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
		kb = rowKey(kb[:0], keyIDs, nil)
		gr := groups[string(kb)]
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
			gr = g.newGroup(keyIDs)
			groups[string(kb)] = gr
			order = append(order, gr)
			ex.memRows++
		}
		for _, acc := range gr.accs {
			ex.Expr.NewSolution()
			acc.Add(ex.Expr, b)
		}
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
		r, err := g.row(ex, e.seed, gr)
		if err != nil {
			return nil, spill, err
		}
		rows = append(rows, r)
	}
	return rows, spill, nil
}

// row is the solution of group gr: its key and aggregate values.
func (g *groupNode) row(ex *Exec, seed []ID, gr *group) ([]ID, error) {
	r := ex.newRow(seed)
	for i, s := range g.keySlots {
		r[s] = gr.key[i]
	}
	for i, acc := range gr.accs {
		t, err := acc.Result()
		if err != nil {
			continue
		}
		if r[g.aggSlots[i]], err = ex.Dict.Encode(t); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (g *groupNode) newGroup(key []ID) *group {
	gr := &group{key: append([]ID(nil), key...)}
	for _, a := range g.aggs {
		gr.accs = append(gr.accs, a.New())
	}
	return gr
}

// orderNode sorts its input by the ORDER BY conditions (§15.1), stably.
type orderNode struct {
	sub  node
	keys []*expr.Expr
	desc []bool
}

// sortItem is a row with its ORDER BY keys and its input position,
// which keeps the sort stable across spilled runs.
type sortItem struct {
	seq  uint64
	row  []ID
	keys []rdf.Term
}

func (o *orderNode) less(a, b *sortItem) bool {
	for j := range o.keys {
		c := expr.Compare(a.keys[j], b.keys[j])
		if o.desc[j] {
			c = -c
		}
		if c != 0 {
			return c < 0
		}
	}
	return a.seq < b.seq
}

// open sorts in memory up to the memory bound; beyond, it writes sorted
// runs to spill files and merges them (an external merge sort).
func (o *orderNode) open(ex *Exec, e env) (iter, error) {
	it, err := o.sub.open(ex, e)
	if err != nil {
		return nil, err
	}
	defer it.close()
	var items []*sortItem
	var runs []*spillFile
	fail := func(err error) (iter, error) {
		ex.memRows -= len(items)
		for _, r := range runs {
			r.close()
		}
		return nil, err
	}
	for seq := uint64(0); ; seq++ {
		r, err := pull(ex, it)
		if err != nil {
			return fail(err)
		}
		if r == nil {
			break
		}
		b := ex.bind(r, e.graph)
		item := &sortItem{seq: seq, row: r, keys: make([]rdf.Term, len(o.keys))}
		for j, k := range o.keys {
			ex.Expr.NewSolution()
			if t, err := k.Eval(ex.Expr, b); err == nil {
				item.keys[j] = t
			}
		}
		if ex.storeErr != nil {
			return fail(ex.storeErr)
		}
		if ex.full() && len(items) > 0 {
			run, err := o.writeRun(ex, items)
			if err != nil {
				return fail(err)
			}
			runs = append(runs, run)
			ex.memRows -= len(items)
			items = items[:0]
		}
		items = append(items, item)
		ex.memRows++
	}
	if err := o.sort(ex, items); err != nil {
		return fail(err)
	}
	if len(runs) == 0 {
		rows := make([][]ID, len(items))
		for i, it := range items {
			rows[i] = it.row
		}
		ex.memRows -= len(items)
		return &sliceIter{rows: rows}, nil
	}
	run, err := o.writeRun(ex, items)
	if err != nil {
		return fail(err)
	}
	ex.memRows -= len(items)
	items = nil
	runs = append(runs, run)
	for len(runs) > maxMergeWidth {
		// Merge the first runs into one, so that no more than
		// maxMergeWidth files are open at once.
		m, err := o.merge(ex, runs[:maxMergeWidth])
		if err != nil {
			return fail(err)
		}
		merged, err := ex.newSpill()
		if err != nil {
			m.close()
			return fail(err)
		}
		for {
			item, err := m.nextItem()
			if err == nil && item == nil {
				break
			}
			if err == nil {
				err = ex.tick()
			}
			if err == nil {
				err = merged.write(item.seq, item.row, item.keys)
			}
			if err != nil {
				m.close()
				merged.close()
				return fail(err)
			}
		}
		m.close()
		runs = append(runs[maxMergeWidth:], merged)
	}
	m, err := o.merge(ex, runs)
	if err != nil {
		return fail(err)
	}
	return m, nil
}

// sortStopped is what a sort panics with to stop when the context is
// done; sort recovers it.
type sortStopped struct{}

// sort sorts items by o.less. Sorting a couple of million rows by
// decoded terms takes seconds, so it checks the context every
// checkEvery comparisons and stops with its error.
func (o *orderNode) sort(ex *Exec, items []*sortItem) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(sortStopped); !ok {
				panic(r)
			}
			err = ex.Ctx.Err()
		}
	}()
	n := 0
	slices.SortFunc(items, func(a, b *sortItem) int {
		if n++; n%checkEvery == 0 && ex.Ctx.Err() != nil {
			panic(sortStopped{})
		}
		if o.less(a, b) {
			return -1
		}
		return 1
	})
	return nil
}

// maxMergeWidth is the most sorted runs merged at once.
const maxMergeWidth = 64

// writeRun sorts items and writes them to a new spill file.
func (o *orderNode) writeRun(ex *Exec, items []*sortItem) (*spillFile, error) {
	if err := o.sort(ex, items); err != nil {
		return nil, err
	}
	f, err := ex.newSpill()
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		err := ex.tick()
		if err == nil {
			err = f.write(it.seq, it.row, it.keys)
		}
		if err != nil {
			f.close()
			return nil, err
		}
	}
	return f, nil
}

// mergeIter merges sorted runs, holding one item per run.
type mergeIter struct {
	o     *orderNode
	runs  []*spillReader
	heads []mergeHead // a heap, by o.less
}

func (o *orderNode) merge(ex *Exec, runs []*spillFile) (*mergeIter, error) {
	m := &mergeIter{o: o}
	for i, f := range runs {
		r, err := f.reader()
		if err != nil {
			for _, f := range runs {
				f.close()
			}
			return nil, err
		}
		m.runs = append(m.runs, r)
		if err := m.push(i); err != nil {
			m.close()
			for _, f := range runs[i+1:] {
				f.close()
			}
			return nil, err
		}
	}
	return m, nil
}

// push reads the next item of run i into the heap.
func (m *mergeIter) push(i int) error {
	seq, row, keys, err := m.runs[i].next(nil)
	if err != nil || row == nil {
		return err
	}
	heap.Push(m, mergeHead{&sortItem{seq: seq, row: row, keys: keys}, i})
	return nil
}

// mergeHead is a run's current item.
type mergeHead struct {
	item *sortItem
	run  int
}

func (m *mergeIter) Len() int           { return len(m.heads) }
func (m *mergeIter) Less(a, b int) bool { return m.o.less(m.heads[a].item, m.heads[b].item) }
func (m *mergeIter) Swap(a, b int)      { m.heads[a], m.heads[b] = m.heads[b], m.heads[a] }
func (m *mergeIter) Push(x any)         { m.heads = append(m.heads, x.(mergeHead)) }
func (m *mergeIter) Pop() any {
	h := m.heads[len(m.heads)-1]
	m.heads = m.heads[:len(m.heads)-1]
	return h
}

// nextItem pops the smallest item and refills from its run.
func (m *mergeIter) nextItem() (*sortItem, error) {
	if len(m.heads) == 0 {
		return nil, nil
	}
	h := heap.Pop(m).(mergeHead)
	return h.item, m.push(h.run)
}

func (m *mergeIter) next() ([]ID, error) {
	item, err := m.nextItem()
	if err != nil || item == nil {
		return nil, err
	}
	return item.row, nil
}

func (m *mergeIter) close() {
	for _, r := range m.runs {
		r.s.close()
	}
}
