package pebblekv

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/objstorage"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/sstable/block"
	"github.com/cockroachdb/pebble/v2/sstable/block/blockkind"
	"github.com/cockroachdb/pebble/v2/sstable/rowblk"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// keyFile writes a table of unique keys set at sequence number 0, in
// sorted order, byte for byte as Pebble's row writer writes it with the
// same options (the tests compare the two), but without the generic
// writer's per-key work: no key-kind, obsolete-key, value-block or
// same-prefix decisions (every key is a distinct SET), one prefix
// comparison a key that also checks the order, and the data block
// encoded in place. Bulk loads write hundreds of millions of such keys.
//
// Only the layouts the store uses are written here (row blocks of
// TableFormatPebblev2 to v4, the bytewise comparer, a table filter, no
// block property collectors of its own); canWriteKeyFile says so, and
// NewSortedFile uses Pebble's writer for anything else.
type keyFile struct {
	f        vfs.File
	w        objstorage.Writable // nil until the first block is written
	wo       sstable.WriterOptions
	path     string
	comp     block.Compressor
	sum      block.Checksummer
	dataGov  block.FlushGovernor
	indexGov block.FlushGovernor
	filter   pebble.FilterWriter // nil without a filter
	err      error
	// From TableFormatPebblev3 on, a value starts with a prefix byte and
	// a key shares at most the previous user key; before, it may share
	// the previous key's trailer too, up to its own user key's length.
	prefixed bool
	// From TableFormatPebblev4 on, the obsolete-key collector is there.
	obsolete bool

	// The data block under way: entries, restart offsets, the entry
	// count at the next restart.
	buf         []byte
	restarts    []uint32
	nEntries    int
	nextRestart int
	low         int    // below this size, no block is full
	prev        []byte // the last user key added
	nKeys       uint64
	rawKey      uint64
	rawValue    uint64

	offset     uint64 // bytes written to the file
	physBuf    []byte
	sepBuf     []byte
	index      rowblk.Writer // the index block (or partition) under way
	partitions []indexPartition
	handles    []metaHandle
	tmp        [2 * binary.MaxVarintLen64]byte
}

// indexPartition is a finished first-level index block of a two-level
// index, with its last separator and entry count.
type indexPartition struct {
	block   []byte
	last    sstable.InternalKey
	entries int
}

type metaHandle struct {
	name   string
	handle []byte
}

// setTrailerBytes is setTrailer as it is encoded after a user key.
var setTrailerBytes = binary.LittleEndian.AppendUint64(nil, uint64(setTrailer))

// inPlaceValue is the value prefix of a SET whose value follows in the
// data block and whose key prefix differs from the previous key's (all
// keys of a keyFile are distinct, and the bytewise comparer's prefix is
// the whole key).
var inPlaceValue = byte(block.InPlaceValuePrefix(false))

// Names of the table the row writer records with the store's options:
// the obsolete-key block property collector it adds from
// TableFormatPebblev4 on (its table-wide value, after its short ID 0, is
// empty: no key of a keyFile is obsolete), and the fixed compression
// options it records for RocksDB.
const (
	obsoleteCollector  = "obsolete-key"
	compressionOptions = "window_bits=-14; level=32767; strategy=0; max_dict_bytes=0; zstd_max_train_bytes=0; enabled=0; "
	// Property values of the index type: one index block, or partitions
	// under a top-level block.
	binarySearchIndex = 0
	twoLevelIndex     = 2
	// The size of a block handle with properties the row writer assumes
	// when it decides to flush an index block.
	handleEstimate = 2 * binary.MaxVarintLen64
)

// withDefaults fills in what Pebble's writer would default in options
// wo, so that keyFile writes with the same.
func withDefaults(wo sstable.WriterOptions) sstable.WriterOptions {
	if wo.Checksum == block.ChecksumTypeNone {
		wo.Checksum = block.ChecksumTypeCRC32c
	}
	if wo.IndexBlockSize <= 0 {
		wo.IndexBlockSize = wo.BlockSize
	}
	return wo
}

