package frontier

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// tableWriter writes sorted keys to tables in the frontier's directory,
// for ingestion; it starts a new table every runTableSize bytes when split
// is set.
type tableWriter struct {
	f     *Frontier
	name  string
	split bool
	opts  sstable.WriterOptions
	w     *sstable.Writer
	paths []string
	size  int
}

func (f *Frontier) newTableWriter(name string, split bool) *tableWriter {
	return &tableWriter{f: f, name: name, split: split, opts: f.po.MakeWriterOptions(6, f.db.TableFormat())}
}

func (t *tableWriter) set(key, value []byte) error {
	if t.w != nil && t.split && t.size >= runTableSize {
		if err := t.w.Close(); err != nil {
			return err
		}
		t.w = nil
	}
	if t.w == nil {
		path := filepath.Join(t.f.dir, fmt.Sprintf("frontier-%s-%d.sst", t.name, len(t.paths)))
		file, err := vfs.Default.Create(path, vfs.WriteCategoryUnspecified)
		if err != nil {
			return err
		}
		t.w = sstable.NewWriter(newBufferedWritable(file), t.opts)
		t.paths = append(t.paths, path)
		t.size = 0
	}
	t.size += len(key) + len(value)
	return t.w.Set(key, value)
}

// finish closes the last table and returns the paths of all.
func (t *tableWriter) finish() ([]string, error) {
	if t.w != nil {
		if err := t.w.Close(); err != nil {
			return nil, err
		}
		t.w = nil
	}
	return t.paths, nil
}

// abort closes and removes what was written.
func (t *tableWriter) abort() {
	if t.w != nil {
		t.w.Close()
	}
	removeFiles(t.paths)
}

// ingest ingests the tables at paths in one atomic step and removes the
// files that Pebble did not take over.
func (f *Frontier) ingest(paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	if err := f.db.Ingest(context.Background(), paths); err != nil {
		removeFiles(paths)
		return fmt.Errorf("ingest: %w", err)
	}
	// Pebble moves the files into the database when it can, else links or
	// copies them.
	return removeFiles(paths)
}

func removeFiles(paths []string) error {
	var first error
	for _, p := range paths {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) && first == nil {
			first = err
		}
	}
	return first
}

// tableBuffer is the write buffer of a table being written for ingestion.
// Pebble's own file writer buffers 4 KiB, one write system call per data
// block, which made the system calls a large part of writing a pass's
// tables.
const tableBuffer = 256 << 10

// bufferedWritable is a table file written through a large buffer and
// synced when finished (what Pebble's file writer does, with a larger
// buffer).
type bufferedWritable struct {
	file vfs.File
	bw   *bufio.Writer
}

func newBufferedWritable(file vfs.File) *bufferedWritable {
	return &bufferedWritable{file: file, bw: bufio.NewWriterSize(file, tableBuffer)}
}

func (w *bufferedWritable) Write(p []byte) error {
	_, err := w.bw.Write(p)
	return err
}

func (w *bufferedWritable) Finish() error {
	err := w.bw.Flush()
	if err == nil {
		err = w.file.Sync()
	}
	if cerr := w.file.Close(); err == nil {
		err = cerr
	}
	return err
}

func (w *bufferedWritable) Abort() { w.file.Close() }
