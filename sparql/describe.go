package sparql

import (
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// describer answers DESCRIBE with the concise bounded description of
// each target: the IRIs named in the query and the values of the
// described variables in every solution.
type describer struct {
	triples []rdf.Triple
	started bool
	i       int
}

// describeTargets resolves the DESCRIBE targets before the plan opens
// (the variables' slots must exist before rows are made).
func describeTargets(targets []syntax.Node, p *prepared) error {
	for _, n := range targets {
		if n.IsVar() {
			p.describeSlots = append(p.describeSlots, p.ex.Scope.Slot(n.Var))
			continue
		}
		id, ok, err := p.ex.View.Lookup(n.Term)
		if err != nil {
			return err
		}
		if ok {
			p.describeIDs = append(p.describeIDs, id)
		}
	}
	return nil
}

func (d *describer) next(r *Result) (rdf.Triple, bool, error) {
	if !d.started {
		d.started = true
		ids := r.p.describeIDs
		for {
			row, err := r.rows.Next()
			if err != nil {
				return rdf.Triple{}, false, err
			}
			if row == nil {
				break
			}
			for _, s := range r.p.describeSlots {
				ids = append(ids, row[s])
			}
		}
		dict := r.p.ex.Dict
		seen := map[[3]graph.ID]bool{}
		err := r.p.ex.Describe(ids, func(s, pr, o graph.ID) error {
			k := [3]graph.ID{s, pr, o}
			if seen[k] {
				return nil
			}
			seen[k] = true
			var t rdf.Triple
			var err error
			if t.S, err = dict.Term(s); err != nil {
				return err
			}
			if t.P, err = dict.Term(pr); err != nil {
				return err
			}
			t.O, err = dict.Term(o)
			d.triples = append(d.triples, t)
			return err
		})
		if err != nil {
			return rdf.Triple{}, false, err
		}
	}
	if d.i >= len(d.triples) {
		return rdf.Triple{}, false, nil
	}
	d.i++
	return d.triples[d.i-1], true, nil
}
