package eval

import (
	"fmt"

	"github.com/mneme-archive/mneme/graph"
)

// quadTable is the quads of one pattern hashed on the key positions, as
// chains threaded through slices (no allocation per key, see hashIndex). A chain holds
// the quads whose key hashes alike; the join's compatibility check drops
// the rare ones whose key differs. Tables are
// shared by every step of the query that scans the same pattern with the
// same key, as the branches of a UNION often do.
type quadTable struct {
	key   []int
	quads []graph.IDQuad
	next  []int32 // next quad of the same chain, or -1
	head  *hashIndex
	// tooBig is set when the pattern outgrew the memory bound: the steps
	// look it up per row instead.
	tooBig bool
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

func (t *quadTable) add(q graph.IDQuad) {
	i := int32(len(t.quads))
	t.quads = append(t.quads, q)
	t.next = append(t.next, t.head.put(t.hash([4]ID{q.S, q.P, q.O, q.G}), i))
}

// first returns the head of the chain of key vals, or -1.
func (t *quadTable) first(vals [4]ID) int32 { return t.head.get(t.hash(vals)) }

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
	size := int(min(pat.card, float64(ex.maxRows())))
	t := &quadTable{key: key, head: newHashIndex(size),
		quads: make([]graph.IDQuad, 0, size), next: make([]int32, 0, size)}
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
		t.add(q.quad)
		ex.memRows++
	}
	if q.err != nil {
		return nil, q.err
	}
	if t.tooBig {
		ex.memRows -= len(t.quads)
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
	cand  int32
}

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
	if t.tooBig {
		s.bind = &bindStep{ex: s.ex, in: s.in, pat: s.pat, sel: s.sel, stats: s.stats}
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
		for s.row != nil && s.cand >= 0 {
			if err := s.ex.tick(); err != nil {
				return nil, err
			}
			c := s.t.quads[s.cand]
			s.cand = s.t.next[s.cand]
			if out := s.pat.extend(s.ex, s.row, c); out != nil {
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
		s.cand = s.t.first(vals)
	}
}

// count consumes the step and returns its number of matches: each input
// row's candidates are checked as next would extend the row, without
// making the rows (a COUNT over a hash join).
func (s *hashStep) count() (int64, bool, error) {
	if err := s.build(); err != nil {
		return 0, true, err
	}
	if s.bind != nil {
		return s.bind.count()
	}
	var n int64
	defer func() { s.stats.Rows += n }()
	for {
		for ; s.row != nil && s.cand >= 0; s.cand = s.t.next[s.cand] {
			if err := s.ex.tick(); err != nil {
				return n, true, err
			}
			if s.pat.matches(s.row, s.t.quads[s.cand]) {
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
		s.cand = s.t.first(vals)
	}
}

func (s *hashStep) close() {
	if s.bind != nil {
		s.bind.close()
		return
	}
	s.in.close()
}