// canWriteKeyFile reports whether keyFile writes tables exactly as
// Pebble's writer does with options wo. (Pebble's writer would replace
// MinLZ, which these formats cannot hold, by Snappy.)
func canWriteKeyFile(wo sstable.WriterOptions) bool {
	return wo.TableFormat >= sstable.TableFormatPebblev2 && wo.TableFormat <= sstable.TableFormatPebblev4 &&
		len(wo.BlockPropertyCollectors) == 0 &&
		len(wo.AllocatorSizeClasses) == 0 &&
		wo.Comparer != nil && wo.Comparer.Name == pebble.DefaultComparer.Name &&
		wo.Compression != nil && !wo.Compression.UsesMinLZ() && wo.MergerName != "" &&
		wo.BlockSize > 0 && wo.BlockSizeThreshold > 0 && wo.BlockRestartInterval > 0 &&
		wo.IndexBlockSize > 0 && wo.Checksum != block.ChecksumTypeNone &&
		(wo.FilterPolicy == nil || wo.FilterPolicy == pebble.NoFilterPolicy || wo.FilterType == sstable.TableFilter) &&
		!wo.IsStrictObsolete
}

// newKeyFile creates the file at path for a table written with options
// wo, which canWriteKeyFile accepts.
func newKeyFile(path string, wo sstable.WriterOptions) (*keyFile, error) {
	f, err := vfs.Default.Create(path, vfs.WriteCategoryUnspecified)
	if err != nil {
		return nil, err
	}
	k := &keyFile{
		f:        f,
		wo:       wo,
		path:     path,
		comp:     block.MakeCompressor(wo.Compression),
		sum:      block.Checksummer{Type: wo.Checksum},
		dataGov:  block.MakeFlushGovernor(wo.BlockSize, wo.BlockSizeThreshold, 0, nil),
		indexGov: block.MakeFlushGovernor(wo.IndexBlockSize, wo.BlockSizeThreshold, 0, nil),
		index:    rowblk.Writer{RestartInterval: 1},
		buf:      make([]byte, 0, 2*wo.BlockSize),
		prefixed: wo.TableFormat >= sstable.TableFormatPebblev3,
		obsolete: wo.TableFormat >= sstable.TableFormatPebblev4,
	}
	k.low = k.dataGov.LowWatermark()
	if wo.FilterPolicy != nil && wo.FilterPolicy != pebble.NoFilterPolicy {
		k.filter = wo.FilterPolicy.NewWriter(sstable.TableFilter)
	}
	return k, nil
}

// Add implements kv.SortedFile.
func (k *keyFile) Add(key, value []byte) error {
	if k.err != nil {
		return k.err
	}
	shared := 0
	if k.nKeys > 0 {
		// The common prefix with the previous key, a word at a time; it
		// also tells whether the key follows the previous one.
		p := k.prev
		n := min(len(p), len(key))
		for shared+8 <= n {
			x := binary.LittleEndian.Uint64(key[shared:]) ^ binary.LittleEndian.Uint64(p[shared:])
			if x != 0 {
				shared += bits.TrailingZeros64(x) >> 3
				goto found
			}
			shared += 8
		}
		for shared < n && key[shared] == p[shared] {
			shared++
		}
	found:
		if shared == len(key) || (shared < len(p) && key[shared] < p[shared]) {
			k.err = fmt.Errorf("pebble: keys must be added in strictly increasing order: %x, %x", p, key)
			return k.err
		}
		if shared == len(p) && !k.prefixed {
			// The previous key is a prefix of this one: the previous
			// trailer's bytes may be shared too.
			for shared < len(key) && shared-len(p) < len(setTrailerBytes) && key[shared] == setTrailerBytes[shared-len(p)] {
				shared++
			}
		}
	}
	keySize, valueSize := len(key)+len(setTrailerBytes), len(value)
	if k.prefixed {
		valueSize++
	}
	if k.nEntries > 0 && k.shouldFlushData(keySize, valueSize) {
		if err := k.flushData(key); err != nil {
			k.err = err
			return err
		}
	}
	if k.nEntries == k.nextRestart {
		k.nextRestart += k.wo.BlockRestartInterval
		k.restarts = append(k.restarts, uint32(len(k.buf)))
		shared = 0
	}
	// The entry: the shared and unshared key lengths and the value's,
	// the unshared part of the key with its trailer, the value.
	unshared := keySize - shared
	n := len(k.buf)
	b := slices.Grow(k.buf, 3*binary.MaxVarintLen32+unshared+valueSize)
	b = b[:cap(b)]
	if shared < 0x80 && unshared < 0x80 && valueSize < 0x80 {
		b[n], b[n+1], b[n+2] = byte(shared), byte(unshared), byte(valueSize)
		n += 3
	} else {
		n += binary.PutUvarint(b[n:], uint64(shared))
		n += binary.PutUvarint(b[n:], uint64(unshared))
		n += binary.PutUvarint(b[n:], uint64(valueSize))
	}
	n += copy(b[n:], key[shared:])
	binary.LittleEndian.PutUint64(b[n:], uint64(setTrailer))
	n += len(setTrailerBytes)
	if k.prefixed {
		b[n] = inPlaceValue
		n++
	}
	n += copy(b[n:], value)
	k.buf = b[:n]
	k.nEntries++
	k.prev = append(k.prev[:0], key...)
	if k.filter != nil {
		k.filter.AddKey(key)
	}
	k.nKeys++
	k.rawKey += uint64(keySize)
	k.rawValue += uint64(len(value))
	return nil
}

