package graph

import (
	"context"
	"errors"
	"fmt"

	"github.com/mneme-archive/mneme/graph/kv"
)

// ScanOptions shape a Scan.
type ScanOptions struct {
	// Order is the ordering of the results. OrderAuto picks the one whose
	// leading columns are the bound positions (a pure range scan). An
	// explicit order whose leading columns are not all bound is allowed —
	// it scans the longest bound prefix and filters the rest — so a planner
	// can buy a sort order with a wider scan.
	Order Order
	// Union scans the union of all graphs (the SPARQL default graph made
	// of every graph): each matching triple is returned once, with G set
	// to Any. The pattern's G must be Any, and Order, if set, must have the
	// graph last (SPOG, POSG or OSPG).
	Union bool
}

// AutoOrder is the ordering Scan picks for OrderAuto: the one whose key
// prefix is exactly the bound positions of p (graph first when the graph
// is bound and union is false). A caller that will Reset a scan to
// patterns of one shape opens it in the order of that shape.
func AutoOrder(p Pattern, union bool) Order {
	s, pr, o := p.S != Any, p.P != Any, p.O != Any
	if p.G != Any && !union {
		switch {
		case s && !o || s && pr:
			return GSPO
		case pr:
			return GPOS
		case o:
			return GOSP
		}
		return GSPO
	}
	switch {
	case s && !o || s && pr:
		return SPOG
	case pr:
		return POSG
	case o:
		return OSPG
	}
	return SPOG
}

// QuadIter iterates over the quads of a scan in the scan's order.
type QuadIter struct {
	ctx     context.Context
	it      kv.Iterator
	order   Order
	pat     Pattern
	prefix  []byte // leading bound columns of pat: every result starts so
	bound   []byte // the range the underlying iterator was opened on
	buf     []byte // prefix storage after a Reset (never bound's)
	union   bool
	started bool
	cur     IDQuad
	prev    IDQuad
	hasPrev bool
	n       int
	err     error

	// The posting cache (postings.go, scanmem.go): pc is nil when the
	// scan's state is not a known generation's (gen). With fill a missed
	// prefix is read into mem as the scan advances and cached once read
	// to its end. While inMem the scan walks mem (pos is the current
	// index) instead of the store. While filling, or with tail (mem is
	// the head of a range too big to cache), the store's iterator stands
	// on the first key after mem.
	pc      *postingCache
	gen     uint64
	fill    bool
	inMem   bool
	mem     []cols
	pos     int
	filling bool
	tail    bool
}

// Scan returns the quads matching pat (Any = unbound) in the chosen order.
// Close the iterator when done.
func (v *View) Scan(ctx context.Context, pat Pattern, opts ScanOptions) (*QuadIter, error) {
	if opts.Union && pat.G != Any {
		return nil, errors.New("scan: a union-of-graphs scan cannot bind the graph")
	}
	order := opts.Order
	if order == OrderAuto {
		order = AutoOrder(pat, opts.Union)
	}
	if order < SPOG || order > GOSP {
		return nil, fmt.Errorf("scan: unknown order %d", order)
	}
	if opts.Union && !order.GraphLast() {
		return nil, fmt.Errorf("scan: a union-of-graphs scan needs the graph last, not %s", order)
	}
	// The key prefix is the leading run of bound columns.
	prefix := []byte{orders[order-1].tag}
	for _, pos := range orders[order-1].perm {
		id := IDQuad(pat).at(pos)
		if id == Any {
			break
		}
		prefix = appendID(prefix, id)
	}
	var it kv.Iterator
	var err error
	open := func() { it, err = v.r.NewIter(prefix, kv.PrefixEnd(prefix)) }
	pc, gen := v.postings, v.gen
	if v.live {
		var ok bool
		if gen, ok = pc.readGen(open); !ok {
			pc = nil
		}
	} else {
		open()
	}
	if err != nil {
		return nil, err
	}
	return &QuadIter{ctx: ctx, it: it, order: order, pat: pat, prefix: prefix, bound: prefix, union: opts.Union,
		pc: pc, gen: gen, fill: true}, nil
}

