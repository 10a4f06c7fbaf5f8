package graph

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/mneme-archive/mneme/graph/kv"
	"github.com/mneme-archive/mneme/graph/kv/pebblekv"
)

// formatKey holds the on-disk format of a store; a store written with
// another key layout or hash is refused rather than misread.
var formatKey = []byte{tagMeta, 'f', 'o', 'r', 'm', 'a', 't'}

const formatValue = "mneme-graph/2 xxhash64"

// formatNoValues is the format before the value index (values.go): the
// same layout without it. Open adds the index to such a store, or, when
// read-only, reads it without (ValueRange then fails).
const formatNoValues = "mneme-graph/1 xxhash64"

// ErrReadOnly is returned by writes to a store opened read-only.
var ErrReadOnly = kv.ErrReadOnly

// ErrLocked is returned by Open when another process (or another Open in
// this one) holds the store: Pebble admits one at a time, read-only
// openings included, since a reader could not follow the holder's
// compactions.
var ErrLocked = errors.New("the store is in use by another process")

// OpenOptions configure Open.
type OpenOptions struct {
	// ReadOnly opens an existing store without ever writing to it, as a
	// query server does.
	ReadOnly bool
	// CacheBytes is the block cache size; 0 means the backend default.
	CacheBytes int64
	// TermCacheBytes bounds the cache of decoded dictionary entries
	// shared by all views of the store; 0 means DefaultTermCacheBytes,
	// a negative value disables it.
	TermCacheBytes int64
	// ScanCacheBytes bounds the cache of decoded posting lists (the keys
	// of scan ranges read whole) shared by all views of the store; 0
	// means DefaultScanCacheBytes, a negative value disables it.
	ScanCacheBytes int64
}

// BulkCacheBytes is the block cache (OpenOptions.CacheBytes) of a store
// opened by a process that writes through the bulk loader at length, as a
// social import does: twice the backend's default of 256 MiB. The loader
// reads back the dictionary entries of the terms it meets again (an
// account, a hashtag, a link), scattered over the whole dictionary, and
// the index blocks of its statistics' prefix seeks; at a million posts
// these outgrow the default cache, and each miss is a read, an allocation
// and a decompression. The cache grows to this size (C memory, outside
// the Go heap) only once the store is larger than it.
const BulkCacheBytes = 512 << 20

// Store is a quad store. Its View methods read the latest committed state.
type Store struct {
	*View
	kv   kv.Store
	dir  string
	wmu  sync.Mutex // serializes writers: dictionary assignment and stats
	hash hashFunc
	// written caches the IDs of the terms writers resolved, so that the
	// terms a batch names again and again (its predicates and graph,
	// classes, shared URLs) are not looked up in the dictionary each time;
	// present caches keys writers found. Both are used under wmu.
	written termIDs
	present presentKeys
	// ingestMin is the fewest quads a commit that only adds writes as
	// sorted files (ingestMinQuads; tests lower it).
	ingestMin int
	// slots is a filter of the dictionary slots taken, built for the
	// first Loader (slotFilter) and kept up by every writer after;
	// slotsTried is set once it was built or found too costly. Both are
	// used under wmu.
	slots      *idFilter
	slotsTried bool
}

// Open opens (creating it unless read-only) the Pebble-backed store in dir.
func Open(dir string, o OpenOptions) (*Store, error) {
	db, err := pebblekv.Open(dir, pebblekv.Options{ReadOnly: o.ReadOnly, CacheBytes: o.CacheBytes})
	if err != nil {
		if lockHeld(err) {
			return nil, fmt.Errorf("open store %s: %w", dir, ErrLocked)
		}
		return nil, err
	}
	s, err := newStore(db, dir, defaultHash, o)
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	return s, nil
}

