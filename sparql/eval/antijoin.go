package eval

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/expr"
	"github.com/mneme-archive/mneme/sparql/optimize"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// MINUS and FILTER [NOT] EXISTS test each left row against a right
// pattern. When the right side is a plain pattern (pure) there are two
// ways to do it, and the planner's estimates choose: look the pattern up
// per left row with the row's bindings substituted (bind), or evaluate it
// once and keep its rows hashed on the variables it shares with the left
// side (hash). Hashing is only exact when every left row binds those
// variables alike: for EXISTS, each variable of the pattern the left side
// may bind, it binds in every row (otherwise substitution and a join on
// the shared variables differ).

// Costs of the choice, in the planner's units (about one quad read): a
// probe of a hash table, and inserting a row into one.
const (
	probeCost = 0.5
	buildCost = 2.0
)

// forceHash, when not 0, overrides hashCheaper (MINUS, EXISTS,
// OPTIONAL): 1 always looks up per row, 2 always hashes (a variable so
// that tests can run both).
var forceHash = 0

// measure plans op with bound as compile would and returns the planned
// cost of the patterns it plans (about one quad read a unit) and its
// estimated rows (-1: no estimate), leaving the compiler's record of hash
// tables as before. An operator is measured once per set of bound
// variables.
func (c *compiler) measure(op algebra.Op, bound []bool) (cost, rows float64, err error) {
	key := measureKey{op: op, bound: boundKey(bound)}
	if m, ok := c.measured[key]; ok {
		return m[0], m[1], nil
	}
	saved, spent := maps.Clone(c.hashed), c.spent
	if _, err = c.compile(op, bound); err != nil {
		return 0, 0, err
	}
	cost, rows = c.spent-spent, c.rowsOf(op)
	c.hashed, c.spent = saved, spent
	c.measured[key] = [2]float64{cost, rows}
	return cost, rows, nil
}

type measureKey struct {
	op    algebra.Op
	bound string
}

func boundKey(bound []bool) string {
	var sb strings.Builder
	for i, b := range bound {
		if b {
			sb.WriteString(strconv.Itoa(i))
			sb.WriteByte(',')
		}
	}
	return sb.String()
}

// leftRows is the estimated rows of a compiled operand, 1 when there is
// no estimate (so that a lookup per row wins, as before estimates).
func (c *compiler) leftRows(op algebra.Op) float64 {
	if r := c.rowsOf(op); r >= 0 {
		return r
	}
	return 1
}

// lookupCost is the cost of a seek, as the planner counts it.
const lookupCost = 20.0

// hashCheaper reports whether evaluating op once and probing it with
// left rows is cheaper than looking it up per left row (op planned with
// the per-row bindings perRow). With first set only a row's first match
// is needed (MINUS, EXISTS): a lookup costs at most a seek per pattern.
func (c *compiler) hashCheaper(op algebra.Op, left float64, bound, perRow []bool, first bool) (bool, error) {
	if forceHash != 0 {
		return forceHash == 2, nil
	}
	bindCost, _, err := c.measure(op, perRow)
	if err != nil {
		return false, err
	}
	if first {
		bindCost = math.Min(bindCost, float64(algebra.Patterns(op))*lookupCost)
	}
	hashCost, hashRows, err := c.measure(op, bound)
	if err != nil || hashRows < 0 {
		return false, err
	}
	return hashCost+hashRows*buildCost+left*probeCost < left*bindCost, nil
}

