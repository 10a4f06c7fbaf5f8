package eval

import (
	"encoding/binary"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/expr"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// filterNode keeps the rows for which every expression is true.
type filterNode struct {
	sub   node
	exprs []*expr.Expr
	// memo is, per expression, the slot of its one variable when its
	// value depends on that alone (see memoSlot), else -1: its result
	// is then remembered per ID of the variable.
	memo []int
	// ahead are the slots decoded ahead of the test (decodeahead.go).
	ahead []int
}

// maxMemo bounds the IDs a filter remembers results for, per
// expression.
const maxMemo = 1 << 16

// memoSlot returns the slot of e's one variable when e's value is a
// function of that variable's term alone: no other variable, no EXISTS,
// nothing random or fresh (RAND, BNODE, UUID, STRUUID), no function
// but the built-ins and XSD casts; -1 otherwise.
func (c *compiler) memoSlot(e syntax.Expr) int {
	v, ok := "", true
	syntax.WalkExpr(e, func(x syntax.Expr) bool {
		switch y := x.(type) {
		case *syntax.Var:
			if v != "" && v != y.Name {
				ok = false
			}
			v = y.Name
		case *syntax.Call:
			switch y.Op {
			case "RAND", "BNODE", "UUID", "STRUUID":
				ok = false
			}
		case *syntax.FuncCall:
			ok = ok && strings.HasPrefix(y.IRI, rdf.XSDNS)
		case *syntax.Const:
		default:
			ok = false // EXISTS, aggregates
		}
		return ok
	})
	if !ok || v == "" {
		return -1
	}
	return c.slot(v)
}

func (f *filterNode) open(ex *Exec, e env) (iter, error) {
	it, err := f.sub.open(ex, e)
	if err != nil {
		return nil, err
	}
	it = decodeAhead(ex, it, f.ahead)
	return &filterIter{ex: ex, it: it, f: f, b: rowBinding{ex: ex, graph: e.graph}}, nil
}

type filterIter struct {
	ex *Exec
	it iter
	f  *filterNode
	// b is re-pointed at each row: expressions keep nothing of it.
	b rowBinding
	// memo holds, per memoized expression, its result by ID, once
	// memoStart rows were tested (a filter opened per row of a bind
	// join or EXISTS sees few rows: a memo would cost more than it saves).
	memo []map[ID]bool
	n    int
}

const memoStart = 32

func (f *filterIter) next() ([]ID, error) {
	for {
		r, err := pull(f.ex, f.it)
		if err != nil || r == nil {
			return nil, err
		}
		f.b.row = r
		if f.test(r) {
			return r, f.ex.storeErr
		}
	}
}

// test is testBinding for the row, taking the results of memoized
// expressions from their memo.
func (f *filterIter) test(r []ID) bool {
	ex := f.ex
	f.n++
	for i, e := range f.f.exprs {
		s := -1
		if i < len(f.f.memo) && f.n > memoStart {
			s = f.f.memo[i]
		}
		var id ID
		if s >= 0 {
			if s < len(r) {
				id = r[s]
			}
			if f.memo == nil {
				f.memo = make([]map[ID]bool, len(f.f.exprs))
			}
			if f.memo[i] == nil {
				f.memo[i] = map[ID]bool{}
			}
			if res, ok := f.memo[i][id]; ok {
				if !res {
					return false
				}
				continue
			}
		}
		ex.Expr.NewSolution()
		ok, err := e.EBV(ex.Expr, &f.b)
		res := err == nil && ok
		if s >= 0 && len(f.memo[i]) < maxMemo && ex.storeErr == nil {
			f.memo[i][id] = res
		}
		if !res {
			return false
		}
	}
	return true
}

func (f *filterIter) close() { f.it.close() }

// test reports whether every expression's effective boolean value is
// true for row; errors count as false (§17.2).
func (ex *Exec) test(exprs []*expr.Expr, row []ID, g *graphSel) bool {
	return ex.testBinding(exprs, ex.bind(row, g))
}

// testBinding is test on a row's binding.
func (ex *Exec) testBinding(exprs []*expr.Expr, b *rowBinding) bool {
	for _, e := range exprs {
		ex.Expr.NewSolution()
		ok, err := e.EBV(ex.Expr, b)
		if err != nil || !ok {
			return false
		}
	}
	return true
}

// unionNode yields the left rows, then the right ones.
type unionNode struct{ left, right node }

func (u *unionNode) open(ex *Exec, e env) (iter, error) {
	l, err := u.left.open(ex, e)
	if err != nil {
		return nil, err
	}
	return &unionIter{ex: ex, e: e, cur: l, right: u.right}, nil
}

type unionIter struct {
	ex    *Exec
	e     env
	cur   iter
	right node
}

func (u *unionIter) next() ([]ID, error) {
	for {
		r, err := u.cur.next()
		if err != nil || r != nil || u.right == nil {
			return r, err
		}
		u.cur.close()
		it, err := u.right.open(u.ex, u.e)
		if err != nil {
			u.cur = emptyIter{}
			return nil, err
		}
		u.cur, u.right = it, nil
	}
}

func (u *unionIter) close() { u.cur.close() }

// extendNode binds slots to expressions' values in order (BIND, SELECT
// expressions; a chain of them evaluates as one solution, so BNODE(str)
// agrees across them); an error leaves the slot unbound.
type extendNode struct {
	sub   node
	slots []int
	exprs []*expr.Expr
	// fixed holds the IDs of constant expressions, encoded once (0 for
	// the others).
	fixed []ID
	// from is the slot a plain variable expression copies its ID from
	// (-1 for the others): nothing is decoded or encoded.
	from []int
}

func (x *extendNode) open(ex *Exec, e env) (iter, error) {
	it, err := x.sub.open(ex, e)
	if err != nil {
		return nil, err
	}
	return &mapIter{it: it, fn: func(r []ID) ([]ID, error) {
		ex.Expr.NewSolution()
		out := ex.newRow(r)
		b := ex.bind(out, e.graph)
		for i, xe := range x.exprs {
			if id := x.fixed[i]; id != 0 {
				out[x.slots[i]] = id
				continue
			}
			if f := x.from[i]; f >= 0 {
				out[x.slots[i]] = slot(out, f)
				continue
			}
			t, err := xe.Eval(ex.Expr, b)
			if ex.storeErr != nil {
				return nil, ex.storeErr
			}
			if err != nil {
				continue
			}
			if out[x.slots[i]], err = ex.Dict.Encode(t); err != nil {
				return nil, err
			}
		}
		return out, nil
	}}, nil
}

// mapIter transforms each row.
type mapIter struct {
	it iter
	fn func([]ID) ([]ID, error)
}

func (m *mapIter) next() ([]ID, error) {
	r, err := m.it.next()
	if err != nil || r == nil {
		return nil, err
	}
	return m.fn(r)
}

func (m *mapIter) close() { m.it.close() }

// projectNode keeps only the projected slots.
type projectNode struct {
	sub  node
	keep []int
}

func (p *projectNode) open(ex *Exec, e env) (iter, error) {
	it, err := p.sub.open(ex, e)
	if err != nil {
		return nil, err
	}
	return &mapIter{it: it, fn: func(r []ID) ([]ID, error) {
		out := make([]ID, ex.width())
		for _, s := range p.keep {
			if s < len(r) {
				out[s] = r[s]
			}
		}
		return out, nil
	}}, nil
}

// rowKey appends the IDs of row's slots (all when slots is nil) to dst.
func rowKey(dst []byte, row []ID, slots []int) []byte {
	if slots == nil {
		for _, v := range row {
			dst = binary.LittleEndian.AppendUint64(dst, uint64(v))
		}
		return dst
	}
	for _, s := range slots {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(row[s]))
	}
	return dst
}

