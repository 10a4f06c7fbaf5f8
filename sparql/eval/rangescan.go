package eval

import (
	"maps"
	"math"
	"slices"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// A filter that keeps a variable of its pattern within a range of
// numbers, dateTimes or dates — FILTER(?d >= "2008-03-01"^^xsd:date &&
// ?d < "2008-04-01"^^xsd:date), or ?x = 5 — can find the few terms in the
// range with a scan of the store's value index (graph.View.ValueRange)
// and run the pattern from them, the variable bound, instead of reading
// every match of the pattern and testing each. The range scan widens
// the bounds so that it surely holds every term the comparisons can
// accept (numbers compared as float may round); the filter still tests each solution,
// so the answers are those of the filter alone. The planner's costs
// choose: the pattern from the range (the terms found, the pattern planned
// for that many seed rows) or the pattern alone.

// rangeScans, when false, leaves range filters to the filter alone (a
// variable so that tests can compare the two).
var rangeScans = true

// rangeScanMax bounds the terms a range scan may return before the
// pattern alone is taken: beyond it a scan of the pattern is cheaper.
const rangeScanMax = 1 << 16

// valueRange is a range of values of one class: the key bounds of the
// value index scan, inclusive.
type valueRange struct {
	class  graph.ValueClass
	lo, hi uint64
	// text describes the range for EXPLAIN.
	text string
}

// rangeOf returns the range the conjuncts of exprs impose on variable
// v; ok is false when none compares v with a number, dateTime or date
// constant. Conjuncts of another class than the first's are left to the
// filter.
func rangeOf(exprs []syntax.Expr, v string) (r valueRange, ok bool) {
	var lo, hi graph.Value
	var loSet, hiSet bool
	var loText, hiText string
	for _, e := range conjuncts(exprs) {
		op, k, found := compareWith(e, v)
		if !found {
			continue
		}
		val, indexed := graph.ParseValue(k)
		if !indexed || ok && val.Class != r.class {
			continue
		}
		if !ok {
			r.class, ok = val.Class, true
		}
		if op == "=" || op == ">" || op == ">=" {
			if !loSet || greater(val, lo) {
				lo, loSet = val, true
				loText = op + " " + k.String()
			}
		}
		if op == "=" || op == "<" || op == "<=" {
			if !hiSet || greater(hi, val) {
				hi, hiSet = val, true
				hiText = op + " " + k.String()
			}
		}
	}
	if !ok {
		return r, false
	}
	r.lo, r.hi = 0, math.MaxUint64
	r.text = "?" + v
	if loSet {
		r.lo = widen(lo, -1).Key()
		r.text += " " + loText
	}
	if hiSet {
		r.hi = widen(hi, 1).Key()
		if hiText != loText {
			r.text += " " + hiText
		}
	}
	return r, true
}

func greater(a, b graph.Value) bool {
	if a.Class == graph.ValueNumber {
		return a.Num > b.Num
	}
	return a.Sec > b.Sec
}

// widen moves a bound outwards (dir -1 down, +1 up) past every value a
// comparison with it may still accept: numbers by float32 rounding (a
// comparison with an xsd:float rounds the other side to float). DateTimes
// and dates need no widening: one without a time zone, placed as if in
// UTC, compares with one with a time zone only when the 14 hours a time
// zone may shift it leave no doubt (else the comparison is an error), so
// only when it compares so as placed.
func widen(v graph.Value, dir float64) graph.Value {
	if v.Class != graph.ValueNumber {
		return v
	}
	const rel, abs = 1.0 / (1 << 20), 2e-45 // float32's rounding and its least subnormal
	switch f := v.Num; {
	case math.IsInf(f, int(-dir)):
		v.Num = -dir * math.MaxFloat32 * (1 - rel) // values rounding to that infinity
	case !math.IsInf(f, 0):
		v.Num = f + dir*(math.Abs(f)*rel+abs)
	}
	return v
}

// conjuncts flattens && in exprs.
func conjuncts(exprs []syntax.Expr) []syntax.Expr {
	var out []syntax.Expr
	for _, e := range exprs {
		if c, ok := e.(*syntax.Call); ok && c.Op == "&&" {
			out = append(out, conjuncts(c.Args)...)
			continue
		}
		out = append(out, e)
	}
	return out
}

// compareWith matches e against ?v op constant (or constant op ?v,
// turned around) for op one of = < <= > >=.
func compareWith(e syntax.Expr, v string) (op string, k rdf.Term, ok bool) {
	c, isCall := e.(*syntax.Call)
	if !isCall || len(c.Args) != 2 {
		return "", rdf.Term{}, false
	}
	flip := map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
	if _, cmp := flip[c.Op]; !cmp {
		return "", rdf.Term{}, false
	}
	x, xVar := c.Args[0].(*syntax.Var)
	y, yConst := c.Args[1].(*syntax.Const)
	if xVar && yConst && x.Name == v {
		return c.Op, y.Term, true
	}
	x2, xConst := c.Args[0].(*syntax.Const)
	y2, yVar := c.Args[1].(*syntax.Var)
	if xConst && yVar && y2.Name == v {
		return flip[c.Op], x2.Term, true
	}
	return "", rdf.Term{}, false
}

// compileRange compiles the filter x over the pattern b as the pattern
// run from a value index range scan when a conjunct restricts a variable
// of b to a range and the estimates find that cheaper than b alone; n is
// nil otherwise.
func (c *compiler) compileRange(x *algebra.Filter, b *algebra.BGP, bound []bool) (node, error) {
	if !rangeScans || !c.ex.View.HasValueIndex() || len(b.Triples) == 0 {
		return nil, nil
	}
	var vars []string
	for _, t := range b.Triples {
		for _, nd := range [3]syntax.Node{t.S, t.P, t.O} {
			if nd.IsVar() && !slices.Contains(vars, nd.Var) && !isBound(bound, c.slot(nd.Var)) {
				vars = append(vars, nd.Var)
			}
		}
	}
	var best *rangeNode
	for _, v := range vars {
		r, ok := rangeOf(x.Exprs, v)
		if !ok {
			continue
		}
		if best == nil {
			cost, _, err := c.measure(b, bound)
			if err != nil {
				return nil, err
			}
			best = &rangeNode{cost: cost}
		}
		// A term costs at least a seek of the pattern: beyond the
		// plain pattern's cost in seeks, the range cannot win.
		limit := min(rangeScanMax, int(best.cost/lookupCost)+1)
		ids, complete, err := c.ex.View.ValueRange(c.ex.Ctx, r.class, r.lo, r.hi, limit)
		if err != nil {
			return nil, err
		}
		if !complete {
			continue
		}
		slot := c.slot(v)
		inner := append(slices.Clone(bound), make([]bool, max(0, slot+1-len(bound)))...)
		inner[slot] = true
		saved, spent := maps.Clone(c.hashed), c.spent
		bn, err := c.compileBGP(b.Triples, nil, -1, inner, math.Max(float64(len(ids)), 1))
		if err != nil {
			return nil, err
		}
		cost, rows := bn.estimate()
		if cost+float64(len(ids)) < best.cost {
			slices.Sort(ids)
			best = &rangeNode{slot: slot, ids: ids, bgp: bn, cost: cost + float64(len(ids)), rows: rows,
				table: &algebra.Table{Vars: []string{v}}, stats: &Stats{Est: float64(len(ids)), Detail: "value index range " + r.text}}
		}
		c.hashed, c.spent = saved, spent
	}
	if best == nil || best.bgp == nil {
		delete(c.rewrites, b)
		return nil, nil
	}
	c.spent += best.cost
	// EXPLAIN shows the range scan as a table joined with the pattern.
	b2 := &algebra.BGP{Triples: b.Triples}
	c.bgps[b2] = best.bgp
	c.stats[best.table] = best.stats
	c.rewrites[b] = &algebra.Join{Left: best.table, Right: b2}
	return c.count(b, best), nil
}

// rangeNode runs a pattern (bgp, planned with slot bound) once from
// each term of a value range (ids, sorted).
type rangeNode struct {
	slot  int
	ids   []ID
	bgp   *bgpNode
	cost  float64
	rows  float64
	table *algebra.Table
	stats *Stats
}

func (r *rangeNode) rowsEst() float64 { return r.rows }

func (r *rangeNode) open(ex *Exec, e env) (iter, error) {
	var rows [][]ID
	if r.slot < len(e.seed) && e.seed[r.slot] != 0 {
		cur := e.seed[r.slot]
		if _, ok := slices.BinarySearch(r.ids, cur); ok {
			rows = append(rows, ex.newRow(e.seed))
		}
	} else {
		rows = make([][]ID, len(r.ids))
		for i, id := range r.ids {
			rows[i] = ex.newRow(e.seed)
			rows[i][r.slot] = id
		}
	}
	r.stats.Rows += int64(len(rows))
	return r.bgp.openFrom(ex, e, &sliceIter{rows: rows})
}
