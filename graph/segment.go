package graph

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/mneme-archive/mneme/graph/kv"
)

// keysPerFile caps the keys of one ingested file, so that later
// compactions work on pieces of reasonable size.
const keysPerFile = 4 << 20

// commitSegment merges the runs of the segment under way, and the quads
// of last (a run not written out), into sorted files, one set per
// ordering, computes how the statistics change, and ingests indexes and
// statistics in one atomic step. With withTerms, terms are the frozen
// terms that got their IDs while last was filled: they are written as a
// sorted file while the orderings are merged, and ingested before them.
func (l *Loader) commitSegment(last []IDQuad, terms []dictEntry, withTerms bool) error {
	l.fmu.Lock()
	runs := l.segRuns
	l.segRuns, l.segQuads = nil, 0
	l.fmu.Unlock()
	var lastNew func(ID) bool
	var dict chan error
	var dictPath string
	if withTerms {
		lastNew = freshSet(terms).has
		dict = make(chan error, 1)
		go func() {
			var err error
			dictPath, err = l.termFile(terms)
			dict <- err
		}()
	}
	// ingestDict ingests the terms, if any, before anything naming them.
	ingestDict := func() error {
		if dict == nil {
			return nil
		}
		err := <-dict
		dict = nil
		if err == nil {
			err = l.ingestTerms(dictPath, len(terms))
		}
		if err != nil && dictPath != "" {
			_ = os.Remove(dictPath)
		}
		return err
	}
	defer func() { // a failed commit still waits for the writer, and drops its file
		if dict != nil && <-dict == nil && dictPath != "" {
			_ = os.Remove(dictPath)
		}
	}()
	if len(runs) == 0 && len(last) == 0 {
		return ingestDict()
	}
	defer func() {
		for _, r := range runs {
			for _, p := range r {
				_ = os.Remove(p)
			}
		}
	}()
	cur, err := readStats(l.s.kv)
	if err != nil {
		return err
	}
	fresh := cur.Quads == 0
	var (
		mu    sync.Mutex
		files []string
		errs  []error
		spog  = newStatDelta()
		posg  = newStatDelta()
	)
	// Each graph-last ordering is sorted, and its graph-first twin
	// (graphLast) taken from it by the graph alone when the segment names
	// few graphs (byGraph), instead of sorted anew.
	first := [len(orders) + 1]Order{}
	for g, l := range graphLast {
		if l != OrderAuto {
			first[l] = Order(g)
		}
	}
	work := make(chan Order)
	var wg sync.WaitGroup
	// One goroutine for each of the three pairs of orderings, which sorts
	// the pair's graph-last ordering and merges the two (the twin by a
	// goroutine of its own, the statistics orderings in halves: see
	// mergeSplit), so that they end together however many cores there are.
	for range len(orders) / 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			keys, tmp := l.sortBufs.take()
			defer func() { l.sortBufs.give(keys, tmp) }()
			merge := func(o Order, mem []cols) {
				var paths []string
				for _, r := range runs {
					paths = append(paths, r[o-1])
				}
				var d *statDelta
				switch o {
				case SPOG:
					d = spog
				case POSG:
					d = posg
				}
				var memNew func(ID) bool
				if d != nil {
					memNew = lastNew
				}
				out, err := l.mergeSplit(o, paths, mem, memNew, d, fresh)
				mu.Lock()
				files = append(files, out...)
				if err != nil {
					errs = append(errs, fmt.Errorf("load: merge %s: %w", o, err))
				}
				mu.Unlock()
			}
			for o := range work {
				keys, tmp = sortRun(o, last, keys, tmp)
				g := first[o]
				if byGraph(keys, tmp[:len(keys)]) {
					// The twins are merged at once, so that six
					// merges share the cores, not three pairs whose
					// uneven ends leave a core idle.
					twin := make(chan struct{})
					go func() {
						defer close(twin)
						merge(g, tmp[:len(keys)])
					}()
					merge(o, keys)
					<-twin
				} else {
					merge(o, keys)
					keys, tmp = sortRun(g, last, keys, tmp)
					merge(g, keys)
				}
			}
		}()
	}
	for _, o := range Orders() {
		if o.GraphLast() {
			work <- o
		}
	}
	close(work)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, f := range files {
			_ = os.Remove(f)
		}
		return err
	}
	for p, c := range posg.preds {
		spog.pred(p)[3] += c[3]
	}
	statsFile, err := l.writeStats(spog)
	if err != nil {
		return err
	}
	files = append(files, statsFile)
	if err := ingestDict(); err != nil {
		return err
	}
	if err := l.s.kv.Ingest(l.ctx, files); err != nil {
		return fmt.Errorf("load: ingest: %w", err)
	}
	l.added.Add(uint64(spog.quads))
	return nil
}

