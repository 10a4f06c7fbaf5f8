package eval

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/expr"
	"github.com/mneme-archive/mneme/sparql/optimize"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// ErrFederation is returned for SERVICE patterns: mneme answers from its
// own store only.
var ErrFederation = errors.New("SERVICE: federation disabled")

// NewExec starts an execution over view. ec carries NOW, the base IRI and
// the blank node labels of the query; its Exists is set here.
func NewExec(ctx context.Context, view *graph.View, data Dataset, scope *expr.Scope, ec *expr.Context) *Exec {
	ex := &Exec{Ctx: ctx, View: view, Dict: NewDict(view), Scope: scope, Expr: ec, Data: data,
		existsNodes: map[*algebra.Exists]node{}, existsPats: map[*algebra.Exists]*existsPat{}, tables: map[string]*quadTable{},
		tries:     map[string]*trie{},
		tableRefs: map[tableRef]*quadTable{}}
	ec.Exists = ex.exists
	return ex
}

// exists evaluates an EXISTS pattern with the current row substituted.
func (ex *Exec) exists(e *algebra.Exists, b expr.Binding) (bool, error) {
	rb, ok := b.(*rowBinding)
	if p := ex.existsPats[e]; p != nil && ok {
		return p.holds(ex, rb.row, rb.graph)
	}
	n := ex.existsNodes[e]
	if !ok || n == nil {
		return false, fmt.Errorf("EXISTS evaluated outside its query")
	}
	it, err := n.open(ex, env{seed: rb.row, graph: rb.graph})
	if err != nil {
		return false, err
	}
	defer it.close()
	r, err := it.next()
	return r != nil, err
}

// Plan is a compiled operator tree, ready to run.
type Plan struct {
	ex    *Exec
	root  node
	op    algebra.Op
	stats map[algebra.Op]*Stats
	bgps  map[*algebra.BGP]*bgpNode
	// rewrites: see compiler.rewrites.
	rewrites map[algebra.Op]algebra.Op
}

// Compile plans op for ex: constants are encoded, basic graph patterns
// ordered from the store's statistics.
func Compile(ex *Exec, op algebra.Op) (*Plan, error) {
	c := &compiler{ex: ex, stats: map[algebra.Op]*Stats{}, bgps: map[*algebra.BGP]*bgpNode{}, hashed: map[string]uint16{},
		rewrites: map[algebra.Op]algebra.Op{}, estimates: map[graph.Pattern]float64{},
		walks: map[*algebra.Path]*pathWalk{}, samples: map[*algebra.Path]pathSample{}, measured: map[measureKey][2]float64{}}
	root, err := c.compile(op, nil)
	if err != nil {
		return nil, err
	}
	return &Plan{ex: ex, root: root, op: op, stats: c.stats, bgps: c.bgps, rewrites: c.rewrites}, nil
}

// Rows iterates over the solutions of a running plan.
type Rows struct {
	ex *Exec
	it iter
}

// Cost is the planner's estimate of the work the plan does, in the
// units of plan.Step.Cost (about one quad read each): the sum over its
// basic graph patterns and the paths planned with them.
func (p *Plan) Cost() (float64, error) {
	var cost float64
	for _, bn := range p.bgps {
		c, _ := bn.estimate()
		cost += c
	}
	return cost, nil
}

// Open starts the plan in the dataset's default graph.
func (p *Plan) Open() (*Rows, error) {
	it, err := p.root.open(p.ex, env{graph: p.ex.Data.defaultGraph()})
	if err != nil {
		// A failed open (a cancelled ORDER BY, say) may leave scans
		// kept for reuse: they hold the store's iterators.
		p.ex.closeIdle()
		return nil, err
	}
	return &Rows{ex: p.ex, it: it}, nil
}

// Next returns the next solution (slots as in the Exec's Scope; 0 is
// unbound), or nil at the end. The row is the caller's.
func (r *Rows) Next() ([]ID, error) {
	row, err := r.it.next()
	if err == nil && r.ex.storeErr != nil {
		err = r.ex.storeErr
	}
	if err == nil && row == nil {
		err = r.ex.Ctx.Err()
	}
	return row, err
}