// shouldFlushData is the row writer's test, before adding a key, of
// whether the data block is full.
func (k *keyFile) shouldFlushData(keySize, valueSize int) bool {
	size := len(k.buf) + 4*len(k.restarts) + rowblk.EmptySize
	if size < k.low {
		return false
	}
	return k.dataGov.ShouldFlush(size, grownSize(size, keySize, valueSize, k.nEntries, k.wo.BlockRestartInterval))
}

// grownSize is the row writer's estimate of a block of size bytes and
// entries entries once it holds one more key and value.
func grownSize(size, keySize, valueSize, entries, restartInterval int) int {
	n := size + keySize + valueSize
	if entries%restartInterval == 0 {
		n += 4
	}
	return n + 4 + uvarintLen(keySize) + uvarintLen(valueSize)
}

func uvarintLen(v int) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// finishData appends the restart points to the data block under way and
// returns it; the block is empty again afterwards (its bytes stay valid
// until the next key).
func (k *keyFile) finishData() []byte {
	for _, r := range k.restarts {
		k.buf = binary.LittleEndian.AppendUint32(k.buf, r)
	}
	k.buf = binary.LittleEndian.AppendUint32(k.buf, uint32(len(k.restarts)))
	b := k.buf
	k.buf = k.buf[:0]
	k.restarts = k.restarts[:0]
	k.nEntries, k.nextRestart = 0, 0
	return b
}

// flushData writes the full data block and indexes it under a separator
// between its last key and next, the first key of the next block (nil
// after the last block).
func (k *keyFile) flushData(next []byte) error {
	h, err := k.writeBlock(k.finishData(), blockkind.SSTableData, true)
	if err != nil {
		return err
	}
	last := sstable.InternalKey{UserKey: k.prev, Trailer: setTrailer}
	var sep sstable.InternalKey
	if next == nil {
		sep = last.Successor(k.wo.Comparer.Compare, k.wo.Comparer.Successor, k.sepBuf[:0])
	} else {
		sep = last.Separator(k.wo.Comparer.Compare, k.wo.Comparer.Separator, k.sepBuf[:0], sstable.InternalKey{UserKey: next, Trailer: setTrailer})
	}
	if len(sep.UserKey) > 0 && &sep.UserKey[0] != &k.prev[0] {
		k.sepBuf = sep.UserKey
	}
	// A full index block becomes a partition of a two-level index, as
	// the row writer decides it: before adding the separator.
	if n := k.index.EntryCount(); n > 0 {
		size := k.index.EstimatedSize()
		if size >= k.indexGov.LowWatermark() && k.indexGov.ShouldFlush(size, grownSize(size, sep.Size(), handleEstimate, n, 1)) {
			k.finishPartition()
		}
	}
	return k.index.Add(sep, k.tmp[:h.EncodeVarints(k.tmp[:])])
}

// finishPartition ends the index block under way as a partition of a
// two-level index.
func (k *keyFile) finishPartition() {
	p := indexPartition{entries: k.index.EntryCount()}
	last := k.index.CurKey()
	p.last = sstable.InternalKey{UserKey: slices.Clone(last.UserKey), Trailer: last.Trailer}
	p.block = slices.Clone(k.index.Finish())
	k.partitions = append(k.partitions, p)
	k.index.Reset()
	k.index.RestartInterval = 1
}

