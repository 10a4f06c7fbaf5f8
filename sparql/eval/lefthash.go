package eval

import (
	"github.com/mneme-archive/mneme/sparql/algebra"
)

// leftHashNode is OPTIONAL { one triple pattern } without a filter, run
// as a hash join: the pattern's quads are hashed on the positions of the
// variables every left row binds (a quadTable, as a hash join step of a
// basic graph pattern uses), and each left row is extended by the quads
// of its bucket that agree with it, or passes alone when none does. No
// row is made for the pattern's matches, and a consumer that folds its
// input (a group) gets every row in one reused buffer. When the table
// would outgrow the memory bound, the general left join (fallback) runs.
type leftHashNode struct {
	left     node
	pat      *quadPat
	empty    bool // a constant of the pattern is absent: nothing matches
	key      []int
	stats    *Stats // the pattern's matches, for EXPLAIN
	fallback *leftJoinNode
}

func (j *leftHashNode) detail() string { return "hash on the pattern's quads" }

// compileLeftHash returns the hash left join of x when its right side is
// one triple pattern (no filter, no graph variable) sharing with the
// left side variables both bind in every solution; nil otherwise.
// general is the left join compiled the general way, its fallback.
func (c *compiler) compileLeftHash(x *algebra.LeftJoin, general *leftJoinNode) *leftHashNode {
	b, ok := x.Right.(*algebra.BGP)
	if !ok || len(b.Triples) != 1 || x.Expr != nil || general.bind || len(general.keys) == 0 {
		return nil
	}
	bn := c.bgps[b]
	if bn == nil || len(bn.pats) != 1 || bn.pats[0].graphVar || len(bn.stats) == 0 && !bn.empty {
		return nil
	}
	n := &leftHashNode{left: general.left, pat: &bn.pats[0], empty: bn.empty, fallback: general}
	if !n.empty {
		n.stats = bn.stats[0]
	}
	for k, p := range n.pat.t {
		if p.slot < 0 {
			continue
		}
		for _, s := range general.keys {
			if s == p.slot {
				n.key = append(n.key, k)
				break
			}
		}
	}
	if len(n.key) == 0 {
		return nil
	}
	return n
}

func (j *leftHashNode) open(ex *Exec, e env) (iter, error) {
	it := &leftHashIter{ex: ex, j: j}
	if !j.empty {
		t, err := ex.table(j.pat, j.key, e.graph)
		if err != nil {
			return nil, err
		}
		if t.tooBig {
			return j.fallback.open(ex, e)
		}
		it.t = t
	}
	l, err := j.left.open(ex, e)
	if err != nil {
		return nil, err
	}
	it.left = l
	return it, nil
}

type leftHashIter struct {
	ex   *Exec
	j    *leftHashNode
	t    *quadTable // nil when nothing matches
	left iter
	row  []ID
	// cand..end are the quads of the row's bucket not yet tried; matched
	// is set once one extended the row.
	cand, end int32
	hint      int // see quadTable.probe
	matched   bool
	out       []ID // see rowReuser
}

func (it *leftHashIter) reuseRows() {
	it.out = make([]ID, it.ex.width())
	if r, ok := it.left.(rowReuser); ok {
		// A left row is held only until the next pull, and passed on
		// alone only to a consumer that reuses rows too.
		r.reuseRows()
	}
}

func (it *leftHashIter) next() ([]ID, error) {
	for {
		for it.row != nil && it.cand < it.end {
			if err := it.ex.tick(); err != nil {
				return nil, err
			}
			q, ok := it.t.at(it.cand)
			it.cand++
			if !ok {
				continue
			}
			var out []ID
			if it.out != nil && len(it.row) == len(it.out) {
				out = it.j.pat.extendInto(it.out, it.row, q)
			} else {
				out = it.j.pat.extend(it.ex, it.row, q)
			}
			if out != nil {
				it.matched = true
				it.j.stats.Rows++
				return out, nil
			}
		}
		if it.row != nil && !it.matched {
			r := it.row
			it.row = nil
			return r, nil
		}
		row, err := pull(it.ex, it.left)
		if err != nil || row == nil {
			return nil, err
		}
		it.row, it.matched = row, false
		it.cand, it.end = 0, 0
		if it.t != nil {
			var vals [4]ID
			for _, k := range it.j.key {
				vals[k] = row[it.j.pat.t[k].slot]
			}
			it.cand, it.end = it.t.probe(vals, &it.hint)
		}
	}
}

func (it *leftHashIter) close() { it.left.close() }
