package eval

import "github.com/mneme-archive/mneme/graph"

// A pattern opened once per input row (the right side of a bind join,
// the branches of a factored union) would open store iterators and look
// up its hash tables on every opening; an execution keeps both for the
// next opening instead.

// scanKey identifies scans that can serve one another's lookups: the
// pattern's constants, the positions bound per row and the graphs.
type scanKey struct {
	base  graph.Pattern
	shape int
	sel   *graphSel
}

// idleScan returns a scan a closed step gave back for k, or nil.
func (ex *Exec) idleScan(k scanKey) *quadIter {
	qs := ex.idle[k]
	if len(qs) == 0 {
		return nil
	}
	q := qs[len(qs)-1]
	ex.idle[k] = qs[:len(qs)-1]
	return q
}

// putScan keeps q for the next step that needs a scan like it.
func (ex *Exec) putScan(k scanKey, q *quadIter) {
	if ex.idle == nil {
		ex.idle = map[scanKey][]*quadIter{}
	}
	ex.idle[k] = append(ex.idle[k], q)
}

// closeIdle closes the scans kept for reuse, when the execution ends.
func (ex *Exec) closeIdle() {
	for _, qs := range ex.idle {
		for _, q := range qs {
			q.close()
		}
	}
	clear(ex.idle)
}

// tableRef identifies a step's hash table within an execution: the
// pattern (whose key positions are fixed) in the graphs sel.
type tableRef struct {
	pat *quadPat
	sel *graphSel
}
