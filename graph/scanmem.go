package graph

import (
	"bytes"
	"fmt"
	"slices"
)

// fillChunk is how many keys a filling scan reads ahead of its consumer:
// a scan abandoned early (a LIMIT, an estimate) reads little more than
// it returned.
const fillChunk = 1024

// cached starts the scan on the posting cache: on a hit it walks the
// cached keys; on a miss with fill it positions the store's iterator at
// the start of the range and walks the keys as it reads them (filling).
// It reports whether the scan walks memory; an error is left in q.err.
func (q *QuadIter) cached() bool {
	q.started = true
	if q.pc == nil {
		return false
	}
	if p, ok := q.pc.get(q.prefix, q.gen); ok {
		if p.big {
			return false
		}
		q.inMem, q.mem = true, p.keys
		return true
	}
	if !q.fill {
		return false
	}
	if len(q.prefix) > len(q.bound) {
		q.it.SeekGE(q.prefix)
	} else {
		q.it.First()
	}
	q.inMem, q.filling, q.mem = true, true, nil
	return true
}

// leaveMem returns the scan to the store's iterator.
func (q *QuadIter) leaveMem() {
	q.inMem, q.mem, q.filling, q.tail = false, nil, false, false
}

// more reads up to fillChunk keys of a filling scan into mem and reports
// whether it read any. At the end of the range it caches the posting
// list; at maxKeys it stops filling (tail) and caches that the range is
// too big.
func (q *QuadIter) more() bool {
	n := len(q.mem)
	for len(q.mem)-n < fillChunk {
		if !q.it.Valid() {
			if q.err = q.it.Err(); q.err != nil {
				q.filling = false
				return false
			}
			break
		}
		k := q.it.Key()
		if len(k) != keyWidth {
			q.err = fmt.Errorf("scan %s: malformed key %x", q.order, k)
			q.filling = false
			return false
		}
		if !bytes.HasPrefix(k, q.prefix) {
			break // past the range of a Reset pattern
		}
		if len(q.mem) == q.pc.maxKeys {
			q.pc.put(&posting{prefix: string(q.prefix), gen: q.gen, big: true})
			q.filling, q.tail = false, true
			return len(q.mem) > n
		}
		q.mem = append(q.mem, cols{beUint64(k[1:]), beUint64(k[9:]), beUint64(k[17:]), beUint64(k[25:])})
		q.it.Next()
	}
	if len(q.mem)-n == fillChunk {
		return true
	}
	// The end of the range: mem is its posting list.
	q.filling = false
	keys := q.mem
	if cap(keys) > len(keys)+len(keys)/8 {
		keys = slices.Clone(keys)
	}
	q.pc.put(&posting{prefix: string(q.prefix), gen: q.gen, keys: keys})
	return len(q.mem) > n
}

// seekMem returns the index of the first key of mem at or after target,
// reading on while filling; false when the keys in memory end before
// target and the rest of the range is in the store (tail).
func (q *QuadIter) seekMem(target cols) (int, bool) {
	for q.filling && (len(q.mem) == 0 || cmpCols(q.mem[len(q.mem)-1], target) < 0) {
		if !q.more() && q.err != nil {
			return 0, false
		}
	}
	if q.tail && (len(q.mem) == 0 || cmpCols(q.mem[len(q.mem)-1], target) < 0) {
		return 0, false
	}
	i, _ := slices.BinarySearchFunc(q.mem, target, cmpCols)
	return i, true
}

// settleMem is settle on the keys in memory, from index i on, reading
// more while filling; past the head of a range too big to cache, the
// scan goes on in the store.
func (q *QuadIter) settleMem(i int) bool {
	for {
		for ; i < len(q.mem); i++ {
			q.n++
			if q.n%1024 == 0 {
				if err := q.ctx.Err(); err != nil {
					q.err = err
					return false
				}
			}
			if q.accept(unpermute(q.order, q.mem[i])) {
				q.pos = i
				return true
			}
		}
		q.pos = len(q.mem)
		if !q.filling || !q.more() {
			break
		}
	}
	if q.err != nil {
		return false
	}
	if q.tail {
		q.leaveMem()
		return q.settle(q.it.Valid())
	}
	return false
}
