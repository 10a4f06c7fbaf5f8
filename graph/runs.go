package graph

import (
	"bufio"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// A loader sorts its quads in runs of bounded size and writes each run,
// once per ordering, to a run file: the keys as 32-byte records, the four
// IDs in the ordering's column order, big-endian (so bytewise order is key
// order), sorted and without duplicates. Each record is stored as one byte
// saying how many leading bytes it shares with the previous record (low
// five bits) and how many leading columns name no term new to the store
// (high three bits, see oldCols), then the rest: sorted keys share their
// leading columns, so this roughly halves the temporary I/O. Runs are
// merged at commit.

// cols is a quad's IDs in the column order of one ordering.
type cols [4]uint64

func cmpCols(a, b cols) int {
	for i := range a {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

func permute(o Order, q IDQuad) cols {
	switch o {
	case SPOG:
		return cols{uint64(q.S), uint64(q.P), uint64(q.O), uint64(q.G)}
	case POSG:
		return cols{uint64(q.P), uint64(q.O), uint64(q.S), uint64(q.G)}
	case OSPG:
		return cols{uint64(q.O), uint64(q.S), uint64(q.P), uint64(q.G)}
	case GSPO:
		return cols{uint64(q.G), uint64(q.S), uint64(q.P), uint64(q.O)}
	case GPOS:
		return cols{uint64(q.G), uint64(q.P), uint64(q.O), uint64(q.S)}
	}
	return cols{uint64(q.G), uint64(q.O), uint64(q.S), uint64(q.P)}
}

// unpermute is the inverse of permute. Both are spelled out per ordering
// (orders' perm tables say the same): they run once per key of a sort, a
// merge or a cached scan, where a loop over the table cost a third of the
// scan's walk.
func unpermute(o Order, c cols) IDQuad {
	switch o {
	case SPOG:
		return IDQuad{ID(c[0]), ID(c[1]), ID(c[2]), ID(c[3])}
	case POSG:
		return IDQuad{ID(c[2]), ID(c[0]), ID(c[1]), ID(c[3])}
	case OSPG:
		return IDQuad{ID(c[1]), ID(c[2]), ID(c[0]), ID(c[3])}
	case GSPO:
		return IDQuad{ID(c[1]), ID(c[2]), ID(c[3]), ID(c[0])}
	case GPOS:
		return IDQuad{ID(c[3]), ID(c[1]), ID(c[2]), ID(c[0])}
	}
	return IDQuad{ID(c[2]), ID(c[3]), ID(c[1]), ID(c[0])}
}

// sortRun puts quads into ordering o's column order in keys and sorts
// them, using tmp as scratch; both buffers are grown as needed and
// returned for reuse. The first radix pass reads the quads themselves:
// they are put into column order as they are scattered by their first
// byte, not copied first.
func sortRun(o Order, quads []IDQuad, keys, tmp []cols) ([]cols, []cols) {
	n := len(quads)
	if cap(keys) < n {
		keys = make([]cols, n)
	}
	if cap(tmp) < n {
		tmp = make([]cols, n)
	}
	keys, tmp = keys[:n], tmp[:n]
	var count [256]int
	for i := range quads {
		count[byte(permute(o, quads[i])[0]>>56)]++
	}
	if n <= insertionMax || count[byte(permute(o, quads[0])[0]>>56)] == n {
		for i, q := range quads {
			keys[i] = permute(o, q)
		}
		sortCols(keys, tmp)
		return keys, tmp
	}
	var next [256]int
	sum := 0
	for b, c := range count {
		next[b] = sum
		sum += c
	}
	// The keys go to their buckets through a small buffer each, a few
	// keys at a time: stored one by one into 256 places of a buffer much
	// larger than the caches, each store would wait for its line.
	pend := new([256][scatterBatch]cols)
	var fill [256]int
	for _, q := range quads {
		c := permute(o, q)
		b := byte(c[0] >> 56)
		f := fill[b]
		pend[b][f] = c
		if f++; f == scatterBatch {
			*(*[scatterBatch]cols)(tmp[next[b]:]) = pend[b]
			next[b] += scatterBatch
			f = 0
		}
		fill[b] = f
	}
	for b, f := range fill {
		copy(tmp[next[b]:], pend[b][:f])
	}
	s := 0
	for _, c := range count {
		if c > 0 {
			sortWide(tmp[s:s+c], keys[s:s+c])
		}
		s += c
	}
	return keys, tmp
}

// scatterBatch is how many keys sortRun gathers for a bucket before it
// stores them: 256 buckets of 8 keys (64 KiB) stay in cache, and 8 keys
// fill four cache lines (16 measures alike, 4 slower).
const scatterBatch = 8

// sortBuffers keeps the buffers a commit's sorting goroutines used, for
// the next commit of the same loader: each segment's are some 64 bytes a
// quad, which the next one fills again, so reusing them spares the
// allocation, the zeroing and the page faults of fresh memory each
// segment. Memory stays bounded by the segment's size.
type sortBuffers struct {
	mu   sync.Mutex
	free [][2][]cols
}

func (b *sortBuffers) take() (keys, tmp []cols) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n := len(b.free); n > 0 {
		keys, tmp = b.free[n-1][0], b.free[n-1][1]
		b.free = b.free[:n-1]
	}
	return keys, tmp
}

func (b *sortBuffers) give(keys, tmp []cols) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.free = append(b.free, [2][]cols{keys, tmp})
}

// sortedRuns keeps the sorted keys of a commit's added quads in each
// ordering, sorted once for the statistics and the writes.
type sortedRuns struct {
	added []IDQuad
	keys  [len(orders) + 1][]cols // by Order
	tmp   []cols                  // scratch for sorting
	// graphs is 1 when the added quads all share one graph, 2 when they
	// do not, 0 until known.
	graphs int
}

// of returns the added quads sorted in ordering o. When they all share
// one graph (a crawl's commit), a graph-first ordering is the graph-last
// one with the same other columns, its last column moved first: no sort.
func (r *sortedRuns) of(o Order) []cols {
	if r.keys[o] != nil {
		return r.keys[o]
	}
	if last := graphLast[o]; last != OrderAuto && r.oneGraph() {
		src := r.of(last)
		keys := make([]cols, len(src))
		for i, c := range src {
			keys[i] = cols{c[3], c[0], c[1], c[2]}
		}
		r.keys[o] = keys
		return keys
	}
	r.keys[o], r.tmp = sortRun(o, r.added, make([]cols, 0, len(r.added)), r.tmp)
	return r.keys[o]
}

// graphLast maps each graph-first ordering to the graph-last ordering of
// its other three columns.
var graphLast = [len(orders) + 1]Order{GSPO: SPOG, GPOS: POSG, GOSP: OSPG}

func (r *sortedRuns) oneGraph() bool {
	if r.graphs == 0 {
		r.graphs = 1
		for _, q := range r.added {
			if q.G != r.added[0].G {
				r.graphs = 2
				break
			}
		}
	}
	return r.graphs == 1
}

// oldCols is how many leading columns of c name terms that isNew does not
// know as new to the store (4 when none is new, or isNew is nil): a key
// prefix of more columns names a new term, so the store cannot hold it.
// The columns before from are known not to be new.
func oldCols(c cols, isNew func(ID) bool, from int) int {
	if isNew == nil {
		return len(c)
	}
	for i := from; i < len(c); i++ {
		if isNew(ID(c[i])) {
			return i
		}
	}
	return len(c)
}

// oldMemo is oldCols for keys given in ascending order: the columns a key
// shares with the one before have the same answers, so that only the
// others are looked up (sorted keys share their leading columns).
type oldMemo struct {
	prev cols
	old  int
	have bool
}

func (m *oldMemo) of(c cols, isNew func(ID) bool) int {
	if isNew == nil {
		return len(c)
	}
	i := 0
	if m.have {
		for i < len(c) && c[i] == m.prev[i] {
			i++
		}
		if i > m.old { // the shared columns include the first new one
			m.prev = c
			return m.old
		}
	}
	// The shared columns, before prev's first new one, are not new.
	m.prev, m.old, m.have = c, oldCols(c, isNew, i), true
	return m.old
}

// writeRun writes sorted keys to path, without duplicates, each with its
// oldCols under isNew.
func writeRun(path string, keys []cols, isNew func(ID) bool) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var rec, prev [32]byte
	var m oldMemo
	for i, c := range keys {
		if i > 0 && c == keys[i-1] {
			continue
		}
		for j, v := range c {
			binary.BigEndian.PutUint64(rec[8*j:], v)
		}
		shared := 0
		if i > 0 {
			for shared < len(rec)-1 && rec[shared] == prev[shared] {
				shared++
			}
		}
		_ = w.WriteByte(byte(shared | m.of(c, isNew)<<5))
		if _, err := w.Write(rec[shared:]); err != nil {
			_ = f.Close()
			return err
		}
		prev = rec
	}
	return errors.Join(w.Flush(), f.Close())
}