// compileMinus compiles MINUS: nothing to subtract when the right side
// shares no variable with the left, else a hash anti-join, or, for a
// plain pattern when cheaper, a lookup per left row.
func (c *compiler) compileMinus(x *algebra.Minus, bound []bool) (node, error) {
	l, err := c.compile(x.Left, bound)
	if err != nil {
		return nil, err
	}
	left := optimize.PossibleVars(x.Left)
	var vars []int
	shared := false
	for v := range optimize.PossibleVars(x.Right) {
		s := c.slot(v)
		vars = append(vars, s)
		shared = shared || left[v] || isBound(bound, s)
	}
	slices.Sort(vars)
	if !shared {
		// No left solution shares a variable with a right one: MINUS
		// removes nothing (§18.5), whatever the right side holds.
		return &minusNode{left: l}, nil
	}
	if pure(x.Right) {
		perRow := c.certain(x.Left, bound)
		hash, err := c.hashCheaper(x.Right, c.leftRows(x.Left), bound, perRow, true)
		if err != nil {
			return nil, err
		}
		if !hash {
			r, err := c.compile(x.Right, perRow)
			if err != nil {
				return nil, err
			}
			return &antiBindNode{left: l, right: r, vars: vars}, nil
		}
	}
	keys := c.sharedKeys(x.Left, x.Right)
	if pure(x.Right) && len(keys) > 0 && c.keysOnly(x.Left, x.Right, bound, keys) {
		// Every right row shares the keys with every left row and
		// nothing else: a left row goes when its key is among the
		// right's, as for NOT EXISTS — a set of keys, not of rows.
		// (The per-row form, past the memory bound, is compiled
		// first: the hashed form's estimates are the ones kept.)
		ce, err := c.expr(&algebra.Exists{Not: true, Op: x.Right}, c.certain(x.Left, bound))
		if err != nil {
			return nil, err
		}
		r, err := c.compile(x.Right, bound)
		if err != nil {
			return nil, err
		}
		slices.Sort(keys)
		var names []string
		for _, k := range keys {
			names = append(names, "?"+c.ex.Scope.Vars()[k])
		}
		return &existsHashNode{sub: l, right: r, pattern: x.Right, keys: keys, not: true, expr: ce,
			names: strings.Join(names, " "), est: c.rowsOf(x.Right)}, nil
	}
	r, err := c.compile(x.Right, bound)
	if err != nil {
		return nil, err
	}
	return &minusNode{left: l, right: r, keys: keys}, nil
}

// keysOnly reports whether the variables left and right may share are
// exactly keys (bound in every solution of both) and none is bound from
// outside.
func (c *compiler) keysOnly(left, right algebra.Op, bound []bool, keys []int) bool {
	lp := optimize.PossibleVars(left)
	n := 0
	for v := range optimize.PossibleVars(right) {
		s := c.slot(v)
		if isBound(bound, s) {
			return false
		}
		if lp[v] {
			if !slices.Contains(keys, s) {
				return false
			}
			n++
		}
	}
	return n == len(keys)
}

// antiBindNode is MINUS with a plain pattern: a left row is removed when
// it binds a variable of the pattern (vars) and the pattern, with the
// row's bindings substituted, has a match. The pattern binds all its
// variables, so a match is compatible and shares a variable.
type antiBindNode struct {
	left, right node
	vars        []int
}

func (a *antiBindNode) detail() string { return "anti-join bind" }

func (a *antiBindNode) open(ex *Exec, e env) (iter, error) {
	l, err := a.left.open(ex, e)
	if err != nil {
		return nil, err
	}
	return &antiBindIter{ex: ex, e: e, n: a, left: l}, nil
}

type antiBindIter struct {
	ex   *Exec
	e    env
	n    *antiBindNode
	left iter
}

func (a *antiBindIter) next() ([]ID, error) {
	for {
		l, err := pull(a.ex, a.left)
		if err != nil || l == nil {
			return nil, err
		}
		if !bindsAny(l, a.n.vars) {
			return l, nil
		}
		it, err := a.n.right.open(a.ex, env{seed: l, graph: a.e.graph})
		if err != nil {
			return nil, err
		}
		r, err := it.next()
		it.close()
		if err != nil {
			return nil, err
		}
		if r == nil {
			return l, nil
		}
	}
}

func (a *antiBindIter) close() { a.left.close() }

func bindsAny(row []ID, slots []int) bool {
	for _, s := range slots {
		if s < len(row) && row[s] != 0 {
			return true
		}
	}
	return false
}

// existsHash returns, for a FILTER conjunct that is [NOT] EXISTS of a
// plain pattern whose variables the filtered operand sub binds in every
// row or in none, the semi-join (anti-join) that evaluates it by hashing
// the pattern's rows once — when the estimates find that cheaper than
// one lookup per row. Its expr, the conjunct compiled for a row at a
// time, is for the caller to set: the node falls back to it past the
// memory bound.
func (c *compiler) existsHash(e syntax.Expr, sub algebra.Op, bound, inner []bool) (*existsHashNode, error) {
	x, ok := e.(*algebra.Exists)
	if !ok || !pure(x.Op) {
		return nil, nil
	}
	possible, certain := optimize.PossibleVars(sub), optimize.CertainVars(sub)
	var keys []int
	var names []string
	for v := range optimize.PossibleVars(x.Op) {
		s := c.slot(v)
		switch {
		case isBound(bound, s):
			// Substituted from the seed when the pattern is hashed.
		case certain[v]:
			keys = append(keys, s)
			names = append(names, "?"+v)
		case possible[v]:
			return nil, nil
		}
	}
	hash, err := c.hashCheaper(x.Op, c.leftRows(sub), bound, inner, true)
	if err != nil || !hash {
		return nil, err
	}
	r, err := c.compile(x.Op, bound)
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	slices.Sort(keys)
	return &existsHashNode{right: r, pattern: x.Op, keys: keys, not: x.Not, names: strings.Join(names, " "),
		est: c.rowsOf(x.Op)}, nil
}

