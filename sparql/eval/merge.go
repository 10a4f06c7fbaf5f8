package eval

import (
	"github.com/mneme-archive/mneme/graph"
)

// mergeStep is the first two steps of a basic graph pattern merge-joined:
// both patterns are scanned in an order sorted on their shared variable
// (the first unbound column), and each scan seeks past the values the
// other lacks (zig-zag), so a selective side skips most of the other.
type mergeStep struct {
	ex     *Exec
	seed   []ID
	a, b   *quadPat
	ka, kb int // the positions of the join variable
	sa, sb *graph.QuadIter
	stats  [2]*Stats
	ta, tb graph.IDQuad // seek targets: the constants, the variable varied

	started  bool
	aOK, bOK bool
	v        ID             // the join value of the current group
	group    []graph.IDQuad // b's quads with value v
	aRow     []ID           // the seed extended with a's current quad
	gi       int
	inGroup  bool
	done     bool
}

// openMerge starts a merge of the patterns a and b, sorted on the
// variable at position ka of a and kb of b, in the active graph sel (the
// union of all graphs or one graph). It returns nil when the seed binds
// a variable of either pattern, which would change the scans' order.
func openMerge(ex *Exec, seed []ID, a, b *quadPat, ka, kb int, sel *graphSel, stats [2]*Stats) (*mergeStep, error) {
	pa, pb := a.pattern(seed), b.pattern(seed)
	if pa != a.pattern(nil) || pb != b.pattern(nil) {
		return nil, nil
	}
	m := &mergeStep{ex: ex, seed: ex.newRow(seed), a: a, b: b, ka: ka, kb: kb, stats: stats}
	var err error
	if m.sa, m.ta, err = ex.rawScan(pa, sel); err != nil {
		return nil, err
	}
	if m.sb, m.tb, err = ex.rawScan(pb, sel); err != nil {
		_ = m.sa.Close()
		return nil, err
	}
	return m, nil
}

// rawScan opens a store scan of pat in sel, which is the union of all
// graphs or a single graph, and returns the pattern as a seek target.
func (ex *Exec) rawScan(pat graph.Pattern, sel *graphSel) (*graph.QuadIter, graph.IDQuad, error) {
	opts := graph.ScanOptions{Union: sel.union}
	if !sel.union {
		pat.G = sel.ids[0]
	}
	it, err := ex.View.Scan(ex.Ctx, pat, opts)
	return it, graph.IDQuad(pat), err
}

// mergeable reports whether a merge join can run in sel: one ordered scan
// per pattern needs the union of all graphs or a single graph.
func (sel *graphSel) mergeable() bool { return sel.union || len(sel.ids) == 1 }

// at is the ID at position k (0 s, 1 p, 2 o, 3 g) of q.
func at(q graph.IDQuad, k int) ID { return [4]ID{q.S, q.P, q.O, q.G}[k] }

// nextsBeforeSeek is how many quads a merge steps over before it seeks
// instead: a seek costs about as much as twenty steps, and where both
// sides hold most values the next match is usually a step or two away.
const nextsBeforeSeek = 4

// seek moves it to the first quad whose join value (at position k) is at
// least v.
func seek(it *graph.QuadIter, target graph.IDQuad, k int, v ID) bool {
	for range nextsBeforeSeek {
		if !it.Next() {
			return false
		}
		if at(it.Quad(), k) >= v {
			return true
		}
	}
	ids := [4]ID{target.S, target.P, target.O, target.G}
	ids[k] = v
	return it.SeekGE(graph.IDQuad{S: ids[0], P: ids[1], O: ids[2], G: ids[3]})
}

func (m *mergeStep) next() ([]ID, error) {
	for !m.done {
		if err := m.ex.tick(); err != nil {
			return nil, err
		}
		for m.aRow != nil && m.gi < len(m.group) {
			q := m.group[m.gi]
			m.gi++
			if out := m.b.extend(m.ex, m.aRow, q); out != nil {
				m.stats[1].Rows++
				return out, nil
			}
		}
		m.aRow = nil
		if m.inGroup {
			// The next quad of a with the same join value.
			if m.aOK = m.sa.Next(); m.aOK && at(m.sa.Quad(), m.ka) == m.v {
				m.startA()
				continue
			}
			m.inGroup = false
		}
		if !m.started {
			m.started = true
			m.aOK, m.bOK = m.sa.Next(), m.sb.Next()
		}
		if !m.align() {
			m.done = true
			break
		}
		m.v = at(m.sa.Quad(), m.ka)
		m.group = m.group[:0]
		for m.bOK && at(m.sb.Quad(), m.kb) == m.v {
			m.group = append(m.group, m.sb.Quad())
			m.bOK = m.sb.Next()
		}
		m.inGroup = true
		m.startA()
	}
	if err := m.sa.Err(); err != nil {
		return nil, err
	}
	return nil, m.sb.Err()
}

// startA extends the seed with a's current quad, for the group's quads
// of b to extend in turn.
func (m *mergeStep) startA() {
	m.gi = 0
	if m.aRow = m.a.extend(m.ex, m.seed, m.sa.Quad()); m.aRow != nil {
		m.stats[0].Rows++
	}
}

// align seeks the two scans forward until their join values meet; false
// when either ends.
func (m *mergeStep) align() bool {
	for m.aOK && m.bOK {
		va, vb := at(m.sa.Quad(), m.ka), at(m.sb.Quad(), m.kb)
		switch {
		case va < vb:
			m.aOK = seek(m.sa, m.ta, m.ka, vb)
		case vb < va:
			m.bOK = seek(m.sb, m.tb, m.kb, va)
		default:
			return true
		}
	}
	return false
}

func (m *mergeStep) close() {
	_ = m.sa.Close()
	_ = m.sb.Close()
}
