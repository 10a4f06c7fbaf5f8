package eval

import (
	"fmt"
	"math/bits"

	"github.com/mneme-archive/mneme/graph"
)

// quadTable is the quads of one pattern hashed on the key positions, laid
// out by bucket: bucket b (the leading bits of a key's hash) holds
// quads[off[b]:off[b+1]]. It is built by a counting sort of the scanned
// quads on their buckets, so a build writes no scattered chain links and a
// probe reads one offset pair and then adjacent quads; and since a single
// key is its own hash (IDs are hashes already), the buckets are in key
// order, so probes in key order (an input scanned sorted on the join
// variable, the common case) walk the table front to back. A bucket holds
// the quads whose keys share its leading bits; the join's compatibility
// check drops those whose key differs. Tables are shared by every step of
// the query that scans the same pattern with the same key, as the
// branches of a UNION often do.
type quadTable struct {
	key   []int
	quads []graph.IDQuad
	off   []int32
	shift uint // 64 - log2(number of buckets)
	// tooBig is set when the pattern outgrew the memory bound: the steps
	// look it up per row instead.
	tooBig bool
	// sorted, when set, replaces the hash layout (see sortedTable).
	sorted *sortedTable
}

// hash combines the key positions of vals (a single key is its own hash:
// IDs are hashes already).
func (t *quadTable) hash(vals [4]ID) uint64 {
	h := uint64(vals[t.key[0]])
	for _, p := range t.key[1:] {
		h = hashIDs(h, vals[p])
	}
	return h
}

func (t *quadTable) bucketOf(q graph.IDQuad) int {
	return int(t.hash([4]ID{q.S, q.P, q.O, q.G}) >> t.shift)
}

// build lays out raw (in scan order) by bucket, about one bucket per quad;
// quads of one bucket keep their scan order.
func (t *quadTable) build(raw []graph.IDQuad) {
	nb := 16
	for nb < len(raw) {
		nb <<= 1
	}
	t.shift = uint(64 - bits.TrailingZeros(uint(nb)))
	t.off = make([]int32, nb+1)
	for _, q := range raw {
		t.off[t.bucketOf(q)+1]++
	}
	for b := 1; b <= nb; b++ {
		t.off[b] += t.off[b-1]
	}
	// Scatter with off[b] as bucket b's next free place, which leaves
	// it at bucket b+1's start; shifting by one restores the starts.
	t.quads = make([]graph.IDQuad, len(raw))
	for _, q := range raw {
		b := t.bucketOf(q)
		t.quads[t.off[b]] = q
		t.off[b]++
	}
	copy(t.off[1:], t.off[:nb])
	t.off[0] = 0
}

// bucket returns the range of quads whose key hashes as vals' does.
func (t *quadTable) bucket(vals [4]ID) (lo, hi int32) {
	b := t.hash(vals) >> t.shift
	return t.off[b], t.off[b+1]
}

// table returns the hash table of pat (constants bound) in sel on the key
// positions, building it on first use. A table that would hold more than
// the execution's row bound is not built; it comes back tooBig.
func (ex *Exec) table(pat *quadPat, key []int, sel *graphSel) (*quadTable, error) {
	ref := tableRef{pat, sel}
	if t, ok := ex.tableRefs[ref]; ok {
		return t, nil
	}
	t, err := ex.namedTable(pat, key, sel)
	if err == nil {
		ex.tableRefs[ref] = t
	}
	return t, err
}

// namedTable finds or builds the table of pat by name, shared with other
// patterns with the same constants and key.
func (ex *Exec) namedTable(pat *quadPat, key []int, sel *graphSel) (*quadTable, error) {
	base := pat.pattern(nil)
	name := fmt.Sprint(tableName(pat), key, sel.union, sel.ids)
	if pat.graphVar {
		name = fmt.Sprint(tableName(pat), key)
	}
	if t, ok := ex.tables[name]; ok {
		return t, nil
	}
	if st, err := ex.sortedTableOf(pat, key, sel); err != nil {
		return nil, err
	} else if st != nil {
		t := &quadTable{key: key, sorted: st}
		ex.tables[name] = t
		return t, nil
	}
	size := int(min(pat.card, float64(ex.maxRows())))
	t := &quadTable{key: key}
	raw := make([]graph.IDQuad, 0, size)
	if pat.graphVar {
		sel = nil
	}
	q := ex.scan(base, sel)
	defer q.close()
	for q.next() {
		if err := ex.tick(); err != nil {
			return nil, err
		}
		if ex.memRows >= ex.maxRows() {
			t = &quadTable{tooBig: true}
			break
		}
		raw = append(raw, q.quad)
		ex.memRows++
	}
	if q.err != nil {
		return nil, q.err
	}
	if t.tooBig {
		ex.memRows -= len(raw)
	} else {
		t.build(raw)
	}
	ex.tables[name] = t
	return t, nil
}

