package graph

import (
	"bufio"
	"container/heap"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"slices"
)

// A loader sorts its quads in runs of bounded size and writes each run,
// once per ordering, to a run file: fixed 32-byte records, the four IDs in
// the ordering's column order, big-endian (so bytewise order is key
// order), sorted and without duplicates. Runs are merged at commit.

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
	var c cols
	for i, pos := range orders[o-1].perm {
		c[i] = uint64(q.at(pos))
	}
	return c
}

func unpermute(o Order, c cols) IDQuad {
	var q IDQuad
	for i, pos := range orders[o-1].perm {
		q.set(pos, ID(c[i]))
	}
	return q
}

// writeRun sorts quads in ordering o (using scratch) and writes them to
// path without duplicates.
func writeRun(path string, o Order, quads []IDQuad, scratch []cols) ([]cols, error) {
	scratch = scratch[:0]
	for _, q := range quads {
		scratch = append(scratch, permute(o, q))
	}
	slices.SortFunc(scratch, cmpCols)
	f, err := os.Create(path)
	if err != nil {
		return scratch, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var rec [32]byte
	for i, c := range scratch {
		if i > 0 && c == scratch[i-1] {
			continue
		}
		for j, v := range c {
			binary.BigEndian.PutUint64(rec[8*j:], v)
		}
		if _, err := w.Write(rec[:]); err != nil {
			_ = f.Close()
			return scratch, err
		}
	}
	return scratch, errors.Join(w.Flush(), f.Close())
}

// runReader reads one run file.
type runReader struct {
	f   *os.File
	r   *bufio.Reader
	cur cols
}

func (r *runReader) next() (bool, error) {
	var rec [32]byte
	if _, err := io.ReadFull(r.r, rec[:]); err != nil {
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		return false, err
	}
	for j := range r.cur {
		r.cur[j] = binary.BigEndian.Uint64(rec[8*j:])
	}
	return true, nil
}

type runHeap []*runReader

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return cmpCols(h[i].cur, h[j].cur) < 0 }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// mergeRuns calls fn with every distinct record of the run files, in
// order.
func mergeRuns(paths []string, fn func(cols) error) error {
	h := runHeap{}
	defer func() {
		for _, r := range h {
			_ = r.f.Close()
		}
	}()
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		r := &runReader{f: f, r: bufio.NewReaderSize(f, 256<<10)}
		ok, err := r.next()
		if err != nil || !ok {
			_ = f.Close()
			if err != nil {
				return err
			}
			continue
		}
		h = append(h, r)
	}
	heap.Init(&h)
	var last cols
	first := true
	for len(h) > 0 {
		r := h[0]
		if first || r.cur != last {
			if err := fn(r.cur); err != nil {
				return err
			}
			last, first = r.cur, false
		}
		ok, err := r.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			_ = r.f.Close()
			heap.Pop(&h)
		}
	}
	return nil
}