// runSource is one sorted input of a merge: a run file, or sorted keys
// still in memory (with the set of their terms new to the store).
type runSource struct {
	f     *os.File
	r     *bufio.Reader
	mem   []cols
	isNew func(ID) bool
	memo  oldMemo
	rec   [32]byte // the previous record, whose prefix the next one shares
	cur   cols
	old   int // oldCols of cur
}

func (r *runSource) next() (bool, error) {
	if r.f == nil {
		if len(r.mem) == 0 {
			return false, nil
		}
		r.cur, r.mem = r.mem[0], r.mem[1:]
		r.old = r.memo.of(r.cur, r.isNew)
		return true, nil
	}
	head, err := r.r.ReadByte()
	if errors.Is(err, io.EOF) {
		return false, nil
	}
	shared := head & 31
	if r.old = int(head >> 5); err == nil && r.old > len(r.cur) {
		err = fmt.Errorf("run file %s: bad record header %d", r.f.Name(), head)
	}
	if err == nil {
		_, err = io.ReadFull(r.r, r.rec[shared:])
	}
	if err != nil {
		return false, err
	}
	for j := range r.cur {
		r.cur[j] = binary.BigEndian.Uint64(r.rec[8*j:])
	}
	return true, nil
}

func (r *runSource) close() {
	if r.f != nil {
		_ = r.f.Close()
	}
}