// tableName identifies the pattern a hash table holds: its constants.
func tableName(pat *quadPat) string {
	return fmt.Sprint(pat.pattern(nil), pat.graphVar)
}

// hashStep probes the hash table of its pattern with each input row; when
// the table is too big for memory it runs as a bindStep.
type hashStep struct {
	ex    *Exec
	in    iter
	pat   *quadPat
	key   []int
	sel   *graphSel
	stats *Stats
	t     *quadTable
	bind  *bindStep
	row   []ID
	// cand..end are the quads of the row's bucket not yet tried.
	cand, end int32
	hint      int // see quadTable.probe
	// out, when set, is the one row every match is written into (see
	// rowReuser).
	out []ID
}

func (s *hashStep) reuseRows() { s.out = make([]ID, s.ex.width()) }

// build gets the step's table, or its bindStep when the table is too
// big.
func (s *hashStep) build() error {
	if s.t != nil {
		return nil
	}
	t, err := s.ex.table(s.pat, s.key, s.sel)
	if err != nil {
		return err
	}
	s.t = t
	if t.sorted != nil {
		s.stats.Detail += " on the sorted range"
	}
	if t.tooBig {
		s.bind = &bindStep{ex: s.ex, in: s.in, pat: s.pat, sel: s.sel, stats: s.stats}
		if s.out != nil {
			s.bind.reuseRows()
		}
	} else if r, ok := s.in.(rowReuser); ok {
		// A probe holds its input row only until the next pull, and
		// every match is a copy.
		r.reuseRows()
	}
	return nil
}

func (s *hashStep) next() ([]ID, error) {
	if err := s.build(); err != nil {
		return nil, err
	}
	if s.bind != nil {
		return s.bind.next()
	}
	for {
		for s.row != nil && s.cand < s.end {
			if err := s.ex.tick(); err != nil {
				return nil, err
			}
			c, ok := s.t.at(s.cand)
			s.cand++
			if !ok {
				continue
			}
			var out []ID
			if s.out != nil && len(s.row) == len(s.out) {
				out = s.pat.extendInto(s.out, s.row, c)
			} else {
				out = s.pat.extend(s.ex, s.row, c)
			}
			if out != nil {
				s.stats.Rows++
				return out, nil
			}
		}
		row, err := pull(s.ex, s.in)
		if err != nil || row == nil {
			return nil, err
		}
		s.row = row
		var vals [4]ID
		for _, p := range s.key {
			vals[p] = row[s.pat.t[p].slot]
		}
		s.cand, s.end = s.t.probe(vals, &s.hint)
	}
}

// count consumes the step and returns its number of matches: each input
// row's candidates are checked as next would extend the row, without
// making the rows (a COUNT over a hash join).
func (s *hashStep) count() (int64, bool, error) {
	if n, ok, err := s.orderCount(); ok || err != nil {
		return n, true, err
	}
	if err := s.build(); err != nil {
		return 0, true, err
	}
	if s.bind != nil {
		return s.bind.count()
	}
	var n int64
	defer func() { s.stats.Rows += n }()
	for {
		for ; s.row != nil && s.cand < s.end; s.cand++ {
			if err := s.ex.tick(); err != nil {
				return n, true, err
			}
			if c, ok := s.t.at(s.cand); ok && s.pat.matches(s.row, c) {
				n++
			}
		}
		row, err := pull(s.ex, s.in)
		if err != nil || row == nil {
			return n, true, err
		}
		s.row = row
		var vals [4]ID
		for _, p := range s.key {
			vals[p] = row[s.pat.t[p].slot]
		}
		s.cand, s.end = s.t.probe(vals, &s.hint)
	}
}

func (s *hashStep) close() {
	if s.bind != nil {
		s.bind.close()
		return
	}
	s.in.close()
}
