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

// partitions is how many spill files a grace hash join splits each side
// into.
const partitions = 16

// joinStages pairs a join's left rows with the table of right rows they
// probe. While the right side fits the memory bound there is one stage:
// the left input and the whole table. Past the bound (with join keys),
// it is a grace hash join: both sides are partitioned on the key into
// spill files, and each stage is one partition's left rows probing its
// right rows, so only a partition is in memory at a time.
type joinStages struct {
	ex     *Exec
	keys   []int
	left   iter
	t      *rowTable
	held   int // rows of t counted against the bound
	lparts []*spillFile
	rparts []*spillFile
	i      int
	kb     []byte
}

// openJoin materializes the right side (partitioning it when it outgrows
// the bound) and opens the left one.
func (ex *Exec) openJoin(left, right node, e env, keys []int) (*joinStages, error) {
	st := &joinStages{ex: ex, keys: keys}
	it, err := right.open(ex, e)
	if err != nil {
		return nil, err
	}
	defer it.close()
	var rows [][]ID
	for {
		r, err := pull(ex, it)
		if err != nil {
			st.close()
			return nil, err
		}
		if r == nil {
			break
		}
		if st.rparts != nil {
			if err := st.put(st.rparts, r); err != nil {
				st.close()
				return nil, err
			}
			continue
		}
		if ex.full() && len(keys) > 0 && len(rows) > 0 {
			if st.rparts, err = st.newParts(); err != nil {
				st.close()
				return nil, err
			}
			for _, r := range append(rows, r) {
				if err := st.put(st.rparts, r); err != nil {
					st.close()
					return nil, err
				}
			}
			ex.memRows -= len(rows)
			rows = nil
			continue
		}
		rows = append(rows, r)
		ex.memRows++
	}
	if st.rparts == nil {
		st.t, st.held = newRowTable(rows, keys), len(rows)
	}
	if st.left, err = left.open(ex, e); err != nil {
		st.close()
		return nil, err
	}
	return st, nil
}

func (st *joinStages) newParts() ([]*spillFile, error) {
	parts := make([]*spillFile, partitions)
	for i := range parts {
		f, err := st.ex.newSpill()
		if err != nil {
			for _, f := range parts[:i] {
				f.close()
			}
			return nil, err
		}
		parts[i] = f
	}
	return parts, nil
}

// put writes r to the partition of its key.
func (st *joinStages) put(parts []*spillFile, r []ID) error {
	st.kb = rowKey(st.kb[:0], r, st.keys)
	h := uint64(14695981039346656037)
	for _, c := range st.kb {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return parts[h%partitions].write(0, r, nil)
}

// next returns the next stage's left rows and table; nil when done.
func (st *joinStages) next() (iter, *rowTable, error) {
	if st.rparts == nil {
		if st.left == nil {
			return nil, nil, nil
		}
		l := st.left
		st.left = nil
		return l, st.t, nil
	}
	if st.lparts == nil {
		// Partition the left side once the right one is spilled.
		var err error
		if st.lparts, err = st.newParts(); err != nil {
			return nil, nil, err
		}
		for {
			r, err := pull(st.ex, st.left)
			if err != nil {
				return nil, nil, err
			}
			if r == nil {
				break
			}
			if err := st.put(st.lparts, r); err != nil {
				return nil, nil, err
			}
		}
		st.left.close()
		st.left = nil
	}
	if st.i >= partitions {
		return nil, nil, nil
	}
	i := st.i
	st.i++
	rit, err := st.rparts[i].rowsIter()
	st.rparts[i] = nil
	if err != nil {
		return nil, nil, err
	}
	rows, err := drain(st.ex, rit)
	if err != nil {
		return nil, nil, err
	}
	l, err := st.lparts[i].rowsIter()
	st.lparts[i] = nil
	if err != nil {
		return nil, nil, err
	}
	return l, newRowTable(rows, st.keys), nil
}

func (st *joinStages) close() {
	if st.left != nil {
		st.left.close()
	}
	for _, parts := range [][]*spillFile{st.lparts, st.rparts} {
		for _, f := range parts {
			if f != nil {
				f.close()
			}
		}
	}
	st.ex.memRows -= st.held
	st.held = 0
}

// hashJoinNode materializes its right side and probes it with each left
// row; used where the right side is not a pure pattern.
type hashJoinNode struct {
	left, right node
	keys        []int
}

func (j *hashJoinNode) detail() string { return "hash" }

func (j *hashJoinNode) open(ex *Exec, e env) (iter, error) {
	st, err := ex.openJoin(j.left, j.right, e, j.keys)
	if err != nil {
		return nil, err
	}
	return &probeIter{ex: ex, st: st}, nil
}

type probeIter struct {
	ex    *Exec
	st    *joinStages
	left  iter
	t     *rowTable
	row   []ID
	cands [][]ID
}

// pullLeft returns the next left row and its table, moving through the
// stages; nil at the end.
func pullLeft(ex *Exec, st *joinStages, left *iter, t **rowTable) ([]ID, error) {
	for {
		if *left != nil {
			l, err := pull(ex, *left)
			if err != nil || l != nil {
				return l, err
			}
			(*left).close()
			*left = nil
		}
		l, nt, err := st.next()
		if err != nil || l == nil {
			return nil, err
		}
		*left, *t = l, nt
	}
}

func closeStages(st *joinStages, left iter) {
	if left != nil {
		left.close()
	}
	st.close()
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
		l, err := pullLeft(p.ex, p.st, &p.left, &p.t)
		if err != nil || l == nil {
			return nil, err
		}
		p.row, p.cands = l, p.t.candidates(l)
	}
}

func (p *probeIter) close() { closeStages(p.st, p.left) }

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
	if !j.bind {
		st, err := ex.openJoin(j.left, j.right, e, j.keys)
		if err != nil {
			return nil, err
		}
		return &leftJoinIter{ex: ex, e: e, j: j, st: st}, nil
	}
	l, err := j.left.open(ex, e)
	if err != nil {
		return nil, err
	}
	return &leftJoinIter{ex: ex, e: e, j: j, left: l}, nil
}

type leftJoinIter struct {
	ex      *Exec
	e       env
	j       *leftJoinNode
	st      *joinStages // nil for a bind left join
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
		var l []ID
		var err error
		if it.st != nil {
			l, err = pullLeft(it.ex, it.st, &it.left, &it.t)
		} else {
			l, err = pull(it.ex, it.left)
		}
		if err != nil || l == nil {
			return nil, err
		}
		it.row, it.matched, it.active = l, false, true
		if it.st != nil {
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
	if it.st != nil {
		closeStages(it.st, it.left)
	} else {
		it.left.close()
	}
}

// minusNode removes the left rows compatible with a right row that shares
// a bound variable with it; without a right side (no variable shared)
// it removes none.
type minusNode struct {
	left, right node
	keys        []int
}

func (m *minusNode) detail() string {
	if m.right == nil {
		return "nothing shared"
	}
	return "anti-join hash"
}

func (m *minusNode) open(ex *Exec, e env) (iter, error) {
	if m.right == nil {
		return m.left.open(ex, e)
	}
	st, err := ex.openJoin(m.left, m.right, e, m.keys)
	if err != nil {
		return nil, err
	}
	return &minusIter{ex: ex, st: st}, nil
}

type minusIter struct {
	ex   *Exec
	st   *joinStages
	left iter
	t    *rowTable
}

func (m *minusIter) next() ([]ID, error) {
	for {
		l, err := pullLeft(m.ex, m.st, &m.left, &m.t)
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

func (m *minusIter) close() { closeStages(m.st, m.left) }
