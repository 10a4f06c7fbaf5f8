package warc

import (
	"bufio"
	"container/heap"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// defaultIndexChunk is how many index entries of a WARC file are kept in
// memory (some 2 KB each with their strings, so about 16 MB): a file of
// 1 GB holds hundreds of thousands of records, and its index must not
// grow in RAM with the file. Each full chunk is rendered, sorted and
// written to a run file beside the index, and the runs are merged into
// the index when the file is finished.
const defaultIndexChunk = 1 << 13

// runSuffix marks the run files of an index being built; Recover removes
// those a crash left.
const runSuffix = ".run"

// cdxRuns are the sorted run files of one WARC file's index.
type cdxRuns struct {
	path  string // the WARC file, under its final name
	files []string
	err   error // the first failure to write a run
}

// add renders and sorts the lines of pairs and writes them as a run.
func (r *cdxRuns) add(pairs [][2]*cdxItem, file string) error {
	lines, err := renderLines(pairs, file)
	if err != nil {
		return err
	}
	out := IndexPath(r.path)
	f, err := os.CreateTemp(filepath.Dir(out), filepath.Base(out)+runSuffix+"*")
	if err != nil {
		return fmt.Errorf("warc: index run: %w", err)
	}
	r.files = append(r.files, f.Name())
	bw := bufio.NewWriterSize(f, 1<<16)
	for _, l := range lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	err = bw.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("warc: index run %s: %w", f.Name(), err)
	}
	return nil
}

// remove deletes the runs.
func (r *cdxRuns) remove() {
	for _, f := range r.files {
		os.Remove(f)
	}
	r.files = nil
}

// write writes the index of the file: the runs merged with the sorted
// lines still in memory; the runs are removed.
func (r *cdxRuns) write(last []string) error {
	defer r.remove()
	m := &lineMerge{}
	for _, name := range r.files {
		f, err := os.Open(name)
		if err != nil {
			m.close()
			return fmt.Errorf("warc: index run: %w", err)
		}
		m.files = append(m.files, f)
		if err := m.push(&runReader{r: bufio.NewReaderSize(f, 1<<16), name: name}); err != nil {
			m.close()
			return err
		}
	}
	if err := m.push(&runReader{lines: last}); err != nil {
		m.close()
		return err
	}
	defer m.close()
	return writeIndexFrom(r.path, m.next)
}

// runReader yields the lines of a run file, or of a slice.
type runReader struct {
	r     *bufio.Reader
	name  string
	lines []string
	line  string
}

// advance reads the next line; it returns false at the end.
func (rr *runReader) advance() (bool, error) {
	if rr.r == nil {
		if len(rr.lines) == 0 {
			return false, nil
		}
		rr.line, rr.lines = rr.lines[0], rr.lines[1:]
		return true, nil
	}
	l, err := rr.r.ReadString('\n')
	if err == io.EOF && l == "" {
		return false, nil
	}
	if err != nil && err != io.EOF {
		return false, fmt.Errorf("warc: index run %s: %w", rr.name, err)
	}
	rr.line = strings.TrimSuffix(l, "\n")
	return true, nil
}

// lineMerge merges sorted runs: a heap of their current lines.
type lineMerge struct {
	h     runHeap
	files []*os.File
}

func (m *lineMerge) push(rr *runReader) error {
	ok, err := rr.advance()
	if ok {
		heap.Push(&m.h, rr)
	}
	return err
}

// next returns the smallest line left.
func (m *lineMerge) next() (string, bool, error) {
	if len(m.h) == 0 {
		return "", false, nil
	}
	rr := m.h[0]
	line := rr.line
	ok, err := rr.advance()
	if err != nil {
		return "", false, err
	}
	if ok {
		heap.Fix(&m.h, 0)
	} else {
		heap.Pop(&m.h)
	}
	return line, true, nil
}

func (m *lineMerge) close() {
	for _, f := range m.files {
		f.Close()
	}
}

type runHeap []*runReader

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return h[i].line < h[j].line }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// removeRuns deletes the index runs a crash left in dir.
func removeRuns(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("warc: %w", err)
	}
	var errs []error
	for _, e := range entries {
		if strings.Contains(e.Name(), ".cdxj"+runSuffix) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				errs = append(errs, fmt.Errorf("warc: %w", err))
			}
		}
	}
	return errors.Join(errs...)
}
