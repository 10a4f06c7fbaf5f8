package eval

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/mneme-archive/mneme/sparql/plan"
)

// A leapfrog triejoin (see sparql/plan's leapfrog.go) of the cycle of a
// basic graph pattern: each pattern of the cycle is read once into a
// sorted array of its two variables' values, earlier variable first, and
// the join binds the variables one at a time, intersecting at each the
// sorted values of every pattern that has it with galloping searches.
// The arrays come sorted from the store when a scan's order matches the
// variable order (as the planner prefers); otherwise they are sorted in
// memory. They count against Exec.MaxRows: past it the basic graph
// pattern runs its left-deep plan instead.

// lfPlan is the compiled triejoin: the first len(rels) steps of a bgpNode.
type lfPlan struct {
	vars []int // variable slots in binding order
	rels []lfRel
	out  *Stats // rows of the whole join
}

// lfRel is one pattern of the cycle.
type lfRel struct {
	pat   *quadPat
	cols  [2]int // quad positions of the earlier and the later variable
	level [2]int // their indexes in lfPlan.vars
	stats *Stats // tuples read
}

// compileLeapfrog builds the triejoin of the leading Leapfrog steps of n.
func (n *bgpNode) compileLeapfrog() {
	var core []int
	for _, s := range n.steps {
		if s.Join == plan.Leapfrog {
			core = append(core, s.Pattern)
		}
	}
	vars, _, _ := plan.LeapfrogVars(n.planned, core)
	lf := &lfPlan{vars: vars, out: n.stats[len(core)-1]}
	for _, p := range core {
		qp := &n.pats[p]
		r := lfRel{pat: qp, stats: &Stats{Est: qp.card, Detail: "scan"}}
		k := 0
		for pos, x := range qp.t[:3] {
			if x.slot >= 0 {
				r.cols[k], r.level[k] = pos, slices.Index(vars, x.slot)
				k++
			}
		}
		if r.level[1] < r.level[0] {
			r.cols[0], r.cols[1] = r.cols[1], r.cols[0]
			r.level[0], r.level[1] = r.level[1], r.level[0]
		}
		lf.rels = append(lf.rels, r)
	}
	n.lf = lf
}

// pairs returns the sorted pairs of r's pattern in sel, read once per
// query, or nil when they would exceed the memory bound.
func (ex *Exec) pairs(r *lfRel, sel *graphSel) ([][2]ID, error) {
	name := fmt.Sprint(tableName(r.pat), r.cols, sel.union, sel.ids)
	if ps, ok := ex.sortedPairs[name]; ok {
		return ps, nil
	}
	if ex.memRows+int(r.pat.card) > ex.maxRows() {
		return nil, nil
	}
	ps := make([][2]ID, 0, int(r.pat.card))
	sorted := true
	q := ex.scan(r.pat.pattern(nil), sel)
	defer q.close()
	for q.next() {
		if err := ex.tick(); err != nil {
			return nil, err
		}
		vals := [4]ID{q.quad.S, q.quad.P, q.quad.O, q.quad.G}
		p := [2]ID{vals[r.cols[0]], vals[r.cols[1]]}
		if n := len(ps); n > 0 && sorted {
			last := ps[n-1]
			sorted = last[0] < p[0] || last[0] == p[0] && last[1] < p[1]
		}
		ps = append(ps, p)
		if ex.memRows+len(ps) > ex.maxRows() {
			return nil, q.err
		}
	}
	if q.err != nil {
		return nil, q.err
	}
	if !sorted {
		slices.SortFunc(ps, comparePairs)
		ps = slices.Compact(ps)
	}
	ex.memRows += len(ps)
	ex.sortedPairs[name] = ps
	return ps, nil
}

func comparePairs(a, b [2]ID) int {
	if c := cmp.Compare(a[0], b[0]); c != 0 {
		return c
	}
	return cmp.Compare(a[1], b[1])
}

// openLeapfrog starts the triejoin for the seed row, or returns nil when
// the seed binds one of its variables or its arrays would not fit in
// memory (the caller then runs the left-deep plan).
func openLeapfrog(ex *Exec, lf *lfPlan, seed []ID, sel *graphSel) (iter, error) {
	for _, v := range lf.vars {
		if v < len(seed) && seed[v] != 0 {
			return nil, nil
		}
	}
	it := &lfIter{ex: ex, lf: lf, seed: seed, data: make([][][2]ID, len(lf.rels)),
		levels: make([]lfLevel, len(lf.vars)), vals: make([]ID, len(lf.vars))}
	for i := range lf.rels {
		ps, err := ex.pairs(&lf.rels[i], sel)
		if err != nil || ps == nil {
			return nil, err
		}
		it.data[i] = ps
	}
	for i, r := range lf.rels {
		for col := range 2 {
			l := &it.levels[r.level[col]]
			l.curs = append(l.curs, &lfCursor{data: it.data[i], col: col, hi: len(it.data[i])})
		}
		// The earlier variable's cursor narrows the later one's range.
		l0, l1 := it.levels[r.level[0]].curs, it.levels[r.level[1]].curs
		l0[len(l0)-1].child = l1[len(l1)-1]
		r.stats.Rows += int64(len(it.data[i]))
	}
	return it, nil
}

