// Package kv is the ordered key-value interface the quad store sits on.
//
// It is deliberately small — point reads, ordered range iteration,
// snapshots, atomic batches and ingestion of sorted files — so that a
// second backend (a distributed transactional KV engine) can implement it
// without the store changing. Keys are compared bytewise. Backends live in
// sub-packages (pebblekv) and no backend type appears in this interface.
package kv

import (
	"context"
	"errors"
)

// ErrNotFound is returned by Get when the key is absent.
var ErrNotFound = errors.New("kv: key not found")

// ErrReadOnly is returned by writes on a store opened read-only.
var ErrReadOnly = errors.New("kv: store is read-only")

// Reader reads a consistent or live view of the keys.
type Reader interface {
	// Get returns a copy of the value of key, or ErrNotFound.
	Get(key []byte) ([]byte, error)
	// NewIter iterates over the keys k with lower <= k < upper in
	// ascending order; a nil bound is open.
	NewIter(lower, upper []byte) (Iterator, error)
}

// Iterator walks keys in ascending order. Key and Value are valid only
// until the next positioning call; copy them to keep them.
type Iterator interface {
	// First positions at the smallest key of the range.
	First() bool
	// SeekGE positions at the smallest key >= key. Seeks with increasing
	// keys are cheap: backends may step forward instead of searching.
	SeekGE(key []byte) bool
	// Next advances; it returns false at the end of the range.
	Next() bool
	Valid() bool
	Key() []byte
	Value() []byte
	// Err reports an I/O or corruption error that ended the iteration.
	Err() error
	Close() error
}

// Snapshot is a frozen view of the store at one moment; writes committed
// after it was taken are not visible through it.
type Snapshot interface {
	Reader
	Close() error
}

// Batch collects writes that Commit applies atomically and durably: after
// a crash either all of them are visible or none.
type Batch interface {
	// Set and Delete copy their arguments.
	Set(key, value []byte)
	Delete(key []byte)
	// Len is the number of operations recorded.
	Len() int
	Commit() error
	// Close releases the batch; it does not commit.
	Close()
}

// SortedFile writes keys in strictly ascending order into a file that
// Ingest can add to the store; this is how bulk loads avoid one write per
// key. One goroutine writes a file, but several files may be written at
// once.
type SortedFile interface {
	Add(key, value []byte) error
	// Finish completes and syncs the file.
	Finish() error
	// Abort stops writing and removes the file.
	Abort()
}

// FileOptions are hints for a sorted file.
type FileOptions struct {
	// RangeReadsOnly says the keys will be read by range scans, never by
	// point lookups, so the backend may leave out point-lookup filters.
	RangeReadsOnly bool
}

// Prober looks up single keys that are most likely absent (free
// dictionary slots) in the store as it was when the prober was made: the
// backend may consult a point-lookup filter of every table that could hold
// a key before reading any block, and keep its tables open from one lookup
// to the next. One goroutine uses a Prober; Close releases it.
type Prober interface {
	// Get returns a copy of the value of key, or ErrNotFound.
	Get(key []byte) ([]byte, error)
	Close() error
}

// Store is an ordered key-value store.
type Store interface {
	Reader
	NewSnapshot() Snapshot
	NewBatch() Batch
	// NewSortedFile creates a file at path (on the store's file system)
	// for a later Ingest.
	NewSortedFile(path string, o FileOptions) (SortedFile, error)
	// Ingest adds finished sorted files to the store atomically: after a
	// crash either every key of every file is visible or none is. Keys of
	// the files replace existing equal keys. The files are consumed.
	Ingest(ctx context.Context, paths []string) error
	// NewProber returns a Prober of the store as it is now.
	NewProber() (Prober, error)
	// ReadOnly reports whether writes are refused.
	ReadOnly() bool
	Close() error
}

// PrefixEnd returns the smallest key greater than every key that starts
// with p, or nil when there is none (p is all 0xff bytes): the exclusive
// upper bound of a prefix scan.
func PrefixEnd(p []byte) []byte {
	end := append([]byte(nil), p...)
	for i := len(end) - 1; i >= 0; i-- {
		end[i]++
		if end[i] != 0 {
			return end[:i+1]
		}
	}
	return nil
}
