package graph

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/mneme-archive/mneme/graph/kv"
)

// Stats are the exact counts the query planner works from.
type Stats struct {
	// Quads counts quads in all graphs, the default graph included.
	Quads uint64
	// Triples counts distinct triples over all graphs: the size of the
	// union default graph, where a triple in several graphs counts once.
	Triples    uint64
	Predicates map[ID]PredicateStats
	// Graphs counts the quads of each graph (DefaultGraph included) that
	// holds any.
	Graphs map[ID]uint64
}

// PredicateStats describe one predicate over the union of all graphs.
type PredicateStats struct {
	Quads    uint64 // quads with this predicate
	Triples  uint64 // distinct (s, o) pairs with it
	Subjects uint64 // distinct subjects
	Objects  uint64 // distinct objects
}

// Stat keys: 's' 'T' → Quads, Triples; 's' 'p' id → PredicateStats;
// 's' 'g' id → quads. Values are big-endian uint64s.
var statTotalKey = []byte{tagStat, 'T'}

func statPredKey(p ID) []byte {
	return binary.BigEndian.AppendUint64([]byte{tagStat, 'p'}, uint64(p))
}

func statGraphKey(g ID) []byte {
	return binary.BigEndian.AppendUint64([]byte{tagStat, 'g'}, uint64(g))
}

func putUint64s(vals ...uint64) []byte {
	b := make([]byte, 0, 8*len(vals))
	for _, v := range vals {
		b = binary.BigEndian.AppendUint64(b, v)
	}
	return b
}

func getUint64s(b []byte, n int) ([]uint64, error) {
	if len(b) != 8*n {
		return nil, fmt.Errorf("stat value of %d bytes, want %d", len(b), 8*n)
	}
	out := make([]uint64, n)
	for i := range out {
		out[i] = binary.BigEndian.Uint64(b[8*i:])
	}
	return out, nil
}

// Stats reads the statistics.
func (v *View) Stats() (*Stats, error) { return readStats(v.r) }

func readStats(r kv.Reader) (*Stats, error) {
	st := &Stats{Predicates: map[ID]PredicateStats{}, Graphs: map[ID]uint64{}}
	it, err := r.NewIter([]byte{tagStat}, []byte{tagStat + 1})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		k, val := it.Key(), it.Value()
		var err error
		switch {
		case len(k) == 2 && k[1] == 'T':
			var u []uint64
			if u, err = getUint64s(val, 2); err == nil {
				st.Quads, st.Triples = u[0], u[1]
			}
		case len(k) == 10 && k[1] == 'p':
			var u []uint64
			if u, err = getUint64s(val, 4); err == nil {
				st.Predicates[ID(binary.BigEndian.Uint64(k[2:]))] = PredicateStats{u[0], u[1], u[2], u[3]}
			}
		case len(k) == 10 && k[1] == 'g':
			var u []uint64
			if u, err = getUint64s(val, 1); err == nil {
				st.Graphs[ID(binary.BigEndian.Uint64(k[2:]))] = u[0]
			}
		default:
			err = errors.New("unknown statistics key")
		}
		if err != nil {
			return nil, fmt.Errorf("statistics key %x: %w", k, err)
		}
	}
	return st, it.Err()
}

// statDelta accumulates signed changes to the statistics.
type statDelta struct {
	quads, triples int64
	preds          map[ID]*[4]int64 // quads, triples, subjects, objects
	graphs         map[ID]int64
	// lastP and lastC are the predicate pred returned last and its counts:
	// a merge in predicate order (POSG) asks for the same one again and
	// again.
	lastP ID
	lastC *[4]int64
}

func newStatDelta() *statDelta {
	return &statDelta{preds: map[ID]*[4]int64{}, graphs: map[ID]int64{}}
}

func (d *statDelta) pred(p ID) *[4]int64 {
	if d.lastC != nil && d.lastP == p {
		return d.lastC
	}
	c := d.preds[p]
	if c == nil {
		c = new([4]int64)
		d.preds[p] = c
	}
	d.lastP, d.lastC = p, c
	return c
}

// add adds the counts of o to d.
func (d *statDelta) add(o *statDelta) {
	d.quads += o.quads
	d.triples += o.triples
	for p, c := range o.preds {
		dc := d.pred(p)
		for i := range c {
			dc[i] += c[i]
		}
	}
	for g, n := range o.graphs {
		d.graphs[g] += n
	}
}

// statWrite is one statistics key to set (or delete when val is nil).
type statWrite struct{ key, val []byte }

// apply adds d to the current statistics read from r and returns the keys
// to write, sorted by key. A count that would go negative means the store
// is inconsistent and is reported rather than wrapped around.
func (d *statDelta) apply(r kv.Reader) ([]statWrite, error) {
	cur, err := readStats(r)
	if err != nil {
		return nil, err
	}
	add := func(what string, u uint64, delta int64) (uint64, error) {
		n := int64(u) + delta
		if n < 0 {
			return 0, fmt.Errorf("statistics: %s would become %d", what, n)
		}
		return uint64(n), nil
	}
	var out []statWrite
	var q, t uint64
	if q, err = add("quads", cur.Quads, d.quads); err != nil {
		return nil, err
	}
	if t, err = add("triples", cur.Triples, d.triples); err != nil {
		return nil, err
	}
	out = append(out, statWrite{statTotalKey, putUint64s(q, t)})
	for g, delta := range d.graphs {
		n, err := add(fmt.Sprintf("quads of graph %016x", uint64(g)), cur.Graphs[g], delta)
		if err != nil {
			return nil, err
		}
		w := statWrite{key: statGraphKey(g)}
		if n > 0 {
			w.val = putUint64s(n)
		}
		out = append(out, w)
	}
	for p, delta := range d.preds {
		c := cur.Predicates[p]
		old := [4]uint64{c.Quads, c.Triples, c.Subjects, c.Objects}
		var nw [4]uint64
		for i := range nw {
			if nw[i], err = add(fmt.Sprintf("statistic %d of predicate %016x", i, uint64(p)), old[i], delta[i]); err != nil {
				return nil, err
			}
		}
		w := statWrite{key: statPredKey(p)}
		if nw[0] > 0 {
			w.val = putUint64s(nw[:]...)
		}
		out = append(out, w)
	}
	sortStatWrites(out)
	return out, nil
}

func sortStatWrites(w []statWrite) {
	slices.SortFunc(w, func(a, b statWrite) int { return bytes.Compare(a.key, b.key) })
}
