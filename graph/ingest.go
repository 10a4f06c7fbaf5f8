package graph

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

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

// ingest writes a commit that only adds quads as three sorted files with
// disjoint key ranges, ingested atomically: the spog keys (with a filter
// for the writers' point reads of whole quads), the five other orderings
// (read by range only, so no filter), and the new dictionary entries with
// the statistics (point reads of dictionary slots).
func (s *Store) ingest(pending *pendingTerms, runs *sortedRuns, stats []statWrite) (err error) {
	tmp, err := os.MkdirTemp(s.dir, loadTmpPrefix)
	if err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	defer func() { err = errors.Join(err, os.RemoveAll(tmp)) }()
	var paths []string
	file := func(name string, o kv.FileOptions, fill func(f kv.SortedFile) error) error {
		path := tmp + "/" + name
		f, err := s.kv.NewSortedFile(path, o)
		if err != nil {
			return err
		}
		if err := fill(f); err != nil {
			f.Abort()
			return err
		}
		paths = append(paths, path)
		return f.Finish()
	}
	key := make([]byte, 0, keyWidth)
	orderings := func(ords ...Order) func(kv.SortedFile) error {
		return func(f kv.SortedFile) error {
			for _, o := range ords {
				tag := orders[o-1].tag
				for _, c := range runs.of(o) {
					if err := f.Add(appendCols(append(key[:0], tag), c), nil); err != nil {
						return err
					}
				}
			}
			return nil
		}
	}
	terms := func(f kv.SortedFile) error {
		ids := make([]ID, 0, len(pending.byID))
		for id := range pending.byID {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			if err := f.Add(appendDictKey(key[:0], id), []byte(pending.byID[id])); err != nil {
				return err
			}
		}
		for _, w := range stats {
			if err := f.Add(w.key, w.val); err != nil {
				return err
			}
		}
		return nil
	}
	if err := file("spog", kv.FileOptions{}, orderings(SPOG)); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	if err := file("others", kv.FileOptions{RangeReadsOnly: true}, orderings(POSG, OSPG, GSPO, GPOS, GOSP)); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	if err := file("terms", kv.FileOptions{}, terms); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	if err := s.kv.Ingest(context.Background(), paths); err != nil {
		return fmt.Errorf("commit: ingest: %w", err)
	}
	return nil
}
