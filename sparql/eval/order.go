package eval

import (
	"container/heap"
	"slices"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/expr"
)

// orderNode sorts its input by the ORDER BY conditions (§15.1), stably.
// Under a LIMIT (top >= 0) only the first top rows of the order are
// wanted, and it keeps just those, in a bounded heap (see topk.go).
type orderNode struct {
	sub  node
	keys []*expr.Expr
	desc []bool
	// vars are the slots of the keys that are plain variables, read as
	// IDs (-1 for the others).
	vars []int
	// top is OFFSET + LIMIT of the slice above, or -1.
	top int64
	// est is the planner's estimate of the rows out, or -1.
	est float64
	// ahead are the slots of the first key's variables, decoded ahead
	// (decodeahead.go).
	ahead []int
}

// sortItem is a row with its ORDER BY keys, prepared for comparison,
// and its input position, which keeps the sort stable across spilled
// runs and makes top-k keep the first of equal rows.
type sortItem struct {
	seq  uint64
	row  []ID
	keys []expr.OrderKey
}

func (o *orderNode) less(a, b *sortItem) bool {
	for j := range o.keys {
		c := expr.CompareKeys(&a.keys[j], &b.keys[j])
		if o.desc[j] {
			c = -c
		}
		if c != 0 {
			return c < 0
		}
	}
	return a.seq < b.seq
}

// key evaluates ORDER BY condition j on row b; an error is the unbound
// key, which sorts first.
func (o *orderNode) key(ex *Exec, j int, b *rowBinding) expr.OrderKey {
	if s := o.vars[j]; s >= 0 {
		id := slot(b.row, s)
		if id == 0 {
			return expr.OrderKey{}
		}
		k, err := ex.Dict.orderKeyOf(id)
		if err != nil {
			ex.fail(err)
			return expr.OrderKey{}
		}
		return k
	}
	ex.Expr.NewSolution()
	t, err := o.keys[j].Eval(ex.Expr, b)
	if err != nil {
		return expr.OrderKey{}
	}
	return expr.KeyOf(t)
}

// terms returns the terms of prepared keys, as spill files keep them.
func terms(keys []expr.OrderKey) []rdf.Term {
	out := make([]rdf.Term, len(keys))
	for i := range keys {
		out[i] = keys[i].Term()
	}
	return out
}

// keysOf prepares terms read back from a spill file.
func keysOf(ts []rdf.Term) []expr.OrderKey {
	out := make([]expr.OrderKey, len(ts))
	for i, t := range ts {
		out[i] = expr.KeyOf(t)
	}
	return out
}

// open sorts in memory up to the memory bound; beyond, it writes sorted
// runs to spill files and merges them (an external merge sort).
func (o *orderNode) open(ex *Exec, e env) (iter, error) {
	it, err := o.sub.open(ex, e)
	if err != nil {
		return nil, err
	}
	it = decodeAhead(ex, it, o.ahead)
	defer it.close()
	if o.top >= 0 && o.top <= int64(ex.maxRows()-ex.memRows) {
		return o.topK(ex, e, it)
	}
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
		item := &sortItem{seq: seq, row: r, keys: make([]expr.OrderKey, len(o.keys))}
		for j := range o.keys {
			item.keys[j] = o.key(ex, j, b)
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
				err = merged.write(item.seq, item.row, terms(item.keys))
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
			err = f.write(it.seq, it.row, terms(it.keys))
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
	heap.Push(m, mergeHead{&sortItem{seq: seq, row: row, keys: keysOf(keys)}, i})
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