// existsHashNode keeps the rows of sub whose key (the slots of keys) is
// among the keys of right's rows (not: is not), right evaluated once
// per opening. Past the memory bound it tests expr per row instead.
type existsHashNode struct {
	sub, right node
	pattern    algebra.Op
	keys       []int
	not        bool
	expr       *expr.Expr
	names      string
	est        float64 // right's estimated rows, to size the set (-1: none)
	ordered    bool    // the keys were read from a predicate's order
	stats      *Stats  // its own, for EXPLAIN
}

func (h *existsHashNode) detail() string {
	kind := "semi-join"
	if h.not {
		kind = "anti-join"
	}
	if h.names == "" {
		return kind + " hash (no key)"
	}
	if h.ordered {
		return kind + " on " + h.names + ", keys from the predicate's order"
	}
	return kind + " hash on " + h.names
}

// keySet is the set of the right side's keys: a hash set of rows, or for
// one variable a sorted array (sortedIDs), whose add does not know yet
// whether a key is new and whose finish drops the duplicates.
type keySet interface {
	add(key []ID) bool
	contains(key []ID) bool
}

func (h *existsHashNode) open(ex *Exec, e env) (iter, error) {
	if set, err := h.orderedKeySet(ex, e); err != nil || set != nil {
		if err != nil {
			return nil, err
		}
		sub, err := h.sub.open(ex, e)
		if err != nil {
			return nil, err
		}
		return &existsHashIter{ex: ex, e: e, h: h, sub: sub, set: set, key: make([]ID, 1)}, nil
	}
	var set keySet
	sorted := len(h.keys) == 1
	if sorted {
		set = &sortedIDs{ids: make([]ID, 0, int(min(max(h.est, 0), hashPresizeMax)))}
	} else {
		set = newRowSetFor(len(h.keys), int(min(max(h.est, 0), hashPresizeMax)))
	}
	// The set copies each row's key: one pattern's matches can come in
	// one reused row.
	rit := scanRows(ex, h.right, e)
	if rit == nil {
		var err error
		if rit, err = h.right.open(ex, e); err != nil {
			return nil, err
		}
	}
	key := make([]ID, len(h.keys))
	held := 0
	perRow := false
	for {
		r, err := pull(ex, rit)
		if err != nil {
			rit.close()
			ex.memRows -= held
			return nil, err
		}
		if r == nil {
			break
		}
		for i, s := range h.keys {
			key[i] = r[s]
		}
		if set.add(key) {
			held++
			ex.memRows++
		}
		if len(h.keys) == 0 {
			break // one match decides for every row
		}
		if ex.full() {
			perRow = true
			break
		}
	}
	rit.close()
	if perRow {
		ex.memRows -= held
		held, set = 0, nil
	} else if sorted {
		dup := set.(*sortedIDs).finish()
		held -= dup
		ex.memRows -= dup
	}
	sub, err := h.sub.open(ex, e)
	if err != nil {
		ex.memRows -= held
		return nil, err
	}
	return &existsHashIter{ex: ex, e: e, h: h, sub: sub, set: set, held: held, key: key}, nil
}

// hashPresizeMax bounds the rows a hash set is sized for from an
// estimate before any is read.
const hashPresizeMax = 1 << 20

type existsHashIter struct {
	ex   *Exec
	e    env
	h    *existsHashNode
	sub  iter
	set  keySet // nil: past the memory bound, test per row
	held int
	key  []ID
}

func (it *existsHashIter) next() ([]ID, error) {
	for {
		r, err := pull(it.ex, it.sub)
		if err != nil || r == nil {
			return nil, err
		}
		if it.set == nil {
			if it.ex.test([]*expr.Expr{it.h.expr}, r, it.e.graph) {
				return r, it.ex.storeErr
			}
			continue
		}
		for i, s := range it.h.keys {
			it.key[i] = r[s]
		}
		if it.set.contains(it.key) != it.h.not {
			return r, nil
		}
	}
}

