package eval

import (
	"context"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/expr"
)

// checkEvery is how many loop turns an operator makes between context
// checks: often enough to stop within microseconds, rarely enough to cost
// nothing measurable.
const checkEvery = 256

// Exec is the state of one query execution: the view, the dataset, the
// dictionary, the variable slots and the expression context. It is used
// by one goroutine.
type Exec struct {
	Ctx   context.Context
	View  *graph.View
	Dict  *Dict
	Scope *expr.Scope
	Expr  *expr.Context
	// Data is the dataset the query reads.
	Data Dataset
	// MaxRows bounds the rows (or quads) the query's operators hold in
	// memory together: past it, ORDER BY, DISTINCT and GROUP BY spill to
	// temporary files in TempDir and hash joins fall back to index
	// lookups. 0 means DefaultMaxRows.
	MaxRows int
	// TempDir is where spilled rows go ("" is os.TempDir()).
	TempDir string

	ticks    int
	storeErr error
	// existsNodes are the compiled patterns of the query's EXISTS.
	existsNodes map[*algebra.Exists]node
	// existsPats are the EXISTS of one triple pattern, looked up per row
	// without opening their nodes.
	existsPats map[*algebra.Exists]*existsPat
	// tables are the hash tables of patterns, shared by the steps that
	// probe the same pattern on the same key.
	tables map[string]*quadTable
	// tableRefs finds a step's table again without naming it.
	tableRefs map[tableRef]*quadTable
	// tries are the patterns read for leapfrog triejoins, by pattern
	// and column order.
	tries map[string]*trie
	// idle are scans of closed steps, kept for reuse.
	idle  map[scanKey][]*quadIter
	idleN int
	// memRows counts the rows held in memory against MaxRows.
	memRows int
	// slab is where new rows are cut from, to allocate them in bulk.
	slab []ID
}

// DefaultMaxRows is the default in-memory row bound of a query: about
// 64 MiB of quads or narrow rows.
const DefaultMaxRows = 1 << 21

func (ex *Exec) maxRows() int {
	if ex.MaxRows > 0 {
		return ex.MaxRows
	}
	return DefaultMaxRows
}

// tick returns the context's error every checkEvery calls.
func (ex *Exec) tick() error {
	ex.ticks++
	if ex.ticks%checkEvery == 0 {
		return ex.Ctx.Err()
	}
	return nil
}

// width is the number of variable slots; rows are this wide.
func (ex *Exec) width() int { return len(ex.Scope.Vars()) }

// newRow returns an unbound row, or a copy of seed widened to the current
// width.
func (ex *Exec) newRow(seed []ID) []ID {
	w := ex.width()
	if w == 0 {
		return []ID{} // a solution with no variables, not the end (nil)
	}
	if len(ex.slab) < w {
		ex.slab = make([]ID, w*slabRows)
	}
	r := ex.slab[:w:w]
	ex.slab = ex.slab[w:]
	copy(r, seed)
	return r
}

// slabRows is how many rows are allocated at once.
const slabRows = 128

// bind returns the expression Binding of row in active graph g.
func (ex *Exec) bind(row []ID, g *graphSel) *rowBinding {
	return &rowBinding{row: row, ex: ex, graph: g}
}

// rowBinding decodes a row's slots for expressions on demand; graph is
// the active graph, where an EXISTS in the expression looks.
type rowBinding struct {
	row   []ID
	ex    *Exec
	graph *graphSel
}

// Value implements expr.Binding. A dictionary read error makes the value
// unbound and is recorded so that the query fails rather than answers
// wrongly.
func (b *rowBinding) Value(slot int) rdf.Term {
	if slot >= len(b.row) || b.row[slot] == graph.Any {
		return rdf.Term{}
	}
	t, err := b.ex.Dict.Term(b.row[slot])
	if err != nil {
		b.ex.fail(err)
		return rdf.Term{}
	}
	return t
}

// Bound implements expr.Bounder: the slot holds an ID, without decoding
// it.
func (b *rowBinding) Bound(slot int) bool {
	return slot < len(b.row) && b.row[slot] != graph.Any
}

// fail records a store error met where no error can be returned.
func (ex *Exec) fail(err error) {
	if ex.storeErr == nil {
		ex.storeErr = err
	}
}

// iter is a running operator: next returns the next solution (owned by the
// caller, never modified afterwards by the producer) or nil at the end.
type iter interface {
	next() ([]ID, error)
	close()
}

// env is what an operator is opened with: the seed row (bindings already
// fixed from outside, as for EXISTS or the right side of a bind join;
// nil when none) and the active graph.
type env struct {
	seed  []ID
	graph *graphSel
}

// node is a compiled operator.
type node interface {
	open(ex *Exec, e env) (iter, error)
}

// sliceIter returns prepared rows.
type sliceIter struct {
	rows [][]ID
	i    int
}

func (s *sliceIter) next() ([]ID, error) {
	if s.i >= len(s.rows) {
		return nil, nil
	}
	s.i++
	return s.rows[s.i-1], nil
}

func (s *sliceIter) close() {}

// emptyIter has no solutions.
type emptyIter struct{}

func (emptyIter) next() ([]ID, error) { return nil, nil }
func (emptyIter) close()              {}

// pull returns the next row of it, checking the context every few rows.
func pull(ex *Exec, it iter) ([]ID, error) {
	r, err := it.next()
	if err != nil || r == nil {
		return nil, err
	}
	return r, ex.tick()
}

// drain runs it to the end, collecting every row.
func drain(ex *Exec, it iter) ([][]ID, error) {
	defer it.close()
	var out [][]ID
	for {
		r, err := pull(ex, it)
		if err != nil || r == nil {
			return out, err
		}
		out = append(out, r)
	}
}

// compatible reports whether a and b agree on every slot both bind.
func compatible(a, b []ID) bool {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != 0 && b[i] != 0 && a[i] != b[i] {
			return false
		}
	}
	return true
}

// merge returns a new row with the bindings of a and b (compatible).
func (ex *Exec) merge(a, b []ID) []ID {
	r := ex.newRow(a)
	for i, v := range b {
		if v != 0 {
			r[i] = v
		}
	}
	return r
}
