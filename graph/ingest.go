package graph

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/mneme-archive/mneme/graph/kv"
)

// ingestMinQuads is the fewest quads a commit writes as sorted files
// rather than through the backend's batch. A fast crawl commits some
// 200,000 quads at a time, six index keys each: inserting them one by one
// into Pebble's memtable (a skiplist) and its log, then flushing the
// memtable into a table, costs about three times writing the same keys,
// already sorted, straight into tables that are ingested in one atomic
// step. But each ingest adds a sublevel to the first level, as each
// memtable flush does (a memtable holds some 125,000 quads), and makes
// Pebble flush the memtable early when they overlap; past 16 sublevels
// compactions begin, and with random index keys each rewrites everything
// below it. So commits smaller than half a memtable keep to the batch.
const ingestMinQuads = 1 << 16

// addsOnly reports whether the statistics writes only set values, as a
// commit that only adds quads makes them.
func addsOnly(stats []statWrite) bool {
	for _, w := range stats {
		if w.val == nil {
			return false
		}
	}
	return true
}

// ingest writes a commit that only adds quads as sorted files with
// disjoint key ranges, ingested atomically: one per index ordering (spog
// with a filter for the writers' point reads of whole quads, the five
// others read by range only, so without) and one of the new dictionary
// entries with the statistics (point reads of dictionary slots). The
// files are written at once, one goroutine each: the same work, but a
// commit's wall time (the end of a crawl waits for its last) shrinks
// with the cores free.
func (s *Store) ingest(pending *pendingTerms, runs *sortedRuns, stats []statWrite) (err error) {
	tmp, err := os.MkdirTemp(s.dir, loadTmpPrefix)
	if err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	defer func() { err = errors.Join(err, os.RemoveAll(tmp)) }()
	type sortedFile struct {
		name string
		o    kv.FileOptions
		fill func(f kv.SortedFile, key []byte) error
	}
	var files []sortedFile
	for _, o := range Orders() {
		// Sorted here: runs sorts with one scratch buffer.
		tag, keys := orders[o-1].tag, runs.of(o)
		files = append(files, sortedFile{o.String(), kv.FileOptions{RangeReadsOnly: o != SPOG}, func(f kv.SortedFile, key []byte) error {
			for _, c := range keys {
				if err := f.Add(appendCols(append(key[:0], tag), c), nil); err != nil {
					return err
				}
			}
			return nil
		}})
	}
	files = append(files, sortedFile{"terms", kv.FileOptions{}, func(f kv.SortedFile, key []byte) error {
		for _, id := range pending.ids() {
			enc, _ := pending.get(id)
			if err := f.Add(appendDictKey(key[:0], id), enc); err != nil {
				return err
			}
		}
		for _, w := range stats {
			if err := f.Add(w.key, w.val); err != nil {
				return err
			}
		}
		// The value index keys ('v') sort after the statistics ('s').
		for _, e := range valueEntries(pending) {
			if err := f.Add(e.appendKey(key[:0]), nil); err != nil {
				return err
			}
		}
		return nil
	}})
	paths := make([]string, len(files))
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, file := range files {
		paths[i] = tmp + "/" + file.name
		wg.Go(func() {
			f, err := s.kv.NewSortedFile(paths[i], file.o)
			if err != nil {
				errs[i] = fmt.Errorf("%s: %w", file.name, err)
				return
			}
			if err := file.fill(f, make([]byte, 0, keyWidth)); err != nil {
				f.Abort()
				errs[i] = fmt.Errorf("%s: %w", file.name, err)
				return
			}
			if err := f.Finish(); err != nil {
				errs[i] = fmt.Errorf("%s: %w", file.name, err)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	if err := s.kv.Ingest(context.Background(), paths); err != nil {
		return fmt.Errorf("commit: ingest: %w", err)
	}
	return nil
}