// writeBlock checksums b, compressing it first if compress, and writes
// it to the file.
func (k *keyFile) writeBlock(b []byte, kind block.Kind, compress bool) (block.Handle, error) {
	if k.w == nil {
		k.w = &fileWritable{f: k.f, w: bufio.NewWriterSize(k.f, writeBuffer)}
	}
	var pb block.PhysicalBlock
	if compress {
		pb = block.CompressAndChecksum(&k.physBuf, b, kind, &k.comp, &k.sum)
	} else {
		pb = block.CopyAndChecksum(&k.physBuf, b, kind, &k.comp, &k.sum)
	}
	n, err := pb.WriteTo(k.w)
	if err != nil {
		return block.Handle{}, err
	}
	h := block.Handle{Offset: k.offset, Length: uint64(pb.LengthWithoutTrailer())}
	k.offset += uint64(n)
	return h, nil
}

func (k *keyFile) recordMeta(name string, h block.Handle) {
	k.handles = append(k.handles, metaHandle{name, slices.Clone(k.tmp[:h.EncodeVarints(k.tmp[:])])})
}

// Finish implements kv.SortedFile: the last data block, the filter, the
// index, the properties, the meta-index and the footer, in the row
// writer's order; then the file is synced and closed.
func (k *keyFile) Finish() error {
	if k.err != nil {
		return k.err
	}
	if k.nKeys == 0 {
		// Nothing written yet: Pebble's writer makes the empty table.
		w := sstable.NewWriter(objstorageprovider.NewFileWritable(k.f), k.wo)
		k.comp.Close()
		k.f = nil
		k.err = errors.New("pebble: file finished")
		return w.Close()
	}
	err := k.finish()
	if err != nil {
		k.Abort()
	}
	k.err = errors.New("pebble: file finished")
	return err
}