// maxByGraph is how many graphs byGraph orders keys by; more, and they
// are sorted.
const maxByGraph = 64

// byGraph puts keys sorted in a graph-last ordering into dst in the order
// of its graph-first twin (the graph column moved first), by the graph
// alone: the keys of each graph keep their order. It reports false, and
// leaves dst undefined, when the keys name more than maxByGraph graphs.
func byGraph(keys, dst []cols) bool {
	var graphs []uint64
	var counts []int
	// idx finds the graph's index, the last one found first: keys of one
	// graph come in long stretches.
	last := -1
	idx := func(g uint64) int {
		if last >= 0 && graphs[last] == g {
			return last
		}
		last = slices.Index(graphs, g)
		return last
	}
	for _, c := range keys {
		i := idx(c[3])
		if i < 0 {
			if len(graphs) == maxByGraph {
				return false
			}
			graphs, counts = append(graphs, c[3]), append(counts, 0)
			i = len(graphs) - 1
			last = i
		}
		counts[i]++
	}
	start := make([]int, len(graphs))
	for i, g := range graphs {
		for j, h := range graphs {
			if h < g {
				start[i] += counts[j]
			}
		}
	}
	for _, c := range keys {
		i := idx(c[3])
		dst[start[i]] = cols{c[3], c[0], c[1], c[2]}
		start[i]++
	}
	return true
}

// splitMergeKeys is how many keys an ordering that counts statistics
// must have, held in memory whole, for mergeSplit to merge its halves at
// once.
var splitMergeKeys = 1 << 15

// mergeSplit is mergeOrder, except that the keys of an ordering that
// counts statistics (d not nil), when the segment is held in memory whole
// (no run files) and large, are merged in two halves at once, each into
// files of its own and a statDelta added to d: those merges are the
// longest of a commit, and the others end long before them. The halves
// part where the first two columns change, so that no key of the second
// repeats the subject and predicate (SPOG) or the predicate and object
// (POSG) of the last key of the first, which is what countNew compares.
func (l *Loader) mergeSplit(o Order, runs []string, mem []cols, memNew func(ID) bool, d *statDelta, fresh bool) ([]string, error) {
	if d == nil || len(runs) > 0 || len(mem) < splitMergeKeys {
		return l.mergeOrder(o, runs, mem, memNew, d, fresh)
	}
	mid := len(mem) / 2
	for mid < len(mem) && mem[mid][0] == mem[mid-1][0] && mem[mid][1] == mem[mid-1][1] {
		mid++
	}
	if mid == len(mem) {
		return l.mergeOrder(o, runs, mem, memNew, d, fresh)
	}
	d2 := newStatDelta()
	var files2 []string
	var err2 error
	done := make(chan struct{})
	go func() {
		defer close(done)
		files2, err2 = l.mergeOrder(o, nil, mem[mid:], memNew, d2, fresh)
	}()
	files, err := l.mergeOrder(o, nil, mem[:mid], memNew, d, fresh)
	<-done
	d.add(d2)
	return append(files, files2...), errors.Join(err, err2)
}

