package eval

import (
	"container/heap"
	"fmt"
	"math"

	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/expr"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// topK returns the first o.top rows of the order of it's rows: a heap of
// at most o.top rows whose root is the last of them, so that a row
// enters only when it sorts before the root, which it then replaces.
// The input position breaks ties, as in the full sort: a later row equal
// to the root on every key does not enter, so the rows kept are exactly
// the first o.top of the stable sort. A row is compared with the root
// key by key, each evaluated only when the keys before it are equal.
func (o *orderNode) topK(ex *Exec, e env, it iter) (iter, error) {
	h := &topHeap{o: o}
	defer func() { ex.memRows -= len(h.items) }()
	if o.top == 0 {
		return emptyIter{}, nil
	}
	scratch := make([]expr.OrderKey, len(o.keys))
	b := &rowBinding{ex: ex, graph: e.graph}
	for seq := uint64(0); ; seq++ {
		r, err := pull(ex, it)
		if err != nil {
			return nil, err
		}
		if r == nil {
			break
		}
		b.row = r
		have := 0 // keys of r evaluated into scratch
		if int64(len(h.items)) == o.top {
			root := h.items[0]
			before := false
			for j := range o.keys {
				scratch[j] = o.key(ex, j, b)
				have = j + 1
				c := expr.CompareKeys(&scratch[j], &root.keys[j])
				if o.desc[j] {
					c = -c
				}
				if c != 0 {
					before = c < 0
					break
				}
			}
			if ex.storeErr != nil {
				return nil, ex.storeErr
			}
			if !before {
				continue
			}
		}
		item := &sortItem{seq: seq, row: r, keys: make([]expr.OrderKey, len(o.keys))}
		copy(item.keys, scratch[:have])
		for j := have; j < len(o.keys); j++ {
			item.keys[j] = o.key(ex, j, b)
		}
		if ex.storeErr != nil {
			return nil, ex.storeErr
		}
		if int64(len(h.items)) == o.top {
			h.items[0] = item
			heap.Fix(h, 0)
			continue
		}
		heap.Push(h, item)
		ex.memRows++
	}
	items := h.items
	if err := o.sort(ex, items); err != nil {
		return nil, err
	}
	rows := make([][]ID, len(items))
	for i, it := range items {
		rows[i] = it.row
	}
	return &sliceIter{rows: rows}, nil
}

// topHeap is a max-heap of sort items in o's order: the root is the
// last row kept.
type topHeap struct {
	o     *orderNode
	items []*sortItem
}

func (h *topHeap) Len() int           { return len(h.items) }
func (h *topHeap) Less(a, b int) bool { return h.o.less(h.items[b], h.items[a]) }
func (h *topHeap) Swap(a, b int)      { h.items[a], h.items[b] = h.items[b], h.items[a] }
func (h *topHeap) Push(x any)         { h.items = append(h.items, x.(*sortItem)) }
func (h *topHeap) Pop() any {
	it := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return it
}

// detail names the physical operator for EXPLAIN.
func (o *orderNode) detail() string {
	if o.top >= 0 {
		return fmt.Sprintf("top-k %d (heap)", o.top)
	}
	return ""
}

func (o *orderNode) rowsEst() float64 { return o.est }

func (s *sliceNode) rowsEst() float64 { return s.est }

// compileOrderBy compiles an ORDER BY, as a top-k when a LIMIT above it
// reads only its first rows.
func (c *compiler) compileOrderBy(x *algebra.OrderBy, bound []bool) (node, error) {
	sub, err := c.compile(x.Sub, bound)
	if err != nil {
		return nil, err
	}
	o := &orderNode{sub: sub, top: -1, est: c.est(x.Sub)}
	if top, ok := c.tops[x]; ok {
		o.top = top
		if o.est < 0 || o.est > float64(top) {
			o.est = float64(top)
		}
	}
	for _, cond := range x.Conds {
		e, err := c.expr(cond.Expr, nil)
		if err != nil {
			return nil, err
		}
		o.keys = append(o.keys, e)
		o.desc = append(o.desc, cond.Desc)
		v := -1
		if x, ok := cond.Expr.(*syntax.Var); ok {
			v = c.slot(x.Name)
		}
		o.vars = append(o.vars, v)
	}
	if len(x.Conds) > 0 {
		o.ahead = c.aheadSlots(x.Sub, x.Conds[0].Expr)
	}
	return o, nil
}

// compileSlice compiles OFFSET/LIMIT; an ORDER BY under it (through the
// projection) needs only its first OFFSET + LIMIT rows.
func (c *compiler) compileSlice(x *algebra.Slice, bound []bool) (node, error) {
	under := x.Sub
	if p, ok := under.(*algebra.Project); ok {
		under = p.Sub
	}
	if ob, ok := under.(*algebra.OrderBy); ok && x.Limit >= 0 && x.Offset >= 0 && x.Offset <= math.MaxInt64-x.Limit {
		if c.tops == nil {
			c.tops = map[*algebra.OrderBy]int64{}
		}
		c.tops[ob] = x.Offset + x.Limit
	}
	sub, err := c.compile(x.Sub, bound)
	if err != nil {
		return nil, err
	}
	s := &sliceNode{sub: sub, offset: x.Offset, limit: x.Limit, est: c.est(x.Sub)}
	if s.est >= 0 {
		s.est = max(s.est-float64(x.Offset), 0)
		if x.Limit >= 0 {
			s.est = min(s.est, float64(x.Limit))
		}
	}
	return s, nil
}

// est is the planner's estimate of the rows of a compiled operator, or
// -1 when it made none.
// Operators that keep their input's rows have its estimate.
func (c *compiler) est(op algebra.Op) float64 {
	if st := c.stats[op]; st != nil && st.Est >= 0 {
		return st.Est
	}
	switch x := op.(type) {
	case *algebra.Project:
		return c.est(x.Sub)
	case *algebra.Extend:
		return c.est(x.Sub)
	case *algebra.Reduced:
		return c.est(x.Sub)
	}
	return -1
}