// distinctNode removes duplicate rows, keeping the first of each.
type distinctNode struct{ sub node }

func (d *distinctNode) open(ex *Exec, e env) (iter, error) {
	if it := distinctRuns(ex, d.sub, e); it != nil {
		return it, nil
	}
	if it := projectedScan(ex, d.sub, e); it != nil {
		return &distinctIter{ex: ex, it: it, seen: newRowSet(ex.width()), fresh: true}, nil
	}
	it, err := d.sub.open(ex, e)
	if err != nil {
		return nil, err
	}
	return &distinctIter{ex: ex, it: it, seen: newRowSet(ex.width())}, nil
}

// distinctIter keeps the rows seen in a hash set. When the set reaches
// the memory bound, rows it does not hold go to a spill file, which is
// deduplicated the same way once the input ends: a spilled row's first
// occurrence comes after every row the set holds, so the rows still come
// out in the order of their first occurrence.
type distinctIter struct {
	ex    *Exec
	it    iter
	seen  *rowSet
	spill *spillFile
	// fresh is set when the input reuses its row: the rows kept are
	// copied.
	fresh bool
}

func (d *distinctIter) next() ([]ID, error) {
	for {
		r, err := pull(d.ex, d.it)
		if err != nil {
			return nil, err
		}
		if r == nil {
			if d.spill == nil {
				return nil, nil
			}
			// The next pass: the spilled rows, with an empty set.
			d.it.close()
			if d.it, err = d.spill.rowsIter(); err != nil {
				d.it = emptyIter{}
				return nil, err
			}
			d.spill = nil
			d.ex.memRows -= d.seen.len()
			d.seen.reset()
			continue
		}
		if d.ex.full() && d.seen.len() > 0 {
			if d.seen.contains(r) {
				continue
			}
			if d.spill == nil {
				if d.spill, err = d.ex.newSpill(); err != nil {
					return nil, err
				}
			}
			if err := d.spill.write(0, r, nil); err != nil {
				return nil, err
			}
			continue
		}
		if !d.seen.add(r) {
			continue
		}
		d.ex.memRows++
		if d.fresh {
			r = d.ex.newRow(r)
		}
		return r, nil
	}
}

