package eval

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/sparql/plan"
)

// A leapfrog triejoin (see sparql/plan's leapfrog.go) of the cycle of a
// basic graph pattern: each pattern of the cycle is read once into a
// two-level trie of its two variables' values, earlier variable first,
// and the join binds the variables one at a time, intersecting at each
// the sorted values of every pattern that has it with galloping
// searches. The pairs come sorted from the store when a scan's order
// matches the variable order (as the planner prefers); otherwise they are
// sorted in memory. Tries count against Exec.MaxRows: past it the basic
// graph pattern runs its left-deep plan instead.

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
	// sorted is set when a scan of the pattern comes sorted on the
	// earlier variable: it can then be read in parts by value range.
	sorted bool
	index  int // in lfPlan.rels
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
		r.sorted = n.sortPos[p] == r.cols[0]
		r.index = len(lf.rels)
		lf.rels = append(lf.rels, r)
	}
	n.lf = lf
}

// trie is a pattern read for a triejoin: its pairs of values sorted and
// stored as a two-level trie — the distinct earlier values, and for each
// the run of its later values — so that intersecting on the earlier
// variable searches an array of distinct values, not of pairs.
type trie struct {
	first  []ID    // distinct earlier values, ascending
	start  []int32 // start[i]: where first[i]'s run begins in second; one more entry ends the last
	second []ID    // the later values, ascending within each run
}

func (t *trie) add(a, b ID) {
	if n := len(t.first); n == 0 || t.first[n-1] != a {
		t.first = append(t.first, a)
		t.start = append(t.start, int32(len(t.second)))
	}
	t.second = append(t.second, b)
}

// readTries returns the tries of the triejoin's patterns in sel, each read
// once per query, or nil when together they would exceed the memory
// bound. Patterns not read yet are read concurrently, one scan each: a
// triejoin's time is mostly these scans.
func (ex *Exec) readTries(lf *lfPlan, sel *graphSel) ([]*trie, error) {
	out := make([]*trie, len(lf.rels))
	names := make([]string, len(lf.rels))
	var todo []int
	need := 0
	for i := range lf.rels {
		r := &lf.rels[i]
		names[i] = fmt.Sprint(tableName(r.pat), r.cols, sel.union, sel.ids)
		if t, ok := ex.tries[names[i]]; ok {
			out[i] = t
		} else if !slices.Contains(names[:i], names[i]) {
			todo = append(todo, i)
			need += pairRows(int(r.pat.card), r.sorted)
		}
	}
	budget := ex.maxRows() - ex.memRows
	if need > budget {
		return nil, nil
	}
	// Large patterns sorted on their first column are read in two halves
	// of its values (IDs are hashes, so the halves are even), for two
	// cores to share the largest scan too.
	var parts []*triePart
	for _, i := range todo {
		r := &lf.rels[i]
		if r.sorted && sel.mergeable() && r.pat.card >= float64(splitRows) {
			parts = append(parts, &triePart{rel: r, hi: 1 << 63, size: int(r.pat.card) / 2},
				&triePart{rel: r, lo: 1 << 63, size: int(r.pat.card) / 2})
		} else {
			parts = append(parts, &triePart{rel: r, size: int(r.pat.card)})
		}
	}
	var wg sync.WaitGroup
	for _, pt := range parts {
		wg.Go(func() { pt.t, pt.err = ex.readPart(pt, sel, budget*pairsPerRow) })
	}
	wg.Wait()
	for _, pt := range parts {
		if pt.err != nil {
			return nil, pt.err
		}
		if pt.t == nil {
			return nil, nil
		}
		i := pt.rel.index
		if out[i] == nil {
			out[i] = pt.t
		} else {
			out[i] = out[i].concat(pt.t)
		}
	}
	total := 0
	for _, i := range todo {
		total += out[i].rows()
	}
	if total > budget {
		return nil, nil
	}
	ex.memRows += total
	for i := range lf.rels {
		if out[i] == nil { // the same pattern twice
			out[i] = out[slices.Index(names, names[i])]
		}
		ex.tries[names[i]] = out[i]
	}
	return out, nil
}

