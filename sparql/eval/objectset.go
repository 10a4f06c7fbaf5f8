package eval

import (
	"strconv"

	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// A union of single triples that differ only in a constant object — the
// open-coded subclasses of `?x a C`, such as { ?x a ub:FullProfessor }
// UNION { ?x a ub:Lecturer } UNION … — with the subject bound costs one
// lookup per branch and input row, most of them finding nothing. When
// the subject has few objects for the predicate, one scan of (subject,
// predicate) answers every branch at once: each stored object found among
// the constants yields the row once per branch naming it, as the union
// would. LUBM query 5 checks 8 classes per member of a department this
// way with one lookup instead of 8.

// objectSet compiles branches as one scan when they have that form and
// it is cheaper; ok is false otherwise.
//
// EXPLAIN shows the scan as the pattern with the compiler's variable in
// the object (?.inN), its rows before the constants are checked.
func (c *compiler) objectSet(branches []branch, bound []bool, inRows float64) (n node, op algebra.Op, cost float64, ok bool, err error) {
	if len(branches) < 2 {
		return nil, nil, 0, false, nil
	}
	first := branches[0].triples
	if len(first) != 1 || first[0].P.IsVar() {
		return nil, nil, 0, false, nil
	}
	s, p := first[0].S, first[0].P
	if s.IsVar() && !isBound(bound, c.slot(s.Var)) {
		return nil, nil, 0, false, nil
	}
	for _, b := range branches {
		if len(b.triples) != 1 || b.triples[0].S != s || b.triples[0].P != p || b.triples[0].O.IsVar() {
			return nil, nil, 0, false, nil
		}
	}
	pid, found, err := c.ex.Dict.Lookup(p.Term)
	if err != nil || !found {
		return nil, nil, 0, false, err
	}
	if c.storeStats == nil {
		if c.storeStats, err = c.ex.View.Stats(); err != nil {
			return nil, nil, 0, false, err
		}
	}
	// The scan reads the subject's objects for p, a lookup costs about
	// 20 key reads (the planner's seekCost): worth it while a subject has
	// fewer objects than that per branch.
	ps := c.storeStats.Predicates[pid]
	if ps.Subjects == 0 || float64(ps.Triples)/float64(ps.Subjects) > 20*float64(len(branches)) {
		return nil, nil, 0, false, nil
	}
	want := map[ID]int{}
	for _, b := range branches {
		id, found, err := c.ex.Dict.Lookup(b.triples[0].O.Term)
		if err != nil {
			return nil, nil, 0, false, err
		}
		if found && !c.ex.Dict.isLocal(id) {
			want[id]++
		}
	}
	name := ".in" + strconv.Itoa(len(c.ex.Scope.Vars()))
	scan := syntax.Triple{S: s, P: p, O: syntax.Node{Var: name}}
	inner, innerOp, cost, err := c.leaf(branch{triples: []syntax.Triple{scan}}, bound, inRows)
	if err != nil {
		return nil, nil, 0, false, err
	}
	return &objectSetNode{n: inner, slot: c.slot(name), want: want}, innerOp, cost, true, nil
}

// objectSetNode runs n (a scan binding slot) and keeps the rows whose
// slot holds a wanted ID, each as many times as a branch names it (a
// union keeps duplicates, though factoring usually takes a repeated
// branch out first), with slot unbound again: the variable is the
// compiler's, not the query's.
type objectSetNode struct {
	n    node
	slot int
	want map[ID]int
}

func (o *objectSetNode) open(ex *Exec, e env) (iter, error) {
	it, err := o.n.open(ex, e)
	if err != nil {
		return nil, err
	}
	return &objectSetIter{ex: ex, it: it, node: o}, nil
}

type objectSetIter struct {
	ex   *Exec
	it   iter
	node *objectSetNode
	row  []ID
	left int // more copies of row to return
}

func (s *objectSetIter) next() ([]ID, error) {
	if s.left > 0 {
		s.left--
		return s.ex.newRow(s.row), nil
	}
	for {
		r, err := s.it.next()
		if err != nil || r == nil {
			return nil, err
		}
		n := s.node.want[r[s.node.slot]]
		if n == 0 {
			continue
		}
		r[s.node.slot] = 0
		s.row, s.left = r, n-1
		return r, nil
	}
}

func (s *objectSetIter) close() { s.it.close() }
