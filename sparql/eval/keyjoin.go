package eval

import (
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/optimize"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// A grouped subquery joined on its group keys is evaluated per row of the
// other operand for that row's keys only (f36: the 15 departments of a
// university counted, not all 149): its groups are made per key value,
// so the solutions with the row's key values are those of the subquery
// restricted to them. The subquery shares variable names with the query
// around it, so only the key slots are seeded, and its solutions are
// merged with the row as a join would.

// noKeySeed turns the key-seeded join off (a variable so that tests can
// compare it with the hash join).
var noKeySeed = false

// groupKeys returns the slots of the variables op (a subquery: a
// projection over extends and HAVING filters over a GROUP BY with keys)
// shares with vars when each is a plain group key bound in every input
// row of the group; nil otherwise.
func (c *compiler) groupKeys(op algebra.Op, vars map[string]bool) []int {
	p, ok := op.(*algebra.Project)
	if !ok {
		return nil
	}
	var g *algebra.Group
	for in := p.Sub; g == nil; {
		switch x := in.(type) {
		case *algebra.Extend:
			in = x.Sub
		case *algebra.Filter:
			if hasExists(x.Exprs) {
				return nil
			}
			in = x.Sub
		case *algebra.Group:
			g = x
		default:
			return nil
		}
	}
	if len(g.Keys) == 0 {
		return nil
	}
	certain := optimize.CertainVars(g.Sub)
	var keys []int
	for _, v := range p.Vars {
		if !vars[v] {
			continue
		}
		plain := false
		for _, k := range g.Keys {
			if kv, ok := k.Expr.(*syntax.Var); ok && k.Var == v && kv.Name == v {
				plain = true
			}
		}
		if !plain || !certain[v] {
			return nil
		}
		keys = append(keys, c.slot(v))
	}
	return keys
}

// keySeedJoinNode joins left with right, right opened per left row with
// the row's values of keys only.
type keySeedJoinNode struct {
	left, right node
	keys        []int
}

func (j *keySeedJoinNode) detail() string { return "bind on group keys" }

func (j *keySeedJoinNode) open(ex *Exec, e env) (iter, error) {
	l, err := j.left.open(ex, e)
	if err != nil {
		return nil, err
	}
	return &keySeedJoinIter{ex: ex, e: e, n: j, left: l}, nil
}

type keySeedJoinIter struct {
	ex   *Exec
	e    env
	n    *keySeedJoinNode
	left iter
	row  []ID
	cur  iter
}

func (j *keySeedJoinIter) next() ([]ID, error) {
	for {
		if j.cur != nil {
			for {
				r, err := j.cur.next()
				if err != nil {
					return nil, err
				}
				if r == nil {
					break
				}
				if out := merge(j.ex, j.row, r); out != nil {
					return out, nil
				}
			}
			j.cur.close()
			j.cur = nil
		}
		l, err := pull(j.ex, j.left)
		if err != nil || l == nil {
			return nil, err
		}
		j.row = l
		seed := j.ex.newRow(j.e.seed)
		for _, k := range j.n.keys {
			if k < len(l) && l[k] != 0 {
				seed[k] = l[k]
			}
		}
		if j.cur, err = j.n.right.open(j.ex, env{seed: seed, graph: j.e.graph}); err != nil {
			return nil, err
		}
	}
}

// merge returns the union of two compatible rows, nil when they bind a
// slot to different values.
func merge(ex *Exec, a, b []ID) []ID {
	out := ex.newRow(a)
	for k, id := range b {
		if id == 0 || k >= len(out) {
			continue
		}
		if out[k] != 0 && out[k] != id {
			return nil
		}
		out[k] = id
	}
	return out
}

func (j *keySeedJoinIter) close() {
	if j.cur != nil {
		j.cur.close()
	}
	j.left.close()
}