type runHeap []*runSource

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return cmpCols(h[i].cur, h[j].cur) < 0 }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*runSource)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// mergeRuns calls fn with every distinct key of the run files and of the
// sorted in-memory keys (whose new terms memNew tells), in order, with its
// oldCols: the least of its copies'.
func mergeRuns(paths []string, mem []cols, memNew func(ID) bool, fn func(c cols, old int) error) error {
	if len(paths) == 0 { // a segment held in memory whole: nothing to merge
		var m oldMemo
		for i, c := range mem {
			if i > 0 && c == mem[i-1] {
				continue
			}
			if err := fn(c, m.of(c, memNew)); err != nil {
				return err
			}
		}
		return nil
	}
	h := runHeap{}
	defer func() {
		for _, r := range h {
			r.close()
		}
	}()
	sources := []*runSource{{mem: mem, isNew: memNew}}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		sources = append(sources, &runSource{f: f, r: bufio.NewReaderSize(f, 256<<10)})
	}
	for i, r := range sources {
		ok, err := r.next()
		if err != nil || !ok {
			r.close()
			if err != nil {
				for _, rest := range sources[i+1:] {
					rest.close()
				}
				return err
			}
			continue
		}
		h = append(h, r)
	}
	heap.Init(&h)
	// A key is passed on once its last copy has been seen.
	var last cols
	lastOld, have := 0, false
	for len(h) > 0 {
		r := h[0]
		switch {
		case have && r.cur == last:
			lastOld = min(lastOld, r.old)
		default:
			if have {
				if err := fn(last, lastOld); err != nil {
					return err
				}
			}
			last, lastOld, have = r.cur, r.old, true
		}
		ok, err := r.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			r.close()
			heap.Pop(&h)
		}
	}
	if have {
		return fn(last, lastOld)
	}
	return nil
}