// triePart is a pattern, or the part of it whose first column lies in
// [lo, hi) (hi 0: no bound), to read into a trie.
type triePart struct {
	rel    *lfRel
	lo, hi ID
	size   int // expected pairs
	t      *trie
	err    error
}

// readPart reads pt in sel, or returns nil past limit pairs. It runs on
// its own goroutine.
func (ex *Exec) readPart(pt *triePart, sel *graphSel, limit int) (*trie, error) {
	r := pt.rel
	if !sel.mergeable() { // several graphs, merged by quadIter
		q := ex.scan(r.pat.pattern(nil), sel)
		defer q.close()
		t, err := readTrie(ex.Ctx, func() (graph.IDQuad, bool) {
			ok := q.next()
			return q.quad, ok
		}, r.cols, pt.size, limit)
		if err == nil {
			err = q.err
		}
		return t, err
	}
	it, target, err := ex.rawScan(r.pat.pattern(nil), sel)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	t, err := readTrie(ex.Ctx, rangeScan(it, target, r.cols[0], pt.lo, pt.hi), r.cols, pt.size, limit)
	if err == nil {
		err = it.Err()
	}
	return t, err
}

// pairsPerRow is how many pairs of a trie take the memory of one row
// (four IDs) as Exec.MaxRows counts them; pairs read out of order are
// held as [2]ID until sorted, two to a row.
const pairsPerRow = 4

// pairRows is the memory, in rows, of n pairs read in order or not.
func pairRows(n int, sorted bool) int {
	if sorted {
		return n / pairsPerRow
	}
	return n / 2
}

// rows is the memory the trie holds, in rows of four IDs: an ID per
// pair and an ID and an offset per distinct earlier value.
func (t *trie) rows() int { return (2*len(t.second) + 3*len(t.first) + 7) / 8 }

// splitRows is the size from which a pattern is read in two parts (a
// variable so that tests can split small patterns).
var splitRows = 1 << 15

// rangeScan returns the quads of it (a scan sorted on position k, opened
// for target) whose value at k lies in [lo, hi) (hi 0: no bound), one per
// call, then false.
func rangeScan(it *graph.QuadIter, target graph.IDQuad, k int, lo, hi ID) func() (graph.IDQuad, bool) {
	started := false
	return func() (graph.IDQuad, bool) {
		var ok bool
		if !started && lo > 0 {
			ids := [4]ID{target.S, target.P, target.O, target.G}
			ids[k] = lo
			ok = it.SeekGE(graph.IDQuad{S: ids[0], P: ids[1], O: ids[2], G: ids[3]})
		} else {
			ok = it.Next()
		}
		started = true
		if !ok || hi != 0 && at(it.Quad(), k) >= hi {
			return graph.IDQuad{}, false
		}
		return it.Quad(), true
	}
}

// readTrie reads the pairs of the positions cols of the quads next
// returns into a trie (size is the expected count), or returns nil past
// limit pairs. It runs on its own goroutine, so it checks ctx itself.
func readTrie(ctx context.Context, next func() (graph.IDQuad, bool), cols [2]int, size, limit int) (*trie, error) {
	t := &trie{second: make([]ID, 0, size)}
	var unsorted [][2]ID // the pairs, once the scan is found out of order
	var last [2]ID
	n := 0
	for ; ; n++ {
		quad, ok := next()
		if !ok {
			break
		}
		if n%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if n >= limit || unsorted != nil && 2*n >= limit {
			return nil, nil
		}
		vals := [4]ID{quad.S, quad.P, quad.O, quad.G}
		p := [2]ID{vals[cols[0]], vals[cols[1]]}
		switch {
		case unsorted != nil:
			unsorted = append(unsorted, p)
		case n == 0 || last[0] < p[0] || last[0] == p[0] && last[1] < p[1]:
			t.add(p[0], p[1])
		default:
			unsorted = make([][2]ID, 0, size)
			for i, a := range t.first {
				for _, b := range t.second[t.start[i]:][:t.runLen(i)] {
					unsorted = append(unsorted, [2]ID{a, b})
				}
			}
			unsorted = append(unsorted, p)
		}
		last = p
	}
	if unsorted != nil {
		slices.SortFunc(unsorted, comparePairs)
		t = &trie{second: make([]ID, 0, len(unsorted))}
		for _, p := range slices.Compact(unsorted) {
			t.add(p[0], p[1])
		}
	}
	t.start = append(t.start, int32(len(t.second)))
	return t, nil
}

