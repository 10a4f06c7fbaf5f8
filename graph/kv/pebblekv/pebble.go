// Package pebblekv implements the kv ordered key-value interface on
// Pebble, the embedded default backend of the quad store. No Pebble type
// escapes this package.
package pebblekv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/mneme-archive/mneme/graph/kv"
	"github.com/mneme-archive/mneme/internal/pebblelog"
)

// Options tune a Pebble store.
type Options struct {
	// ReadOnly opens an existing store without writing to it.
	ReadOnly bool
	// CacheBytes is the block cache size; 0 means 256 MiB.
	CacheBytes int64
}

// DB is a Pebble database behind the kv.Store interface.
type DB struct {
	db   *pebble.DB
	opts *pebble.Options
	ro   bool
	lock *pebble.Lock // the shared lock of a store on read-only media, else nil
}

var _ kv.Store = (*DB)(nil)

// Open opens or creates (unless read-only) the Pebble store in dir.
func Open(dir string, o Options) (*DB, error) {
	size := o.CacheBytes
	if size <= 0 {
		size = 256 << 20
	}
	cache := pebble.NewCache(size)
	defer cache.Unref()
	opts := &pebble.Options{
		Cache:                       cache,
		ReadOnly:                    o.ReadOnly,
		MemTableSize:                64 << 20,
		MemTableStopWritesThreshold: 4,
		// Crawls and loads write index keys in random order (hash IDs):
		// each L0 table overlaps all of the first level, so let more
		// gather in L0 and make that level larger, so that a compaction
		// merges more new data per byte of old data it rewrites. Bloom
		// filters keep point reads cheap across the extra L0 tables.
		// Pebble compacts L0 from half this many sublevels: 16 memtable
		// flushes or ingested commits, some 2 million quads of a crawl.
		L0CompactionThreshold: 32,
		L0StopWritesThreshold: 64,
		LBaseMaxBytes:         512 << 20,
		// Pebble logs compactions to stderr by default; a store is a
		// library and keeps quiet.
		Logger: pebblelog.Logger{Name: "pebble"},
	}
	// Bloom filters make the dictionary's "is this id free?" probes and
	// the writers' existence checks cheap.
	for i := range opts.Levels {
		opts.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
	}
	if o.ReadOnly {
		opts.ErrorIfNotExists = true
	}
	// Defaults filled in here, not only inside Open's private copy, so
	// that NewSortedFile writes tables exactly as the database would.
	opts.EnsureDefaults()
	db, err := pebble.Open(dir, opts)
	var lock *pebble.Lock
	if err != nil && o.ReadOnly && unwritable(err) {
		// Read-only media (a read-only mount, a directory this user may
		// not write to): the lock file cannot be created there, so the
		// store opens under a shared lock on the existing file instead
		// (readLockFS), writing nothing.
		if lock, err = pebble.LockDirectory(dir, readLockFS{opts.FS}); err == nil {
			opts.Lock = lock
			if db, err = pebble.Open(dir, opts); err != nil {
				_ = lock.Close()
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	return &DB{db: db, opts: opts, ro: o.ReadOnly, lock: lock}, nil
}

// Get implements kv.Reader.
func (d *DB) Get(key []byte) ([]byte, error) { return get(d.db, key) }

// NewProber implements kv.Store. Pebble's Get reads no filter of the
// bottom level (it expects the key to be there, and bottom filters are
// large), so an absent key costs a data block of that level, and it opens
// every table it consults anew: a prefix seek of one iterator with the
// bottom filters on answers from the filters of tables it keeps open.
func (d *DB) NewProber() (kv.Prober, error) {
	it, err := d.db.NewIter(&pebble.IterOptions{UseL6Filters: true})
	if err != nil {
		return nil, err
	}
	return prober{it}, nil
}

type prober struct{ it *pebble.Iterator }

func (p prober) Get(key []byte) ([]byte, error) {
	// With the default comparer the whole key is the prefix: a prefix seek
	// finds the key itself or nothing.
	if !p.it.SeekPrefixGE(key) || !bytes.Equal(p.it.Key(), key) {
		if err := p.it.Error(); err != nil {
			return nil, err
		}
		return nil, kv.ErrNotFound
	}
	return append([]byte(nil), p.it.Value()...), p.it.Error()
}

func (p prober) Close() error { return p.it.Close() }

// NewIter implements kv.Reader.
func (d *DB) NewIter(lower, upper []byte) (kv.Iterator, error) {
	it, err := d.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, err
	}
	return iter{it}, nil
}

// NewSnapshot implements kv.Store.
func (d *DB) NewSnapshot() kv.Snapshot { return &snapshot{s: d.db.NewSnapshot()} }

// NewBatch implements kv.Store.
func (d *DB) NewBatch() kv.Batch { return &batch{b: d.db.NewBatch(), ro: d.ro} }

// ReadOnly implements kv.Store.
func (d *DB) ReadOnly() bool { return d.ro }

// Close implements kv.Store.
func (d *DB) Close() error {
	err := d.db.Close()
	if d.lock != nil {
		err = errors.Join(err, d.lock.Close())
	}
	return err
}

// NewSortedFile implements kv.Store: a Pebble sstable written with the
// options the database itself uses for its bottom level, by keyFile
// where it can write the store's table format, else by Pebble's writer.
func (d *DB) NewSortedFile(path string, o kv.FileOptions) (kv.SortedFile, error) {
	if d.ro {
		return nil, kv.ErrReadOnly
	}
	wo := d.opts.MakeWriterOptions(len(d.opts.Levels)-1, d.db.TableFormat())
	if o.RangeReadsOnly {
		wo.FilterPolicy = nil
	}
	wo = withDefaults(wo)
	if canWriteKeyFile(wo) {
		return newKeyFile(path, wo)
	}
	f, err := vfs.Default.Create(path, vfs.WriteCategoryUnspecified)
	if err != nil {
		return nil, err
	}
	w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), wo)
	return &sortedFile{w: w, raw: w.Raw(), path: path}, nil
}