func (k *keyFile) finish() error {
	if err := k.flushData(nil); err != nil {
		return err
	}
	props := properties{}
	dataSize := k.offset
	props.uvarint("rocksdb.data.size", dataSize)
	var filterSize uint64
	if k.filter != nil {
		h, err := k.writeBlock(k.filter.Finish(nil), blockkind.Filter, false)
		if err != nil {
			return err
		}
		k.recordMeta("fullfilter."+k.wo.FilterPolicy.Name(), h)
		props.str("rocksdb.filter.policy", k.wo.FilterPolicy.Name())
		filterSize = h.Length
	}
	props.uvarint("rocksdb.filter.size", filterSize)
	var indexHandle block.Handle
	var err error
	var indexSize, dataBlocks uint64
	if len(k.partitions) > 0 {
		k.finishPartition()
		top := rowblk.Writer{RestartInterval: 1}
		for _, p := range k.partitions {
			dataBlocks += uint64(p.entries)
			indexSize += uint64(len(p.block))
			h, err := k.writeBlock(p.block, blockkind.SSTableIndex, true)
			if err != nil {
				return err
			}
			if err := top.Add(p.last, k.tmp[:h.EncodeVarints(k.tmp[:])]); err != nil {
				return err
			}
		}
		topSize := uint64(top.EstimatedSize())
		indexSize += topSize + block.TrailerLen
		props.uvarint("rocksdb.index.partitions", uint64(len(k.partitions)))
		props.uvarint("rocksdb.top-level.index.size", topSize)
		props.uint32("rocksdb.block.based.table.index.type", twoLevelIndex)
		indexHandle, err = k.writeBlock(top.Finish(), blockkind.SSTableIndex, true)
	} else {
		indexSize = uint64(k.index.EstimatedSize()) + block.TrailerLen
		dataBlocks = uint64(k.index.EntryCount())
		props.uint32("rocksdb.block.based.table.index.type", binarySearchIndex)
		indexHandle, err = k.writeBlock(k.index.Finish(), blockkind.SSTableIndex, true)
	}
	if err != nil {
		return err
	}
	props.uvarint("rocksdb.index.size", indexSize)
	props.uvarint("rocksdb.num.data.blocks", dataBlocks)
	collectors := "[]"
	if k.obsolete {
		props.str(obsoleteCollector, "\x00")
		collectors = "[" + obsoleteCollector + "]"
	}
	props.str("rocksdb.comparator", k.wo.Comparer.Name)
	props.str("rocksdb.compression", k.wo.Compression.Name)
	props.str("rocksdb.compression_options", compressionOptions)
	props.uvarint("rocksdb.deleted.keys", 0)
	props.str("rocksdb.merge.operator", k.wo.MergerName)
	props.uvarint("rocksdb.merge.operands", 0)
	props.uvarint("rocksdb.num.entries", k.nKeys)
	props.uvarint("rocksdb.num.range-deletions", 0)
	props.str("rocksdb.property.collectors", collectors)
	props.uvarint("rocksdb.raw.key.size", k.rawKey)
	props.uvarint("rocksdb.raw.value.size", k.rawValue)
	pw := rowblk.Writer{RestartInterval: math.MaxInt32}
	slices.SortFunc(props, func(a, b prop) int { return strings.Compare(a.name, b.name) })
	for _, p := range props {
		if err := pw.AddRaw([]byte(p.name), p.value); err != nil {
			return err
		}
	}
	h, err := k.writeBlock(pw.Finish(), blockkind.Metadata, false)
	if err != nil {
		return err
	}
	k.recordMeta("rocksdb.properties", h)

	slices.SortFunc(k.handles, func(a, b metaHandle) int { return strings.Compare(a.name, b.name) })
	mw := rowblk.Writer{RestartInterval: 1}
	for _, m := range k.handles {
		if err := mw.AddRaw([]byte(m.name), m.handle); err != nil {
			return err
		}
	}
	metaHandle, err := k.writeBlock(mw.Finish(), blockkind.Metadata, false)
	if err != nil {
		return err
	}
	// The footer of a Pebble table before TableFormatPebblev6: checksum
	// type, the meta-index and index handles, zero padding, the format
	// version and the magic string.
	footer := make([]byte, k.wo.TableFormat.FooterSize())
	footer[0] = byte(k.wo.Checksum)
	n := 1 + metaHandle.EncodeVarints(footer[1:])
	indexHandle.EncodeVarints(footer[n:])
	magic, version := k.wo.TableFormat.AsTuple()
	binary.LittleEndian.PutUint32(footer[len(footer)-len(magic)-4:], version)
	copy(footer[len(footer)-len(magic):], magic)
	if err := k.w.Write(footer); err != nil {
		return err
	}
	k.comp.Close()
	w := k.w
	k.w, k.f = nil, nil
	return w.Finish()
}

// properties are the table properties as the row writer encodes them.
type properties []prop

type prop struct {
	name  string
	value []byte
}

func (p *properties) str(name, v string) { *p = append(*p, prop{name, []byte(v)}) }

func (p *properties) uvarint(name string, v uint64) {
	*p = append(*p, prop{name, binary.AppendUvarint(nil, v)})
}

func (p *properties) uint32(name string, v uint32) {
	*p = append(*p, prop{name, binary.LittleEndian.AppendUint32(nil, v)})
}

// Abort implements kv.SortedFile.
func (k *keyFile) Abort() {
	if k.w != nil {
		k.w.Abort()
	} else if k.f != nil {
		_ = k.f.Close()
	}
	if k.f != nil || k.w != nil {
		k.comp.Close()
	}
	k.w, k.f = nil, nil
	k.err = errors.New("pebble: file aborted")
	_ = vfs.Default.Remove(k.path)
}

// writeBuffer is the size of the writes to a table file: a write call
// for every few blocks cost as much as encoding their keys.
const writeBuffer = 256 << 10

// fileWritable is Pebble's buffered file writable with larger writes.
type fileWritable struct {
	f vfs.File
	w *bufio.Writer
}

func (w *fileWritable) Write(p []byte) error {
	_, err := w.w.Write(p)
	return err
}

// Finish flushes, syncs (as Ingest requires) and closes the file.
func (w *fileWritable) Finish() error {
	err := w.w.Flush()
	if err == nil {
		err = w.f.Sync()
	}
	return errors.Join(err, w.f.Close())
}

func (w *fileWritable) Abort() { _ = w.f.Close() }