// Reset aims the scan at another pattern, in the same order and mode,
// reusing the underlying iterator: an index nested-loop join re-targets
// one scan per input row this way, which costs a seek instead of opening
// and closing an iterator. pat must keep the IDs of the bound leading
// columns the scan was opened with (it may bind more). The next Next
// returns pat's first quad; seeks to increasing keys are cheapest.
func (q *QuadIter) Reset(pat Pattern) error {
	if q.union && pat.G != Any {
		return errors.New("scan: a union-of-graphs scan cannot bind the graph")
	}
	prefix := append(q.buf[:0], q.bound[0])
	for _, pos := range orders[q.order-1].perm {
		id := IDQuad(pat).at(pos)
		if id == Any {
			break
		}
		prefix = appendID(prefix, id)
	}
	if len(prefix) < len(q.bound) || string(prefix[:len(q.bound)]) != string(q.bound) {
		return fmt.Errorf("scan %s: reset to %v leaves the range the scan was opened on", q.order, pat)
	}
	q.prefix, q.buf, q.pat = prefix, prefix, pat
	q.started, q.hasPrev, q.err = false, false, nil
	q.leaveMem()
	return nil
}

// Order is the order of the results.
func (q *QuadIter) Order() Order { return q.order }

// Next advances to the next matching quad.
func (q *QuadIter) Next() bool {
	if q.err != nil {
		return false
	}
	if q.inMem {
		return q.settleMem(q.pos + 1)
	}
	var ok bool
	switch {
	case q.started:
		ok = q.it.Next()
	case q.cached():
		return q.settleMem(0)
	case q.err != nil:
		return false
	case len(q.prefix) > len(q.bound):
		// Reset narrowed the range: seek to its start.
		q.started = true
		ok = q.it.SeekGE(q.prefix)
	default:
		q.started = true
		ok = q.it.First()
	}
	return q.settle(ok)
}

// SeekGE moves to the first matching quad at or after target in the
// scan's order (only target's columns in that order matter), for
// zig-zag and merge joins. It never moves backwards past the scan range.
func (q *QuadIter) SeekGE(target IDQuad) bool {
	if q.err != nil {
		return false
	}
	if !q.started {
		q.cached()
	}
	q.started = true
	q.hasPrev = false
	if q.err != nil {
		return false
	}
	if q.inMem {
		if i, ok := q.seekMem(permute(q.order, target)); ok {
			return q.settleMem(i)
		}
		if q.err != nil {
			return false
		}
		q.leaveMem()
	}
	key := appendIndexKey(nil, q.order, target)
	if string(key) < string(q.prefix) {
		key = q.prefix
	}
	return q.settle(q.it.SeekGE(key))
}

// settle skips from the current position to the first quad that passes
// the filters (bound columns outside the prefix, union duplicates).
func (q *QuadIter) settle(ok bool) bool {
	for ; ok; ok = q.it.Next() {
		q.n++
		if q.n%1024 == 0 {
			if err := q.ctx.Err(); err != nil {
				q.err = err
				return false
			}
		}
		k := q.it.Key()
		if len(k) != keyWidth {
			q.err = fmt.Errorf("scan %s: malformed key %x", q.order, k)
			return false
		}
		if len(q.prefix) > len(q.bound) && string(k[:len(q.prefix)]) != string(q.prefix) {
			// Past the range of a Reset pattern (the iterator's own
			// bounds are those of the original one).
			return false
		}
		if q.accept(decodeIndexKey(q.order, k)) {
			return true
		}
	}
	q.err = q.it.Err()
	return false
}

// accept makes c the current quad if it passes the filters: the bound
// columns outside the prefix, and in a union scan the graphs of a triple
// already returned.
func (q *QuadIter) accept(c IDQuad) bool {
	if !matches(c, q.pat) {
		return false
	}
	if q.union {
		c.G = Any
		if q.hasPrev && c == q.prev {
			return false
		}
		q.prev, q.hasPrev = c, true
	}
	q.cur = c
	return true
}

func matches(q IDQuad, p Pattern) bool {
	return (p.S == Any || p.S == q.S) && (p.P == Any || p.P == q.P) &&
		(p.O == Any || p.O == q.O) && (p.G == Any || p.G == q.G)
}

// Quad is the current quad.
func (q *QuadIter) Quad() IDQuad { return q.cur }

// Err is the error that ended the iteration, if any (including the
// context's).
func (q *QuadIter) Err() error { return q.err }

// Close releases the iterator.
func (q *QuadIter) Close() error { return q.it.Close() }

// Graphs lists the graphs holding quads, DefaultGraph included when it has
// any, in ID order.
func (v *View) Graphs() ([]ID, error) {
	it, err := v.r.NewIter([]byte{tagStat, 'g'}, []byte{tagStat, 'g' + 1})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out []ID
	for ok := it.First(); ok; ok = it.Next() {
		out = append(out, ID(beUint64(it.Key()[2:])))
	}
	return out, it.Err()
}
