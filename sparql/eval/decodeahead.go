package eval

import (
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// A filter or an ORDER BY that reads the terms of its rows (a string
// function, a comparison, a sort key) would decode them one at a time:
// IDs are hashes, so each term the store's term cache lacks costs a
// random read of the dictionary, and over hundreds of thousands of rows
// (LUBM(80) holds 1.7M names, more than the cache keeps) those reads are
// most of the query. Decoding ahead reads the input in batches and
// decodes the terms of a batch's rows in one sorted pass over the
// dictionary (View.Terms, about five times cheaper per term than a
// random read); the expressions then find them in the Dict.

// Batches start small, so that a LIMIT above reads little ahead, and
// double up to maxAheadRows.
const (
	minAheadRows = 64
	maxAheadRows = 8192
)

// minAheadEst is the planner's estimate of input rows from which a
// filter or a sort decodes ahead: below, the batch's pass over the
// dictionary costs more than the random reads it saves.
const minAheadEst = 4096

// decodeAheadIter passes its input's rows through, decoding the terms
// in slots of each batch of rows before the first of them is returned.
// ids and terms hold, per row of the batch, the IDs in slots (0 for an
// unbound slot or a query-local term) and their terms; returning a row
// points the Dict's window at that row's part of them.
type decodeAheadIter struct {
	ex    *Exec
	in    iter
	slots []int
	rows  [][]ID
	pos   int
	batch int
	ids   []ID
	terms []rdf.Term
	done  bool
}

// decodeAhead wraps it when slots is not empty.
func decodeAhead(ex *Exec, it iter, slots []int) iter {
	if len(slots) == 0 {
		return it
	}
	return &decodeAheadIter{ex: ex, in: it, slots: slots, batch: minAheadRows}
}

func (d *decodeAheadIter) next() ([]ID, error) {
	if d.pos == len(d.rows) {
		if d.done {
			return nil, nil
		}
		if err := d.fill(); err != nil {
			return nil, err
		}
		if len(d.rows) == 0 {
			return nil, nil
		}
	}
	r := d.rows[d.pos]
	d.rows[d.pos] = nil
	n := len(d.slots)
	d.ex.Dict.window(d.ids[d.pos*n:(d.pos+1)*n], d.terms[d.pos*n:(d.pos+1)*n])
	d.pos++
	return r, nil
}

// fill reads the next batch and decodes its terms. The window is
// closed first: ids and terms are rewritten while the input runs.
func (d *decodeAheadIter) fill() error {
	d.ex.Dict.window(nil, nil)
	d.rows, d.pos, d.ids = d.rows[:0], 0, d.ids[:0]
	for len(d.rows) < d.batch {
		r, err := d.in.next()
		if err != nil {
			return err
		}
		if r == nil {
			d.done = true
			break
		}
		d.rows = append(d.rows, r)
		for _, s := range d.slots {
			var id ID
			if s < len(r) && !d.ex.Dict.isLocal(r[s]) {
				id = r[s]
			}
			d.ids = append(d.ids, id)
		}
	}
	d.batch = min(2*d.batch, maxAheadRows)
	d.ex.Dict.decodedAhead += len(d.ids)
	var err error
	d.terms, err = d.ex.Dict.view.Terms(d.ex.Ctx, d.ids, d.terms)
	return err
}

func (d *decodeAheadIter) close() {
	d.ex.Dict.window(nil, nil)
	d.in.close()
}

// window makes Term answer the IDs of ids with the terms beside them in
// terms (one row's terms decoded ahead), until the next window.
func (d *Dict) window(ids []ID, terms []rdf.Term) {
	d.aheadIDs, d.aheadTerms = ids, terms
}

// aheadSlots is termSlots when the planner expects at least
// minAheadEst rows of op, else nil.
func (c *compiler) aheadSlots(op algebra.Op, exprs ...syntax.Expr) []int {
	if c.est(op) < minAheadEst {
		return nil
	}
	return c.termSlots(exprs...)
}

// termSlots returns the slots of the variables whose terms exprs read:
// not those only tested by BOUND (answered from the ID) nor those of
// EXISTS patterns.
func (c *compiler) termSlots(exprs ...syntax.Expr) []int {
	var slots []int
	seen := map[int]bool{}
	for _, e := range exprs {
		syntax.WalkExpr(e, func(x syntax.Expr) bool {
			switch y := x.(type) {
			case *syntax.Call:
				if y.Op == "BOUND" {
					return false
				}
			case *syntax.Var:
				if s := c.slot(y.Name); s >= 0 && !seen[s] {
					seen[s] = true
					slots = append(slots, s)
				}
			}
			return true
		})
	}
	return slots
}