// Close stops the plan and releases its scans.
func (r *Rows) Close() {
	r.it.close()
	r.ex.closeIdle()
}

type compiler struct {
	ex    *Exec
	stats map[algebra.Op]*Stats
	bgps  map[*algebra.BGP]*bgpNode
	// hashed records, per pattern (tableName), the key masks of the hash
	// tables planned so far, which later patterns probe for free.
	hashed map[string]uint16
	// rewrites are operators run in another form (factored unions),
	// which EXPLAIN shows.
	rewrites map[algebra.Op]algebra.Op
	// estimates are the store's estimates asked so far.
	estimates map[graph.Pattern]float64
	// storeStats are the store's statistics, read once.
	storeStats *graph.Stats
	// nodes is the estimated node count of the store (see nodeCount).
	nodes float64
	// walks are the walks of paths from their constant ends done at
	// planning (nil: over budget).
	walks map[*algebra.Path]*pathWalk
	// samples are the estimates of paths with both ends free.
	samples map[*algebra.Path]pathSample
	// spent is the planned cost of the patterns compiled so far, and
	// measured the cost and rows of operators planned as trials (see
	// measure).
	spent    float64
	measured map[measureKey][2]float64
	// tops are the ORDER BYs under a LIMIT, with how many of their
	// first rows the slice reads (OFFSET + LIMIT).
	tops map[*algebra.OrderBy]int64
}

func (c *compiler) slot(v string) int { return c.ex.Scope.Slot(v) }

// certain returns the slots op binds in every solution, added to bound.
func (c *compiler) certain(op algebra.Op, bound []bool) []bool {
	out := append([]bool(nil), bound...)
	for v := range optimize.CertainVars(op) {
		s := c.slot(v)
		for len(out) <= s {
			out = append(out, false)
		}
		out[s] = true
	}
	return out
}

// expr compiles an expression and the patterns of its EXISTS.
func (c *compiler) expr(e syntax.Expr, bound []bool) (*expr.Expr, error) {
	if err := c.existsIn(e, bound); err != nil {
		return nil, err
	}
	return expr.Compile(e, c.ex.Scope)
}

// existsIn compiles the patterns of the EXISTS in e.
func (c *compiler) existsIn(e syntax.Expr, bound []bool) error {
	var err error
	syntax.WalkExpr(e, func(x syntax.Expr) bool {
		if ex, ok := x.(*algebra.Exists); ok && err == nil {
			var n node
			n, err = c.compile(ex.Op, bound)
			c.ex.existsNodes[ex] = n
			if b, ok := ex.Op.(*algebra.BGP); ok && err == nil {
				if p := existsPattern(ex, c.bgps[b]); p != nil {
					c.ex.existsPats[ex] = p
				}
			}
			return false
		}
		return true
	})
	return err
}

// pure reports whether op only matches patterns, so that evaluating it
// with a row's bindings substituted equals joining with the row.
func pure(op algebra.Op) bool {
	switch x := op.(type) {
	case *algebra.BGP, *algebra.Path:
		return true
	case *algebra.Join:
		return pure(x.Left) && pure(x.Right)
	}
	return false
}

// compile compiles op; bound are the slots bound in every seed row it
// will be opened with.
func (c *compiler) compile(op algebra.Op, bound []bool) (node, error) {
	if b, ok := op.(*algebra.BGP); ok {
		return c.compileBGPOp(b, bound, 1)
	}
	if b, paths, ok := pathsOf(op); ok {
		// Paths, and triples of several groups, joined together are
		// planned together.
		n, err := c.compilePatterns(b, paths, bound, 1)
		if err != nil {
			return nil, err
		}
		c.rewrites[op] = b
		return n, nil
	}
	n, err := c.compileOp(op, bound)
	if err != nil {
		return nil, err
	}
	return c.count(op, n), nil
}

// compileBGPOp compiles a basic graph pattern run inRows times.
func (c *compiler) compileBGPOp(b *algebra.BGP, bound []bool, inRows float64) (node, error) {
	return c.compilePatterns(b, nil, bound, inRows)
}

