package sparql

import (
	"strconv"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// constructor instantiates the CONSTRUCT template once per solution: a
// fresh blank node per template blank node and solution, triples with an
// unbound or ill-placed term left out (§16.2), each triple once (the
// result is a graph).
type constructor struct {
	template []syntax.Triple
	p        *prepared
	slots    map[string]int
	solution int
	pending  []rdf.Triple
	seen     map[string]bool
	key      []byte
}

func newConstructor(template []syntax.Triple, p *prepared) *constructor {
	c := &constructor{template: template, p: p, slots: map[string]int{}, seen: map[string]bool{}}
	for _, tr := range template {
		for _, n := range [3]syntax.Node{tr.S, tr.P, tr.O} {
			if n.IsVar() {
				c.slots[n.Var] = p.ex.Scope.Slot(n.Var)
			}
		}
	}
	return c
}

// templateSlots lists the slots the template reads, for batch decoding.
func templateSlots(template []syntax.Triple, p *prepared) []int {
	var out []int
	for _, tr := range template {
		for _, n := range [3]syntax.Node{tr.S, tr.P, tr.O} {
			if n.IsVar() {
				out = append(out, p.ex.Scope.Slot(n.Var))
			}
		}
	}
	return out
}

func (c *constructor) next(r *Result) (rdf.Triple, bool, error) {
	for len(c.pending) == 0 {
		row, err := r.nextRow()
		if err != nil || row == nil {
			return rdf.Triple{}, false, err
		}
		c.solution++
		for _, tr := range c.template {
			var terms [3]rdf.Term
			ok := true
			for i, n := range [3]syntax.Node{tr.S, tr.P, tr.O} {
				switch {
				case n.IsVar():
					t, err := c.p.ex.Dict.Term(row[c.slots[n.Var]])
					if err != nil {
						return rdf.Triple{}, false, err
					}
					terms[i] = t
				case n.Term.IsBlank():
					terms[i] = rdf.Blank("c" + strconv.Itoa(c.solution) + "_" + n.Term.Value)
				default:
					terms[i] = n.Term
				}
				ok = ok && !terms[i].IsZero()
			}
			t := rdf.Triple{S: terms[0], P: terms[1], O: terms[2]}
			if !ok || t.S.IsLiteral() || !t.P.IsIRI() {
				continue
			}
			c.key = t.O.Append(t.P.Append(t.S.Append(c.key[:0])))
			if c.seen[string(c.key)] {
				continue
			}
			c.seen[string(c.key)] = true
			c.pending = append(c.pending, t)
		}
	}
	t := c.pending[0]
	c.pending = c.pending[1:]
	return t, true, nil
}
