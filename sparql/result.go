package sparql

import (
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/eval"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// Solutions are decoded in batches, in one sorted pass over the
// dictionary per batch. The first batch is small, so that the first rows
// (and a LIMIT) come quickly; each next one doubles up to maxBatchRows, so
// that a large answer reads the dictionary in long runs of nearby keys
// (IDs are hashes: 256 random IDs of a dictionary of millions are as many
// unrelated seeks, while thousands sorted fall a few blocks apart, and
// the repeated IDs of a batch are read once).
const (
	batchRows    = 256
	maxBatchRows = 8192
)

// Result is a running query's answer. For SELECT, iterate with Next and
// Row; for CONSTRUCT and DESCRIBE, with Next and Triple; for ASK, read
// Boolean. Err reports what stopped the iteration.
type Result struct {
	Form syntax.Form
	Vars []string

	q       *Query
	p       *prepared
	rows    *eval.Rows
	boolean bool
	gen     tripleSource

	batch [][]graph.ID
	ids   []graph.ID // the batch's projected IDs
	terms []rdf.Term // and their terms
	bi    int
	size  int // rows of the next batch
	row   []rdf.Term
	tr    rdf.Triple
	err   error
	done  bool
}

// tripleSource produces the triples of CONSTRUCT or DESCRIBE.
type tripleSource interface {
	next(r *Result) (rdf.Triple, bool, error)
}

// Boolean is the answer of an ASK query.
func (r *Result) Boolean() bool { return r.boolean }

// Next advances to the next solution or triple.
func (r *Result) Next() bool {
	if r.done || r.err != nil || r.rows == nil {
		return false
	}
	if r.gen != nil {
		t, ok, err := r.gen.next(r)
		if err != nil || !ok {
			r.err, r.done = err, true
			return false
		}
		r.tr = t
		return true
	}
	row, err := r.nextRow()
	if err != nil || row == nil {
		r.err, r.done = err, true
		return false
	}
	n := len(r.p.slots)
	r.row = r.terms[(r.bi-1)*n : r.bi*n : r.bi*n]
	return true
}

// nextRow returns the next solution of the plan. Solutions are read
// ahead in batches whose projected terms are decoded together (r.terms,
// len(slots) per row), in one sorted pass over the dictionary.
func (r *Result) nextRow() ([]graph.ID, error) {
	if r.bi >= len(r.batch) {
		if err := r.p.ex.Ctx.Err(); err != nil {
			return nil, err
		}
		r.batch, r.bi, r.ids = r.batch[:0], 0, r.ids[:0]
		r.size = min(max(2*r.size, batchRows), maxBatchRows)
		for len(r.batch) < r.size {
			row, err := r.rows.Next()
			if err != nil {
				return nil, err
			}
			if row == nil {
				break
			}
			r.batch = append(r.batch, row)
			for _, s := range r.p.slots {
				r.ids = append(r.ids, row[s])
			}
		}
		if len(r.batch) == 0 {
			return nil, nil
		}
		var err error
		if r.terms, err = r.p.ex.Dict.Terms(r.p.ex.Ctx, r.ids, r.terms); err != nil {
			return nil, err
		}
	}
	r.bi++
	return r.batch[r.bi-1], nil
}

// Row is the current solution, aligned with Vars (the zero Term for
// unbound); valid until the next call of Next.
func (r *Result) Row() []rdf.Term { return r.row }

// Triple is the current CONSTRUCT or DESCRIBE triple.
func (r *Result) Triple() rdf.Triple { return r.tr }

// Err is the error that ended the iteration, if any (a timeout is the
// context's error).
func (r *Result) Err() error { return r.err }

// Close releases the scans of the query.
func (r *Result) Close() error {
	if r.rows != nil {
		r.rows.Close()
		r.rows = nil
	}
	return nil
}

// Explain returns the plan with the rows counted so far.
func (r *Result) Explain() string { return r.p.plan.Explain() }
