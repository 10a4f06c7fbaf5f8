package eval

import "github.com/mneme-archive/mneme/sparql/expr"

// bindJoinNode opens its right side once per left row, with the row as
// the seed: the right side's scans start from the bound values. Only
// pattern operators (pure) are joined this way, where substituting equals
// joining.
type bindJoinNode struct{ left, right node }

func (j *bindJoinNode) detail() string { return "bind" }

func (j *bindJoinNode) open(ex *Exec, e env) (iter, error) {
	l, err := j.left.open(ex, e)
	if err != nil {
		return nil, err
	}
	return &bindJoinIter{ex: ex, e: e, left: l, right: j.right}, nil
}

type bindJoinIter struct {
	ex    *Exec
	e     env
	left  iter
	right node
	cur   iter
}

func (j *bindJoinIter) next() ([]ID, error) {
	for {
		if j.cur != nil {
			r, err := j.cur.next()
			if err != nil || r != nil {
				return r, err
			}
			j.cur.close()
			j.cur = nil
		}
		l, err := pull(j.ex, j.left)
		if err != nil || l == nil {
			return nil, err
		}
		if j.cur, err = j.right.open(j.ex, env{seed: l, graph: j.e.graph}); err != nil {
			return nil, err
		}
	}
}

func (j *bindJoinIter) close() {
	if j.cur != nil {
		j.cur.close()
	}
	j.left.close()
}

// rowTable is a materialized side of a join, hashed on key slots that
// every one of its rows binds.
type rowTable struct {
	keys    []int
	buckets map[string][][]ID
	all     [][]ID
	kb      []byte
}

func buildTable(ex *Exec, n node, e env, keys []int) (*rowTable, error) {
	it, err := n.open(ex, e)
	if err != nil {
		return nil, err
	}
	rows, err := drain(ex, it)
	if err != nil {
		return nil, err
	}
	t := &rowTable{keys: keys, all: rows}
	if len(keys) > 0 {
		t.buckets = map[string][][]ID{}
		for _, r := range rows {
			k := string(rowKey(nil, r, keys))
			t.buckets[k] = append(t.buckets[k], r)
		}
	}
	return t, nil
}

// candidates returns the rows that may be compatible with row: its key's
// bucket when row binds every key slot, else all rows.
func (t *rowTable) candidates(row []ID) [][]ID {
	if t.buckets == nil {
		return t.all
	}
	for _, s := range t.keys {
		if row[s] == 0 {
			return t.all
		}
	}
	t.kb = rowKey(t.kb[:0], row, t.keys)
	return t.buckets[string(t.kb)]
}

// hashJoinNode materializes its right side and probes it with each left
// row; used where the right side is not a pure pattern.
type hashJoinNode struct {
	left, right node
	keys        []int
}

func (j *hashJoinNode) detail() string { return "hash" }

func (j *hashJoinNode) open(ex *Exec, e env) (iter, error) {
	t, err := buildTable(ex, j.right, e, j.keys)
	if err != nil {
		return nil, err
	}
	l, err := j.left.open(ex, e)
	if err != nil {
		return nil, err
	}
	return &probeIter{ex: ex, left: l, t: t}, nil
}

type probeIter struct {
	ex    *Exec
	left  iter
	t     *rowTable
	row   []ID
	cands [][]ID
}

func (p *probeIter) next() ([]ID, error) {
	for {
		for len(p.cands) > 0 {
			if err := p.ex.tick(); err != nil {
				return nil, err
			}
			c := p.cands[0]
			p.cands = p.cands[1:]
			if compatible(p.row, c) {
				return p.ex.merge(p.row, c), nil
			}
		}
		l, err := pull(p.ex, p.left)
		if err != nil || l == nil {
			return nil, err
		}
		p.row, p.cands = l, p.t.candidates(l)
	}
}

func (p *probeIter) close() { p.left.close() }

// leftJoinNode is OPTIONAL: each left row joined with the compatible
// right rows that pass the filter, or alone when there are none. A pure
// right side is opened per left row (bind); otherwise it is materialized
// and hashed.
type leftJoinNode struct {
	left, right node
	filter      *expr.Expr
	bind        bool
	keys        []int
}

func (j *leftJoinNode) detail() string {
	if j.bind {
		return "bind"
	}
	return "hash"
}

func (j *leftJoinNode) open(ex *Exec, e env) (iter, error) {
	var t *rowTable
	if !j.bind {
		var err error
		if t, err = buildTable(ex, j.right, e, j.keys); err != nil {
			return nil, err
		}
	}
	l, err := j.left.open(ex, e)
	if err != nil {
		return nil, err
	}
	return &leftJoinIter{ex: ex, e: e, j: j, left: l, t: t}, nil
}

type leftJoinIter struct {
	ex      *Exec
	e       env
	j       *leftJoinNode
	left    iter
	t       *rowTable
	row     []ID
	matched bool
	cands   [][]ID
	cur     iter
	active  bool
}

func (it *leftJoinIter) accept(r []ID) bool {
	return it.j.filter == nil || it.ex.test([]*expr.Expr{it.j.filter}, r, it.e.graph)
}

func (it *leftJoinIter) next() ([]ID, error) {
	for {
		if it.active {
			if it.cur != nil {
				for {
					r, err := it.cur.next()
					if err != nil {
						return nil, err
					}
					if r == nil {
						break
					}
					if it.accept(r) {
						it.matched = true
						return r, it.ex.storeErr
					}
				}
				it.cur.close()
				it.cur = nil
			}
			for len(it.cands) > 0 {
				c := it.cands[0]
				it.cands = it.cands[1:]
				if !compatible(it.row, c) {
					continue
				}
				if m := it.ex.merge(it.row, c); it.accept(m) {
					it.matched = true
					return m, it.ex.storeErr
				}
			}
			it.active = false
			if !it.matched {
				return it.row, nil
			}
		}
		l, err := pull(it.ex, it.left)
		if err != nil || l == nil {
			return nil, err
		}
		it.row, it.matched, it.active = l, false, true
		if it.t != nil {
			it.cands = it.t.candidates(l)
		} else if it.cur, err = it.j.right.open(it.ex, env{seed: l, graph: it.e.graph}); err != nil {
			return nil, err
		}
	}
}

func (it *leftJoinIter) close() {
	if it.cur != nil {
		it.cur.close()
	}
	it.left.close()
}

// minusNode removes the left rows compatible with a right row that shares
// a bound variable with it.
type minusNode struct {
	left, right node
	keys        []int
}

func (m *minusNode) open(ex *Exec, e env) (iter, error) {
	t, err := buildTable(ex, m.right, e, m.keys)
	if err != nil {
		return nil, err
	}
	l, err := m.left.open(ex, e)
	if err != nil {
		return nil, err
	}
	return &minusIter{ex: ex, left: l, t: t}, nil
}

type minusIter struct {
	ex   *Exec
	left iter
	t    *rowTable
}

func (m *minusIter) next() ([]ID, error) {
	for {
		l, err := pull(m.ex, m.left)
		if err != nil || l == nil {
			return nil, err
		}
		if !m.removed(l) {
			return l, nil
		}
	}
}

func (m *minusIter) removed(l []ID) bool {
	for _, r := range m.t.candidates(l) {
		if compatible(l, r) && sharesBinding(l, r) {
			return true
		}
	}
	return false
}

func sharesBinding(a, b []ID) bool {
	for i := range min(len(a), len(b)) {
		if a[i] != 0 && b[i] != 0 {
			return true
		}
	}
	return false
}

func (m *minusIter) close() { m.left.close() }