// compilePatterns compiles the join of a basic graph pattern and
// property paths, run inRows times.
func (c *compiler) compilePatterns(b *algebra.BGP, paths []*algebra.Path, bound []bool, inRows float64) (node, error) {
	var n node = unitNode{}
	if len(b.Triples)+len(paths) > 0 {
		bn, err := c.compileBGP(b.Triples, paths, -1, bound, inRows)
		if err != nil {
			return nil, err
		}
		n = bn
	}
	return c.count(b, n), nil
}

// count wraps n to count its rows for EXPLAIN, as op's statistics.
func (c *compiler) count(op algebra.Op, n node) node {
	st := &Stats{Est: -1}
	if b, ok := op.(*algebra.BGP); ok {
		if bn, ok := n.(*bgpNode); ok && len(bn.stats) > 0 {
			st.Est = bn.stats[len(bn.stats)-1].Est
			c.bgps[b] = bn
		}
	}
	if _, ok := op.(*algebra.BGP); !ok {
		st.Est = c.estimateOp(op, n)
	}
	if st.Detail == "" {
		if d, ok := n.(interface{ detail() string }); ok {
			st.Detail = d.detail()
		}
	}
	if d, ok := n.(interface{ setStats(*Stats) }); ok {
		d.setStats(st) // for a physical choice made when opened
	}
	if e, ok := n.(interface{ rowsEst() float64 }); ok && st.Est < 0 {
		st.Est = e.rowsEst()
	}
	c.stats[op] = st
	return &counted{n: n, stats: st}
}

func (c *compiler) compileOp(op algebra.Op, bound []bool) (node, error) {
	switch x := op.(type) {
	case *algebra.Join:
		return c.compileJoin(x, bound)
	case *algebra.LeftJoin:
		return c.compileLeftJoin(x, bound)
	case *algebra.Filter:
		if g, ok := x.Sub.(*algebra.Group); ok && !hasExists(x.Exprs) {
			return c.compileGroup(g, x.Exprs, bound) // HAVING
		}
		return c.compileFilter(x, bound)
	case *algebra.Union:
		return c.compileUnion(x, bound)
	case *algebra.Minus:
		return c.compileMinus(x, bound)
	case *algebra.Graph:
		return c.compileGraph(x, bound)
	case *algebra.Service:
		return nil, ErrFederation
	case *algebra.Extend:
		// A chain of extends is one solution for BNODE(str): compile it
		// as one node.
		chain := []*algebra.Extend{x}
		for {
			inner, ok := chain[len(chain)-1].Sub.(*algebra.Extend)
			if !ok {
				break
			}
			chain = append(chain, inner)
		}
		base := chain[len(chain)-1].Sub
		sub, err := c.compile(base, bound)
		if err != nil {
			return nil, err
		}
		n := &extendNode{sub: sub}
		for i := len(chain) - 1; i >= 0; i-- {
			e, err := c.expr(chain[i].Expr, c.certain(base, bound))
			if err != nil {
				return nil, err
			}
			n.slots = append(n.slots, c.slot(chain[i].Var))
			n.exprs = append(n.exprs, e)
			var fixed ID
			if k, ok := chain[i].Expr.(*syntax.Const); ok {
				if fixed, err = c.ex.Dict.Encode(k.Term); err != nil {
					return nil, err
				}
			}
			n.fixed = append(n.fixed, fixed)
			from := -1
			if v, ok := chain[i].Expr.(*syntax.Var); ok {
				from = c.slot(v.Name)
			}
			n.from = append(n.from, from)
		}
		return n, nil
	case *algebra.Table:
		return c.compileTable(x)
	case *algebra.Group:
		return c.compileGroup(x, nil, bound)
	case *algebra.OrderBy:
		return c.compileOrderBy(x, bound)
	case *algebra.Project:
		sub, err := c.compile(x.Sub, bound)
		if err != nil {
			return nil, err
		}
		p := &projectNode{sub: sub}
		for _, v := range x.Vars {
			p.keep = append(p.keep, c.slot(v))
		}
		return p, nil
	case *algebra.Distinct:
		sub, err := c.compile(x.Sub, bound)
		if err != nil {
			return nil, err
		}
		return &distinctNode{sub: sub}, nil
	case *algebra.Reduced:
		// REDUCED permits, but does not require, removing duplicates:
		// passing rows through streams and costs nothing.
		return c.compile(x.Sub, bound)
	case *algebra.Slice:
		return c.compileSlice(x, bound)
	}
	return nil, fmt.Errorf("eval: unsupported operator %T", op)
}

