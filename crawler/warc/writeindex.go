package warc

import "path/filepath"

// summarizeRecord takes what the CDXJ needs from a record about to be
// written, or returns nil when its HTTP head is too long to find.
func summarizeRecord(r record) *cdxItem {
	head, err := indexHead(r.header.Get("WARC-Type"), r.block)
	if err != nil {
		return nil
	}
	return summarize(r.header, head)
}

// index1 adds a written record to the current file's index; a record that
// could not be summarised has the file indexed by reading it back.
func (w *Writer) index1(it *cdxItem, loc Location) {
	if it == nil {
		w.idx.reread = true
		return
	}
	it.offset, it.length = loc.Offset, loc.Length
	w.idx.add(it)
}

// indexJob is a chunk of a file's index entries (idx nil), to be written
// as a run, or a finished file and the index entries gathered since its
// last chunk.
type indexJob struct {
	path  string
	idx   *indexer
	runs  *cdxRuns
	pairs [][2]*cdxItem
}

// newIndexer starts the index of the file that will be called name once
// finished; its chunks go to the index goroutine.
func (w *Writer) newIndexer(name string) (*indexer, *cdxRuns) {
	runs := &cdxRuns{path: filepath.Join(w.cfg.Dir, name)}
	return &indexer{chunk: w.indexChunk, spill: func(pairs [][2]*cdxItem) {
		w.index <- indexJob{runs: runs, pairs: pairs}
	}}, runs
}

// indexLoop writes the CDXJ of each finished file, off the writing path,
// and the runs of its chunks as they come.
func (w *Writer) indexLoop() {
	defer w.indexed.Done()
	for job := range w.index {
		r := job.runs
		if job.idx == nil {
			if r.err == nil {
				r.err = r.add(job.pairs, filepath.Base(r.path))
			}
			continue
		}
		err := r.err
		switch {
		case job.idx.reread:
			r.remove()
			err = WriteIndex(job.path)
		case err == nil:
			var lines []string
			if lines, err = job.idx.lines(filepath.Base(job.path)); err == nil {
				err = r.write(lines)
			}
		}
		if err != nil {
			r.remove()
			w.errMu.Lock()
			w.errs = append(w.errs, err)
			w.errMu.Unlock()
		}
	}
}
