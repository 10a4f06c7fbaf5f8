package eval

import (
	"sort"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/expr"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// groupNode is hash aggregation: one accumulator set per distinct key, in
// memory (the groups, not the input rows, are kept).
type groupNode struct {
	sub      node
	keySlots []int
	keyVar   []int // slot read directly when the key is a plain variable, else -1
	keys     []*expr.Expr
	aggSlots []int
	aggs     []*expr.Aggregate
}

func (c *compiler) compileGroup(x *algebra.Group, bound []bool) (node, error) {
	sub, err := c.compile(x.Sub, bound)
	if err != nil {
		return nil, err
	}
	g := &groupNode{sub: sub}
	for _, k := range x.Keys {
		g.keySlots = append(g.keySlots, c.slot(k.Var))
		direct := -1
		if v, ok := k.Expr.(*syntax.Var); ok {
			direct = c.slot(v.Name)
		}
		g.keyVar = append(g.keyVar, direct)
		e, err := c.expr(k.Expr, nil)
		if err != nil {
			return nil, err
		}
		g.keys = append(g.keys, e)
	}
	for _, a := range x.Aggs {
		if err := c.existsIn(a.Agg.Arg, nil); err != nil {
			return nil, err
		}
		ca, err := expr.CompileAggregate(a.Agg, c.ex.Scope)
		if err != nil {
			return nil, err
		}
		g.aggSlots = append(g.aggSlots, c.slot(a.Var))
		g.aggs = append(g.aggs, ca)
	}
	return g, nil
}

type group struct {
	key  []ID
	accs []*expr.Accumulator
}

func (g *groupNode) open(ex *Exec, e env) (iter, error) {
	it, err := g.sub.open(ex, e)
	if err != nil {
		return nil, err
	}
	defer it.close()
	groups := map[string]*group{}
	var order []*group
	var kb []byte
	keyIDs := make([]ID, len(g.keys))
	for {
		r, err := it.next()
		if err != nil {
			return nil, err
		}
		if r == nil {
			break
		}
		if err := ex.tick(); err != nil {
			return nil, err
		}
		b := ex.bind(r, e.graph)
		for i, k := range g.keys {
			if s := g.keyVar[i]; s >= 0 {
				keyIDs[i] = r[s]
				continue
			}
			ex.Expr.NewSolution()
			t, err := k.Eval(ex.Expr, b)
			if err != nil {
				keyIDs[i] = 0
				continue
			}
			if keyIDs[i], err = ex.Dict.Encode(t); err != nil {
				return nil, err
			}
		}
		kb = rowKey(kb[:0], keyIDs, nil)
		gr := groups[string(kb)]
		if gr == nil {
			gr = g.newGroup(keyIDs)
			groups[string(kb)] = gr
			order = append(order, gr)
		}
		for _, acc := range gr.accs {
			ex.Expr.NewSolution()
			acc.Add(ex.Expr, b)
		}
		if ex.storeErr != nil {
			return nil, ex.storeErr
		}
	}
	if len(order) == 0 && len(g.keys) == 0 {
		order = append(order, g.newGroup(nil))
	}
	rows := make([][]ID, 0, len(order))
	for _, gr := range order {
		r := ex.newRow(e.seed)
		for i, s := range g.keySlots {
			r[s] = gr.key[i]
		}
		for i, acc := range gr.accs {
			t, err := acc.Result()
			if err != nil {
				continue
			}
			if r[g.aggSlots[i]], err = ex.Dict.Encode(t); err != nil {
				return nil, err
			}
		}
		rows = append(rows, r)
	}
	return &sliceIter{rows: rows}, nil
}

func (g *groupNode) newGroup(key []ID) *group {
	gr := &group{key: append([]ID(nil), key...)}
	for _, a := range g.aggs {
		gr.accs = append(gr.accs, a.New())
	}
	return gr
}

// orderNode sorts its input by the ORDER BY conditions (§15.1), stably.
type orderNode struct {
	sub  node
	keys []*expr.Expr
	desc []bool
}

func (o *orderNode) open(ex *Exec, e env) (iter, error) {
	it, err := o.sub.open(ex, e)
	if err != nil {
		return nil, err
	}
	rows, err := drain(ex, it)
	if err != nil {
		return nil, err
	}
	keys := make([][]rdf.Term, len(rows))
	for i, r := range rows {
		if err := ex.tick(); err != nil {
			return nil, err
		}
		b := ex.bind(r, e.graph)
		keys[i] = make([]rdf.Term, len(o.keys))
		for j, k := range o.keys {
			ex.Expr.NewSolution()
			if t, err := k.Eval(ex.Expr, b); err == nil {
				keys[i][j] = t
			}
		}
	}
	if ex.storeErr != nil {
		return nil, ex.storeErr
	}
	idx := make([]int, len(rows))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ka, kb := keys[idx[a]], keys[idx[b]]
		for j := range o.keys {
			c := expr.Compare(ka[j], kb[j])
			if o.desc[j] {
				c = -c
			}
			if c != 0 {
				return c < 0
			}
		}
		return false
	})
	sorted := make([][]ID, len(rows))
	for i, k := range idx {
		sorted[i] = rows[k]
	}
	return &sliceIter{rows: sorted}, nil
}