// pair compiles two independent operands.
func (c *compiler) pair(l, r algebra.Op, bound []bool) (node, node, error) {
	ln, err := c.compile(l, bound)
	if err != nil {
		return nil, nil, err
	}
	rn, err := c.compile(r, bound)
	return ln, rn, err
}

// sharedKeys are the slots both sides bind in every solution: hash keys
// for joins, left joins and minus.
func (c *compiler) sharedKeys(l, r algebra.Op) []int {
	lc, rc := optimize.CertainVars(l), optimize.CertainVars(r)
	var keys []int
	for v := range lc {
		if rc[v] {
			keys = append(keys, c.slot(v))
		}
	}
	return keys
}

// compileFilter compiles a filter: [NOT] EXISTS conjuncts that are
// cheaper as hash semi-joins (anti-joins) become those, applied after
// the other conjuncts.
func (c *compiler) compileFilter(x *algebra.Filter, bound []bool) (node, error) {
	var sub node
	var err error
	if b, ok := x.Sub.(*algebra.BGP); ok && !hasExists(x.Exprs) {
		if sub, _, err = c.compileValueJoin(x, b, bound); err != nil {
			return nil, err
		}
		if sub == nil {
			if sub, err = c.compileRange(x, b, bound); err != nil {
				return nil, err
			}
		}
	}
	if sub == nil {
		if sub, err = c.compile(x.Sub, bound); err != nil {
			return nil, err
		}
	}
	f := &filterNode{sub: sub}
	inner := c.certain(x.Sub, bound)
	var semis []*existsHashNode
	for _, e := range x.Exprs {
		ce, err := c.expr(e, inner)
		if err != nil {
			return nil, err
		}
		h, err := c.existsHash(e, x.Sub, bound, inner)
		if err != nil {
			return nil, err
		}
		if h != nil {
			h.expr = ce
			semis = append(semis, h)
			continue
		}
		f.exprs = append(f.exprs, ce)
		f.memo = append(f.memo, c.memoSlot(e))
	}
	// A filter whose expressions are all remembered per ID decodes a
	// term once per distinct ID already; decoding every row's ahead would
	// undo that.
	if slices.Contains(f.memo, -1) {
		f.ahead = c.aheadSlots(x.Sub, x.Exprs...)
	}
	var n node = f
	if len(f.exprs) == 0 {
		n = sub
	}
	for _, h := range semis {
		h.sub = n
		n = h
	}
	return n, nil
}

// counted counts the rows an operator produces, for EXPLAIN.
type counted struct {
	n     node
	stats *Stats
}

func (c *counted) open(ex *Exec, e env) (iter, error) {
	it, err := c.n.open(ex, e)
	if err != nil {
		return nil, err
	}
	return &countIter{it: it, stats: c.stats}, nil
}

type countIter struct {
	it    iter
	stats *Stats
}

func (c *countIter) next() ([]ID, error) {
	r, err := c.it.next()
	if r != nil {
		c.stats.Rows++
	}
	return r, err
}

func (c *countIter) close() { c.it.close() }

func (c *countIter) reuseRows() {
	if r, ok := c.it.(rowReuser); ok {
		r.reuseRows()
	}
}

// rowReuser is an iterator that can, when asked before its first next,
// yield every row in one buffer overwritten by the next call: for a
// consumer that keeps nothing of a row past it (a group folding its
// input), which then costs no row allocation per solution.
type rowReuser interface {
	reuseRows()
}

func (c *countIter) count() (int64, bool, error) {
	in, ok := c.it.(counter)
	if !ok {
		return 0, false, nil
	}
	n, ok, err := in.count()
	c.stats.Rows += n
	return n, ok, err
}

// unitNode yields its seed row once: the empty group pattern.
type unitNode struct{}

func (unitNode) open(ex *Exec, e env) (iter, error) {
	return &sliceIter{rows: [][]ID{ex.newRow(e.seed)}}, nil
}