// concat appends u, whose earlier values all follow t's, to t.
func (t *trie) concat(u *trie) *trie {
	out := &trie{first: slices.Concat(t.first, u.first), second: slices.Concat(t.second, u.second),
		start: make([]int32, 0, len(t.start)+len(u.start)-1)}
	out.start = append(out.start, t.start[:len(t.first)]...)
	for _, s := range u.start {
		out.start = append(out.start, s+int32(len(t.second)))
	}
	return out
}

// runLen is the length of first[i]'s run while the trie is being built
// (start has no closing entry yet).
func (t *trie) runLen(i int) int {
	if i+1 < len(t.start) {
		return int(t.start[i+1] - t.start[i])
	}
	return len(t.second) - int(t.start[i])
}

func comparePairs(a, b [2]ID) int {
	if c := cmp.Compare(a[0], b[0]); c != 0 {
		return c
	}
	return cmp.Compare(a[1], b[1])
}

// openLeapfrog starts the triejoin for the seed row, or returns nil when
// the seed binds one of its variables or its tries would not fit in
// memory (the caller then runs the left-deep plan).
func openLeapfrog(ex *Exec, lf *lfPlan, seed []ID, sel *graphSel) (iter, error) {
	for _, v := range lf.vars {
		if v < len(seed) && seed[v] != 0 {
			return nil, nil
		}
	}
	ts, err := ex.readTries(lf, sel)
	if err != nil || ts == nil {
		return nil, err
	}
	for i, t := range ts {
		lf.rels[i].stats.Rows += int64(len(t.second))
	}
	return newLfIter(ex, lf, seed, ts, 0, 0), nil
}

// newLfIter is a triejoin of the tries ts whose first variable takes the
// values in [lo, hi) (hi 0: no bound).
func newLfIter(ex *Exec, lf *lfPlan, seed []ID, ts []*trie, lo, hi ID) *lfIter {
	it := &lfIter{ex: ex, lf: lf, seed: seed, ts: ts, levels: make([]lfLevel, len(lf.vars)), vals: make([]ID, len(lf.vars))}
	for i, t := range ts {
		r := &lf.rels[i]
		// The earlier variable's cursor narrows the later one's range.
		child := &lfCursor{keys: t.second}
		top := &lfCursor{keys: t.first, hi: len(t.first), start: t.start, child: child}
		if r.level[0] == 0 {
			top.lo, _ = slices.BinarySearch(t.first, lo)
			if hi != 0 {
				top.hi, _ = slices.BinarySearch(t.first, hi)
			}
		}
		l0, l1 := &it.levels[r.level[0]], &it.levels[r.level[1]]
		l0.curs = append(l0.curs, top)
		l1.curs = append(l1.curs, child)
	}
	return it
}

// lfCursor walks sorted distinct keys within a range: a trie's earlier
// values (all of them), or the run of later values under the bound
// earlier one.
type lfCursor struct {
	keys   []ID
	lo, hi int
	pos    int
	// For an earlier-value cursor: the runs' starts, and the cursor of
	// the later values, whose range a match sets.
	start []int32
	child *lfCursor
}

func (c *lfCursor) key() ID { return c.keys[c.pos] }

// seek moves to the first key at least v, by doubling steps and then a
// binary search; false at the end.
func (c *lfCursor) seek(v ID) bool {
	from := c.pos
	if from >= c.hi || c.keys[from] >= v {
		return from < c.hi
	}
	lo, step := from, 1 // keys[lo] < v
	for lo+step < c.hi && c.keys[lo+step] < v {
		lo += step
		step *= 2
	}
	hi := min(lo+step, c.hi)
	for lo+1 < hi { // keys[lo] < v <= keys[hi] (or hi is the end)
		m := int(uint(lo+hi) >> 1)
		if c.keys[m] < v {
			lo = m
		} else {
			hi = m
		}
	}
	c.pos = hi
	return hi < c.hi
}