// Ingest implements kv.Store.
func (d *DB) Ingest(ctx context.Context, paths []string) error {
	if d.ro {
		return kv.ErrReadOnly
	}
	if len(paths) == 0 {
		return nil
	}
	return d.db.Ingest(ctx, paths)
}

// getter is what *pebble.DB and *pebble.Snapshot have in common for Get.
type getter interface {
	Get(key []byte) ([]byte, io.Closer, error)
}

func get(g getter, key []byte) ([]byte, error) {
	v, c, err := g.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, kv.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	out := append([]byte(nil), v...)
	return out, c.Close()
}

type snapshot struct {
	s      *pebble.Snapshot
	closed bool
}

func (s *snapshot) Get(key []byte) ([]byte, error) { return get(s.s, key) }

func (s *snapshot) NewIter(lower, upper []byte) (kv.Iterator, error) {
	it, err := s.s.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, err
	}
	return iter{it}, nil
}

// Close releases the snapshot; closing it again does nothing (Pebble
// would panic).
func (s *snapshot) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	return s.s.Close()
}

type iter struct{ it *pebble.Iterator }

func (i iter) First() bool            { return i.it.First() }
func (i iter) SeekGE(key []byte) bool { return i.it.SeekGE(key) }
func (i iter) Next() bool             { return i.it.Next() }
func (i iter) Valid() bool            { return i.it.Valid() }
func (i iter) Key() []byte            { return i.it.Key() }
func (i iter) Value() []byte          { return i.it.Value() }
func (i iter) Err() error             { return i.it.Error() }
func (i iter) Close() error           { return i.it.Close() }

type batch struct {
	b  *pebble.Batch
	ro bool
}

func (b *batch) Set(key, value []byte) { _ = b.b.Set(key, value, nil) }
func (b *batch) Delete(key []byte)     { _ = b.b.Delete(key, nil) }
func (b *batch) Len() int              { return int(b.b.Count()) }
func (b *batch) Close()                { _ = b.b.Close() }

func (b *batch) Commit() error {
	if b.ro {
		return kv.ErrReadOnly
	}
	return b.b.Commit(pebble.Sync)
}

type sortedFile struct {
	w    *sstable.Writer
	raw  sstable.RawWriter // w's, written to directly: a bulk file holds millions of keys
	path string
}

// setTrailer is the trailer of a key set at sequence number 0, as
// Writer.Set writes it.
var setTrailer = pebble.MakeInternalKeyTrailer(0, pebble.InternalKeyKindSet)

func (s *sortedFile) Add(key, value []byte) error {
	return s.raw.Add(sstable.InternalKey{UserKey: key, Trailer: setTrailer}, value, false)
}

// Finish closes the writer, which syncs the file before closing it as
// Ingest requires.
func (s *sortedFile) Finish() error { return s.w.Close() }

func (s *sortedFile) Abort() {
	_ = s.w.Close()
	_ = os.Remove(s.path)
}
