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

// indexJob is a finished file and the index entries gathered while writing it.
type indexJob struct {
	path string
	idx  *indexer
}

// indexLoop writes the CDXJ of each finished file, off the writing path.
func (w *Writer) indexLoop() {
	defer w.indexed.Done()
	for job := range w.index {
		var err error
		if job.idx.reread {
			err = WriteIndex(job.path)
		} else {
			var lines []string
			if lines, err = job.idx.lines(filepath.Base(job.path)); err == nil {
				err = writeIndexLines(job.path, lines)
			}
		}
		if err != nil {
			w.errMu.Lock()
			w.errs = append(w.errs, err)
			w.errMu.Unlock()
		}
	}
}