// lfCursor walks one column of a pattern's sorted pairs within a range:
// the whole array for the earlier variable, the pairs sharing the bound
// earlier value for the later one.
type lfCursor struct {
	data   [][2]ID
	col    int
	lo, hi int
	pos    int
	child  *lfCursor // the later column's cursor, for the earlier one
}

func (c *lfCursor) key() ID { return c.data[c.pos][c.col] }

// gallop returns the first index in [from, c.hi) whose key is at least
// v, or c.hi: doubling steps, then a binary search.
func (c *lfCursor) gallop(from int, v ID) int {
	if from >= c.hi || c.data[from][c.col] >= v {
		return from
	}
	lo, step := from, 1 // data[lo] < v
	for lo+step < c.hi && c.data[lo+step][c.col] < v {
		lo += step
		step *= 2
	}
	hi := min(lo+step, c.hi)
	for lo+1 < hi { // data[lo] < v <= data[hi] (or hi is the end)
		m := int(uint(lo+hi) >> 1)
		if c.data[m][c.col] < v {
			lo = m
		} else {
			hi = m
		}
	}
	return hi
}

// seek moves to the first key at least v; false at the end.
func (c *lfCursor) seek(v ID) bool {
	c.pos = c.gallop(c.pos, v)
	return c.pos < c.hi
}

// skip moves past the current key; false at the end.
func (c *lfCursor) skip() bool {
	k := c.key()
	if k == math.MaxUint64 {
		c.pos = c.hi
		return false
	}
	return c.seek(k + 1)
}

// lfLevel is the intersection for one variable.
type lfLevel struct {
	curs   []*lfCursor
	p      int // the cursor to move next
	opened bool
}

// open starts the level's cursors at their ranges and finds the first
// common key.
func (l *lfLevel) open() bool {
	l.opened = true
	for _, c := range l.curs {
		c.pos = c.lo
		if c.pos >= c.hi {
			return false
		}
	}
	slices.SortFunc(l.curs, func(a, b *lfCursor) int { return cmp.Compare(a.key(), b.key()) })
	l.p = 0
	return l.search()
}

// search leapfrogs the cursors until they share a key: each in turn
// seeks to the largest key of the others.
func (l *lfLevel) search() bool {
	n := len(l.curs)
	hi := l.curs[(l.p+n-1)%n].key()
	for {
		c := l.curs[l.p]
		if c.key() == hi {
			return true
		}
		if !c.seek(hi) {
			return false
		}
		hi = c.key()
		l.p = (l.p + 1) % n
	}
}

// advance finds the next common key.
func (l *lfLevel) advance() bool {
	if !l.curs[l.p].skip() {
		return false
	}
	l.p = (l.p + 1) % len(l.curs)
	return l.search()
}

// lfIter runs the triejoin depth first, one row per match of the last
// variable.
type lfIter struct {
	ex     *Exec
	lf     *lfPlan
	seed   []ID
	data   [][][2]ID
	levels []lfLevel
	vals   []ID
	depth  int
	done   bool
}

func (it *lfIter) next() ([]ID, error) {
	last := len(it.levels) - 1
	for !it.done {
		if err := it.ex.tick(); err != nil {
			return nil, err
		}
		l := &it.levels[it.depth]
		var ok bool
		if l.opened {
			ok = l.advance()
		} else {
			ok = l.open()
		}
		if !ok {
			l.opened = false
			if it.depth == 0 {
				it.done = true
				break
			}
			it.depth--
			continue
		}
		v := l.curs[0].key()
		it.vals[it.depth] = v
		for _, c := range l.curs {
			if c.child != nil {
				c.child.lo = c.pos
				c.child.hi = c.gallop(c.pos, v+1)
				if v == math.MaxUint64 {
					c.child.hi = c.hi
				}
			}
		}
		if it.depth < last {
			it.depth++
			continue
		}
		row := it.ex.newRow(it.seed)
		for i, slot := range it.lf.vars {
			row[slot] = it.vals[i]
		}
		it.lf.out.Rows++
		return row, nil
	}
	return nil, nil
}

func (it *lfIter) close() {}