// mergeOrder merges the run files of ordering o into sorted files. For
// SPOG and POSG it also counts into d what the new quads add to the
// statistics; unless the store was empty (fresh), a quad or prefix is new
// only if the store does not hold it yet, which is read unless the prefix
// names a term new to the store (memNew tells those of mem; run files
// carry the count of leading columns that name none).
func (l *Loader) mergeOrder(o Order, runs []string, mem []cols, memNew func(ID) bool, d *statDelta, fresh bool) (files []string, err error) {
	var f kv.SortedFile
	n := 0
	finish := func() error {
		if f == nil {
			return nil
		}
		err := f.Finish()
		f = nil
		return err
	}
	defer func() {
		if f != nil {
			f.Abort()
		}
	}()
	var st *storeProbe
	if d != nil && !fresh {
		if st, err = l.newStoreProbe(o); err != nil {
			return nil, err
		}
		defer st.close()
	}
	var lastNew IDQuad
	haveNew := false
	var key [keyWidth]byte
	err = mergeRuns(runs, mem, memNew, func(c cols, old int) error {
		if f == nil || n == keysPerFile {
			if err := finish(); err != nil {
				return err
			}
			path := l.nextFile("sst-" + o.String())
			var err error
			// Index keys are read by range; only the spog quad
			// existence check of batches is a point read.
			if f, err = l.s.kv.NewSortedFile(path, kv.FileOptions{RangeReadsOnly: o != SPOG}); err != nil {
				return err
			}
			files = append(files, path)
			n = 0
		}
		putIndexKey(&key, o, c)
		if err := f.Add(key[:], nil); err != nil {
			return err
		}
		n++
		if d == nil {
			return nil
		}
		q := unpermute(o, c)
		var err error
		if haveNew, lastNew, err = countNew(d, o, q, lastNew, haveNew, st, key[:], old); err != nil {
			return err
		}
		if n%4096 == 0 {
			return l.ctx.Err()
		}
		return nil
	})
	if err == nil {
		err = finish()
	}
	return files, err
}

// putIndexKey writes into k the key of the quad whose IDs are c, in
// ordering o's column order: word stores, not byte appends, for each key
// of a merge.
func putIndexKey(k *[keyWidth]byte, o Order, c cols) {
	k[0] = orders[o-1].tag
	binary.BigEndian.PutUint64(k[1:], c[0])
	binary.BigEndian.PutUint64(k[9:], c[1])
	binary.BigEndian.PutUint64(k[17:], c[2])
	binary.BigEndian.PutUint64(k[25:], c[3])
}

// countNew adds quad q (merged in order o) to the statistics if it is new;
// lastNew is the previous new quad, if haveNew. Only prefixes of at most
// old columns (the others name a term new to the store) are looked up in
// the store, and none past a shorter one the store lacks.
func countNew(d *statDelta, o Order, q, lastNew IDQuad, haveNew bool, st *storeProbe, key []byte, old int) (bool, IDQuad, error) {
	sameSPO := haveNew && lastNew.S == q.S && lastNew.P == q.P && lastNew.O == q.O
	sameSP := haveNew && lastNew.S == q.S && lastNew.P == q.P
	samePO := haveNew && lastNew.P == q.P && lastNew.O == q.O
	if st != nil {
		// Prefixes first, then the key: the probe's seeks only go forward.
		// in2: (s p) in spog, (p o) in posg; in3: (s p o) in spog.
		var in2, in3, in4 bool
		var err error
		if old >= 2 {
			in2, err = st.has(key[:1+16])
		}
		if err == nil && o == SPOG && in2 && old >= 3 {
			in3, err = st.has(key[:1+24])
		}
		if err == nil && (in3 || o == POSG && in2) && old >= 4 {
			in4, err = st.has(key)
		}
		if err != nil {
			return haveNew, lastNew, err
		}
		if in4 {
			return haveNew, lastNew, nil
		}
		sameSP = sameSP || o == SPOG && in2
		sameSPO = sameSPO || in3
		samePO = samePO || o == POSG && in2
	}
	c := d.pred(q.P)
	if o == POSG {
		if !samePO {
			c[3]++
		}
		return true, q, nil
	}
	d.quads++
	d.graphs[q.G]++
	c[0]++
	if !sameSPO {
		d.triples++
		c[1]++
	}
	if !sameSP {
		c[2]++
	}
	return true, q, nil
}