// skip moves past the current key; false at the end.
func (c *lfCursor) skip() bool {
	c.pos++
	return c.pos < c.hi
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
	// Insertion sort by key: a level has two or three cursors.
	for i := 1; i < len(l.curs); i++ {
		for j := i; j > 0 && l.curs[j].key() < l.curs[j-1].key(); j-- {
			l.curs[j], l.curs[j-1] = l.curs[j-1], l.curs[j]
		}
	}
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

// count is the number of keys common to the cursors' ranges: the keys
// of the narrowest range looked up in the others, which only move
// forward (a gallop each).
func (l *lfLevel) count() int64 {
	small := l.curs[0]
	for _, c := range l.curs {
		c.pos = c.lo
		if c.hi-c.lo < small.hi-small.lo {
			small = c
		}
	}
	var n int64
keys:
	for _, v := range small.keys[small.lo:small.hi] {
		for _, c := range l.curs {
			if c == small {
				continue
			}
			if !c.seek(v) {
				break keys
			}
			if c.key() != v {
				continue keys
			}
		}
		n++
	}
	return n
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
	ts     []*trie
	levels []lfLevel
	vals   []ID
	depth  int
	done   bool
	ticks  int
}

func (it *lfIter) next() ([]ID, error) {
	ok, err := it.match(len(it.levels)-1, it.ex.tick)
	if !ok || err != nil {
		return nil, err
	}
	row := it.ex.newRow(it.seed)
	for i, slot := range it.lf.vars {
		row[slot] = it.vals[i]
	}
	it.lf.out.Rows++
	return row, nil
}

// match moves to the next match of the variables up to level stop (in
// vals), the ranges of the next level's cursors set from it; false at
// the end. tick is called every turn and stops the join with its error.
func (it *lfIter) match(stop int, tick func() error) (bool, error) {
	for !it.done {
		if err := tick(); err != nil {
			return false, err
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
		it.vals[it.depth] = l.curs[0].key()
		for _, c := range l.curs {
			if c.child != nil {
				c.child.lo, c.child.hi = int(c.start[c.pos]), int(c.start[c.pos+1])
			}
		}
		if it.depth == stop {
			return true, nil
		}
		it.depth++
	}
	return false, nil
}

// count counts the matches left without producing rows. A large join
// not started yet is split among the cores by ranges of the first
// variable's values (IDs are hashes: equal ranges hold about equal
// shares), as its tries were read.
func (it *lfIter) count() (int64, bool, error) {
	parts, pairs := 1, 0
	for _, t := range it.ts {
		pairs += len(t.second)
	}
	if it.depth == 0 && !it.levels[0].opened && !it.done && pairs >= splitRows {
		parts = countParts
		if parts == 0 {
			parts = min(runtime.GOMAXPROCS(0), maxCountParts)
		}
	}
	if parts == 1 {
		n, err := it.countRange()
		it.lf.out.Rows += n
		return n, true, err
	}
	ns := make([]int64, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	step := ^ID(0)/ID(parts) + 1
	for p := range parts {
		lo, hi := ID(p)*step, ID(p+1)*step
		if p == parts-1 {
			hi = 0
		}
		part := newLfIter(it.ex, it.lf, it.seed, it.ts, lo, hi)
		wg.Go(func() { ns[p], errs[p] = part.countRange() })
	}
	wg.Wait()
	it.done = true
	var n int64
	for p := range parts {
		if errs[p] != nil {
			return 0, true, errs[p]
		}
		n += ns[p]
	}
	it.lf.out.Rows += n
	return n, true, nil
}

// maxCountParts bounds the goroutines of a count.
const maxCountParts = 8

// countParts is how many parts a count splits into, 0 for one per core
// (a variable so that tests can pick it).
var countParts = 0

// countRange counts the matches left in it. It may run on its own
// goroutine, so it checks the context itself.
func (it *lfIter) countRange() (int64, error) {
	var n int64
	tick := func() error {
		it.ticks++
		if it.ticks%checkEvery == 0 {
			return it.ex.Ctx.Err()
		}
		return nil
	}
	// The last variable's matches under each match of the others (a
	// cycle has two variables at least) are counted at once.
	last := len(it.levels) - 1
	for {
		ok, err := it.match(last-1, tick)
		if err != nil || !ok {
			return n, err
		}
		n += it.levels[last].count()
	}
}

func (it *lfIter) close() {}