// count counts the rows kept without making them: when sub is one
// pattern its matches are read into one reused row, only their keys
// being looked at.
func (it *existsHashIter) count() (int64, bool, error) {
	if it.set == nil {
		return 0, false, nil
	}
	if sr := scanRows(it.ex, it.h.sub, it.e); sr != nil {
		it.sub.close()
		it.sub = sr
		if n, ok, err := it.countRuns(sr.(*scanRowIter)); ok || err != nil {
			return n, true, err
		}
	}
	var n int64
	for {
		r, err := pull(it.ex, it.sub)
		if err != nil || r == nil {
			return n, true, err
		}
		for i, s := range it.h.keys {
			it.key[i] = slot(r, s)
		}
		if it.set.contains(it.key) != it.h.not {
			n++
		}
	}
}

func (it *existsHashIter) close() {
	it.sub.close()
	it.ex.memRows -= it.held
	it.held = 0
}

// unionRows is the estimated rows of the union of ops: the sum of its
// branches', looked for under the nested unions a union of several
// branches compiles as one (-1 when a branch has no estimate).
func (c *compiler) unionRows(ops ...algebra.Op) float64 {
	var sum float64
	for _, op := range ops {
		r := c.rowsOf(op)
		if u, ok := op.(*algebra.Union); ok && r < 0 {
			r = c.unionRows(u.Left, u.Right)
		}
		if r < 0 {
			return -1
		}
		sum += r
	}
	return sum
}

// rowsOf is the estimated rows of a compiled operator, -1 when unknown.
func (c *compiler) rowsOf(op algebra.Op) float64 {
	if st := c.stats[op]; st != nil {
		return st.Est
	}
	if rw := c.rewrites[op]; rw != nil {
		if st := c.stats[rw]; st != nil {
			return st.Est
		}
	}
	return -1
}

// estimateOp estimates the rows of op compiled as n from its operands'
// estimates: joins by bind multiply (the right side was planned per left
// row), hash joins keep the smaller side, assuming its keys all match; a
// difference keeps the left rows in the proportion of the left's keys
// among both sides' (keys spread independently); a filter keeps half.
// -1 when an operand has no estimate.
func (c *compiler) estimateOp(op algebra.Op, n node) float64 {
	if u, ok := op.(*algebra.Union); ok {
		return c.unionRows(u.Left, u.Right)
	}
	ch := algebra.Children(op)
	in := make([]float64, len(ch))
	for i, o := range ch {
		if in[i] = c.rowsOf(o); in[i] < 0 {
			return -1
		}
	}
	switch x := op.(type) {
	case *algebra.Table:
		return float64(len(x.Rows))
	case *algebra.Join:
		if _, ok := n.(*bindJoinNode); ok {
			return in[0] * in[1]
		}
		return math.Min(in[0], in[1])
	case *algebra.LeftJoin:
		if lj, ok := n.(*leftJoinNode); ok && lj.bind {
			return in[0] * math.Max(1, in[1])
		}
		return in[0]
	case *algebra.Minus:
		if m, ok := n.(*minusNode); ok && m.right == nil {
			return in[0]
		}
		return keep(in[0], in[1])
	case *algebra.Filter:
		if h, ok := n.(*existsHashNode); ok {
			r := c.rowsOf(h.pattern)
			if r < 0 {
				return in[0] / 2
			}
			if h.not {
				return keep(in[0], r)
			}
			return in[0] - keep(in[0], r)
		}
		return in[0] / 2
	case *algebra.Union:
		return in[0] + in[1]
	case *algebra.Group:
		if len(x.Keys) == 0 {
			return 1
		}
		if g, ok := n.(*groupNode); ok && g.rowsEst() >= 0 {
			return g.rowsEst() // from the keys' distinct values
		}
		return in[0]
	case *algebra.Slice:
		if x.Limit >= 0 {
			return math.Min(in[0], float64(x.Limit))
		}
		return in[0]
	case *algebra.Graph, *algebra.Extend, *algebra.Project, *algebra.OrderBy, *algebra.Distinct, *algebra.Reduced:
		return in[0]
	}
	return -1
}

// keep is the estimated left rows that no right row matches, the keys of
// both spread independently over the union of their values.
func keep(left, right float64) float64 {
	if left+right == 0 {
		return 0
	}
	return left * left / (left + right)
}