// lockHeld reports whether Pebble failed to take the directory lock
// because it is held: fcntl's EAGAIN or EACCES from another process (not
// a file that cannot be created), or Pebble's own refusal within this
// process.
func lockHeld(err error) bool {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return false
	}
	return errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EACCES) ||
		strings.Contains(err.Error(), "lock held by current process")
}

// New makes a store on any kv backend. tmpDir is where a Loader writes
// its temporary files; it must be on the backend's file system. Its
// caches have the default sizes.
func New(db kv.Store, tmpDir string) (*Store, error) {
	return newStore(db, tmpDir, defaultHash, OpenOptions{})
}

// newStore is New with the term hash (tests force collisions with it)
// and the cache budgets of o as parameters.
func newStore(db kv.Store, tmpDir string, h hashFunc, o OpenOptions) (*Store, error) {
	pc := newPostingCache(o.ScanCacheBytes)
	if pc != nil {
		db = watchedStore{Store: db, pc: pc}
	}
	s := &Store{kv: db, dir: tmpDir, hash: h, written: newTermIDs(writtenTermsMax),
		present: presentKeys{newGenerations[prefix, struct{}](presentMax)}, ingestMin: ingestMinQuads}
	s.View = &View{r: db, hash: h, terms: newTermCache(o.TermCacheBytes), postings: pc, live: true}
	v, err := db.Get(formatKey)
	switch {
	case errors.Is(err, kv.ErrNotFound):
		if !db.ReadOnly() {
			b := db.NewBatch()
			defer b.Close()
			b.Set(formatKey, []byte(formatValue))
			if err := b.Commit(); err != nil {
				return nil, err
			}
		}
	case err != nil:
		return nil, err
	case string(v) == formatNoValues && db.ReadOnly():
		s.View.noValues = true
	case string(v) == formatNoValues:
		if err := addValueIndex(db); err != nil {
			return nil, fmt.Errorf("upgrade store format %q to %q (adding the value index): %w", v, formatValue, err)
		}
	case string(v) != formatValue:
		return nil, fmt.Errorf("store format %q, this build reads %q", v, formatValue)
	}
	if !db.ReadOnly() {
		s.removeStaleLoads()
	}
	return s, nil
}

// loadTmpPrefix names the temporary directories of loads; one left by a
// killed load is removed at the next Open.
const loadTmpPrefix = "load-tmp-"

func (s *Store) removeStaleLoads() {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), loadTmpPrefix) {
			_ = os.RemoveAll(filepath.Join(s.dir, e.Name()))
		}
	}
}

// ReadOnly reports whether the store refuses writes.
func (s *Store) ReadOnly() bool { return s.kv.ReadOnly() }

// Snapshot returns a frozen view of the store; Close it when done.
func (s *Store) Snapshot() *View {
	var snap kv.Snapshot
	gen, ok := s.postings.readGen(func() { snap = s.kv.NewSnapshot() })
	v := &View{r: snap, hash: s.hash, terms: s.View.terms, closer: snap.Close, noValues: s.View.noValues}
	if ok {
		v.postings, v.gen = s.postings, gen
	}
	return v
}

// Close closes the store.
func (s *Store) Close() error { return s.kv.Close() }

// View reads the store: the live state (Store.View) or a snapshot.
type View struct {
	r     kv.Reader
	hash  hashFunc
	terms *termCache
	// postings serves scans from cached posting lists, nil when there is
	// no cache or the view's state is not a known generation's; a live
	// view takes the generation of each scan's iterator, a snapshot has
	// its own (gen).
	postings *postingCache
	live     bool
	gen      uint64
	// noValues is set for a store without a value index (see
	// formatNoValues).
	noValues bool
	closer   func() error
}

// Close releases a snapshot; it does nothing on the live view.
func (v *View) Close() error {
	if v.closer == nil {
		return nil
	}
	return v.closer()
}

// exists reports whether key is present.
func exists(r kv.Reader, key []byte) (bool, error) {
	_, err := r.Get(key)
	if errors.Is(err, kv.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}