// storeProbe answers "does the store hold a key with this prefix?" for
// the prefixes of keys given in ascending order, with forward seeks on one
// iterator. It remembers the last answer for each prefix length, so that
// the keys sharing a prefix read it once, and the prefixes it does read
// ascend: a seek is needed only when the target passes the key the
// iterator rests on (the first key at or after the previous target).
type storeProbe struct {
	it     kv.Iterator
	known  *knownPrefixes // two-column prefixes found before, nil if none kept
	placed bool           // the iterator rests on the first key at or after last
	ended  bool           // no key at or after last
	last   []byte
	memo   [keyWidth + 1]struct {
		prefix []byte
		has    bool
	}
}

// newStoreProbe returns a probe of ordering o's keys in the store, which
// answers the two-column prefixes the loader found before without a seek.
func (l *Loader) newStoreProbe(o Order) (*storeProbe, error) {
	tag := orders[o-1].tag
	it, err := l.s.kv.NewIter([]byte{tag}, []byte{tag + 1})
	if err != nil {
		return nil, err
	}
	return &storeProbe{it: it, known: l.prefixes[o-1]}, nil
}

func (p *storeProbe) has(prefix []byte) (bool, error) {
	m := &p.memo[len(prefix)]
	if m.prefix != nil && bytes.Equal(m.prefix, prefix) {
		return m.has, nil
	}
	pair := p.known != nil && len(prefix) == 1+16
	var a, b ID
	if pair {
		a, b = ID(binary.BigEndian.Uint64(prefix[1:])), ID(binary.BigEndian.Uint64(prefix[9:]))
		if p.known.has(a, b) {
			return true, nil
		}
	}
	has, err := p.find(prefix)
	if err != nil {
		return false, err
	}
	if has && pair {
		p.known.add(a, b)
	}
	m.prefix, m.has = append(m.prefix[:0], prefix...), has
	return has, nil
}

func (p *storeProbe) find(prefix []byte) (bool, error) {
	ahead := p.last != nil && bytes.Compare(prefix, p.last) >= 0
	switch {
	case ahead && p.ended:
		return false, nil
	case ahead && p.placed && bytes.Compare(p.it.Key(), prefix) >= 0:
		// The iterator's key is the first at or after prefix too.
	default:
		p.placed = p.it.SeekGE(prefix)
		if err := p.it.Err(); err != nil {
			p.placed, p.last = false, nil
			return false, err
		}
		p.ended = !p.placed
	}
	p.last = append(p.last[:0], prefix...)
	return p.placed && bytes.HasPrefix(p.it.Key(), prefix), nil
}

func (p *storeProbe) close() { _ = p.it.Close() }

// writeStats writes the statistics after the segment as a sorted file.
func (l *Loader) writeStats(d *statDelta) (string, error) {
	writes, err := d.apply(l.s.kv)
	if err != nil {
		return "", err
	}
	path := l.nextFile("sst-stats")
	f, err := l.s.kv.NewSortedFile(path, kv.FileOptions{})
	if err != nil {
		return "", err
	}
	for _, w := range writes {
		if w.val == nil {
			continue // a load only adds: no count drops to zero
		}
		if err := f.Add(w.key, w.val); err != nil {
			f.Abort()
			return "", err
		}
	}
	return path, f.Finish()
}