func (d *distinctIter) close() {
	d.it.close()
	if d.spill != nil {
		d.spill.close()
	}
	d.ex.memRows -= d.seen.len()
	d.seen.reset()
}

// sliceNode skips offset rows and stops after limit (-1: none), closing
// its input as soon as the limit is reached.
type sliceNode struct {
	sub           node
	offset, limit int64
	est           float64 // the planner's estimate of its rows, or -1
}

func (s *sliceNode) open(ex *Exec, e env) (iter, error) {
	if s.limit == 0 {
		return emptyIter{}, nil
	}
	it, err := s.sub.open(ex, e)
	if err != nil {
		return nil, err
	}
	return &sliceIterN{ex: ex, it: it, skip: s.offset, left: s.limit}, nil
}

type sliceIterN struct {
	ex   *Exec
	it   iter
	skip int64
	left int64 // -1: unlimited
	done bool
}

func (s *sliceIterN) next() ([]ID, error) {
	if s.done {
		return nil, nil
	}
	for s.skip > 0 {
		r, err := pull(s.ex, s.it)
		if err != nil || r == nil {
			return nil, err
		}
		s.skip--
	}
	r, err := s.it.next()
	if err != nil || r == nil {
		return nil, err
	}
	if s.left > 0 {
		s.left--
		if s.left == 0 {
			s.done = true
		}
	}
	return r, nil
}

func (s *sliceIterN) close() { s.it.close() }

// tableNode is inline data (VALUES), encoded once.
type tableNode struct{ rows [][]ID }

func (c *compiler) compileTable(t *algebra.Table) (node, error) {
	n := &tableNode{}
	slots := make([]int, len(t.Vars))
	for i, v := range t.Vars {
		slots[i] = c.slot(v)
	}
	for _, row := range t.Rows {
		r := make([]ID, 0, len(slots))
		for i := range slots {
			var id ID
			if i < len(row) {
				var err error
				if id, err = c.ex.Dict.Encode(row[i]); err != nil {
					return nil, err
				}
			}
			r = append(r, id)
		}
		n.rows = append(n.rows, r)
	}
	return &tableOpen{t: n, slots: slots}, nil
}

type tableOpen struct {
	t     *tableNode
	slots []int
}

func (t *tableOpen) open(ex *Exec, e env) (iter, error) {
	var out [][]ID
	for _, tr := range t.t.rows {
		r := ex.newRow(e.seed)
		ok := true
		for i, s := range t.slots {
			if v := tr[i]; v != 0 {
				if r[s] != 0 && r[s] != v {
					ok = false
					break
				}
				r[s] = v
			}
		}
		if ok {
			out = append(out, r)
		}
	}
	return &sliceIter{rows: out}, nil
}
