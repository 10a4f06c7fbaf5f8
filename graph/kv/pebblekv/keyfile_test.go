package pebblekv

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/sstable/block"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/mneme-archive/mneme/graph/kv"
	"github.com/mneme-archive/mneme/internal/testenv"
)

// keyValue is a key and its value as a test writes them.
type keyValue struct{ k, v []byte }

// termKeys returns n distinct sorted keys of 1 to 60 bytes over a small
// alphabet (so that neighbours share prefixes of every length, and some
// keys are prefixes of the next), with values of 0 to 100 bytes and a
// few larger than a block.
func termKeys(n int) []keyValue {
	rng := rand.New(rand.NewPCG(3, 4))
	seen := map[string]bool{}
	var kvs []keyValue
	for len(kvs) < n {
		k := make([]byte, 1+rng.IntN(60))
		for i := range k {
			k[i] = "ab\x00\xff"[rng.IntN(4)]
		}
		if seen[string(k)] {
			continue
		}
		seen[string(k)] = true
		size := rng.IntN(101)
		if rng.IntN(500) == 0 {
			size = 10_000 + rng.IntN(20_000)
		}
		v := make([]byte, size)
		for i := range v {
			v[i] = byte(rng.IntN(3))
		}
		kvs = append(kvs, keyValue{k, v})
	}
	slices.SortFunc(kvs, func(a, b keyValue) int { return bytes.Compare(a.k, b.k) })
	return kvs
}

func asKeyValues(keys [][]byte) []keyValue {
	kvs := make([]keyValue, len(keys))
	for i, k := range keys {
		kvs[i] = keyValue{k: k}
	}
	return kvs
}

// keyFileCases are the shapes of table the store writes: index keys
// (33 bytes, no value) from one block to a two-level index, with the
// point-lookup filter and without; and dictionary-like keys of every
// length with values.
func keyFileCases() []struct {
	name   string
	kvs    []keyValue
	filter bool
} {
	idx := asKeyValues(indexKeys(40_000))
	return []struct {
		name   string
		kvs    []keyValue
		filter bool
	}{
		{"empty", nil, true},
		{"one-key", idx[:1], true},
		{"one-block", idx[:50], false},
		{"one-index-block", idx[:5_000], true},
		{"two-level", idx, true},
		{"two-level-range-only", idx, false},
		{"terms", termKeys(30_000), true},
	}
}

func writeSorted(t testing.TB, f kv.SortedFile, kvs []keyValue) {
	t.Helper()
	for _, e := range kvs {
		if err := f.Add(e.k, e.v); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Finish(); err != nil {
		t.Fatal(err)
	}
}

// writerOptions are the options NewSortedFile writes with in db.
func writerOptions(db *DB, filter bool) sstable.WriterOptions {
	wo := db.opts.MakeWriterOptions(len(db.opts.Levels)-1, db.db.TableFormat())
	if !filter {
		wo.FilterPolicy = nil
	}
	return withDefaults(wo)
}

// pebbleFile writes kvs to path with Pebble's own writer.
func pebbleFile(t testing.TB, path string, wo sstable.WriterOptions, kvs []keyValue) {
	t.Helper()
	f, err := vfs.Default.Create(path, vfs.WriteCategoryUnspecified)
	if err != nil {
		t.Fatal(err)
	}
	w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), wo)
	writeSorted(t, &sortedFile{w: w, raw: w.Raw(), path: path}, kvs)
}

// TestKeyFileAsPebbleWrites writes the same keys with keyFile and with
// Pebble's writer, with the options of a real store, and wants the same
// bytes; then reads every key back with Pebble's table reader: in
// order, by SeekGE, and by SeekPrefixGE through the filter (which must
// also turn absent keys away).
func TestKeyFileAsPebbleWrites(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(filepath.Join(dir, "db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if wo := writerOptions(db, true); !canWriteKeyFile(wo) {
		t.Fatalf("keyFile cannot write the store's tables (format %s)", wo.TableFormat)
	}
	f, err := db.NewSortedFile(filepath.Join(dir, "f.sst"), kv.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.(*keyFile); !ok {
		t.Fatalf("NewSortedFile returned %T, not a keyFile", f)
	}
	f.Abort()
	// The store's format, and the other row formats keyFile writes.
	for _, format := range []sstable.TableFormat{sstable.TableFormatPebblev2, sstable.TableFormatPebblev3, sstable.TableFormatPebblev4} {
		for _, c := range keyFileCases() {
			t.Run(fmt.Sprintf("%s/%s", format, c.name), func(t *testing.T) {
				wo := writerOptions(db, c.filter)
				wo.TableFormat = format
				keyFileAsPebble(t, filepath.Join(dir, "f"), wo, c.kvs)
			})
		}
	}
}

func keyFileAsPebble(t *testing.T, prefix string, wo sstable.WriterOptions, kvs []keyValue) {
	ours, theirs := prefix+".ours", prefix+".pebble"
	f, err := newKeyFile(ours, wo)
	if err != nil {
		t.Fatal(err)
	}
	writeSorted(t, f, kvs)
	pebbleFile(t, theirs, wo, kvs)
	a, err := os.ReadFile(ours)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(theirs)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		i := 0
		for i < min(len(a), len(b)) && a[i] == b[i] {
			i++
		}
		t.Fatalf("keyFile wrote %d bytes, Pebble %d; first difference at byte %d", len(a), len(b), i)
	}
	readTable(t, ours, kvs, wo)
}

func readTable(t *testing.T, path string, kvs []keyValue, wo sstable.WriterOptions) {
	filter := wo.FilterPolicy != nil
	t.Helper()
	f, err := vfs.Default.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	readable, err := sstable.NewSimpleReadable(f)
	if err != nil {
		t.Fatal(err)
	}
	ro := sstable.ReaderOptions{}
	if filter {
		ro.Filters = map[string]sstable.FilterPolicy{wo.FilterPolicy.Name(): wo.FilterPolicy}
	}
	r, err := sstable.NewReader(context.Background(), readable, ro)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	props, err := r.ReadPropertiesBlock(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if props.NumEntries != uint64(len(kvs)) || (props.FilterPolicyName != "") != filter {
		t.Fatalf("properties: %d entries, filter %q; want %d, filter %v", props.NumEntries, props.FilterPolicyName, len(kvs), filter)
	}
	it, err := r.NewIter(sstable.NoTransforms, nil, nil, sstable.TableBlobContext{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	i := 0
	for e := it.First(); e != nil; e = it.Next() {
		if i >= len(kvs) || !bytes.Equal(e.K.UserKey, kvs[i].k) || e.Kind() != pebble.InternalKeyKindSet || e.SeqNum() != 0 {
			t.Fatalf("key %d: %x %s, want %x", i, e.K.UserKey, e.K, kvs[i].k)
		}
		v, _, err := e.Value(nil)
		if err != nil || !bytes.Equal(v, kvs[i].v) {
			t.Fatalf("value of key %d: %x (%v), want %x", i, v, err, kvs[i].v)
		}
		i++
	}
	if i != len(kvs) {
		t.Fatalf("read %d keys, wrote %d", i, len(kvs))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range min(len(kvs), 1) * 2000 {
		j := rng.IntN(len(kvs))
		k := kvs[j].k
		if e := it.SeekGE(k, 0); e == nil || !bytes.Equal(e.K.UserKey, k) {
			t.Fatalf("SeekGE(%x) missed", k)
		}
		if e := it.SeekPrefixGE(k, k, 0); e == nil || !bytes.Equal(e.K.UserKey, k) {
			t.Fatalf("SeekPrefixGE(%x) missed", k)
		}
		// Just past key j: SeekGE lands on the next key; a prefix seek
		// finds nothing (a filter turns most such seeks away unread).
		past := append(slices.Clone(k), 0x01)
		e := it.SeekGE(past, 0)
		if j+1 < len(kvs) && bytes.Compare(kvs[j+1].k, past) >= 0 {
			if e == nil || !bytes.Equal(e.K.UserKey, kvs[j+1].k) {
				t.Fatalf("SeekGE(%x) = %v, want %x", past, e, kvs[j+1].k)
			}
		}
		if _, found := slices.BinarySearchFunc(kvs, past, func(a keyValue, b []byte) int { return bytes.Compare(a.k, b) }); !found {
			if e := it.SeekPrefixGE(past, past, 0); e != nil && bytes.Equal(e.K.UserKey, past) {
				t.Fatalf("SeekPrefixGE(%x) found an absent key", past)
			}
		}
	}
}

// TestKeyFileIngest ingests tables keyFile wrote into a store, reads
// every key through the store, compacts the whole store, checks its
// levels, reopens it and reads again.
func TestKeyFileIngest(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(filepath.Join(dir, "db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	var all []keyValue
	for i, c := range keyFileCases() {
		if c.name == "two-level-range-only" {
			continue // the same keys as two-level
		}
		// Each file its own key range: a tag byte first.
		kvs := make([]keyValue, len(c.kvs))
		for j, e := range c.kvs {
			kvs[j] = keyValue{append([]byte{byte('A' + i)}, e.k...), e.v}
		}
		path := filepath.Join(dir, fmt.Sprintf("%d.sst", i))
		f, err := db.NewSortedFile(path, kv.FileOptions{RangeReadsOnly: !c.filter})
		if err != nil {
			t.Fatal(err)
		}
		writeSorted(t, f, kvs)
		paths = append(paths, path)
		all = append(all, kvs...)
	}
	if err := db.Ingest(context.Background(), paths); err != nil {
		t.Fatal(err)
	}
	readStore(t, db, all)
	if err := db.db.Compact(context.Background(), []byte{0}, []byte{0xff}, false); err != nil {
		t.Fatal(err)
	}
	if err := db.db.CheckLevels(nil); err != nil {
		t.Fatal(err)
	}
	readStore(t, db, all)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if db, err = Open(filepath.Join(dir, "db"), Options{ReadOnly: true}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	readStore(t, db, all)
}

func readStore(t *testing.T, db *DB, kvs []keyValue) {
	t.Helper()
	it, err := db.NewIter(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for ok := it.First(); ok; ok = it.Next() {
		if i >= len(kvs) || !bytes.Equal(it.Key(), kvs[i].k) || !bytes.Equal(it.Value(), kvs[i].v) {
			t.Fatalf("store key %d: %x", i, it.Key())
		}
		i++
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if i != len(kvs) {
		t.Fatalf("store holds %d keys, ingested %d", i, len(kvs))
	}
	p, err := db.NewProber()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	rng := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		e := kvs[rng.IntN(len(kvs))]
		if v, err := db.Get(e.k); err != nil || !bytes.Equal(v, e.v) {
			t.Fatalf("Get(%x): %x, %v", e.k, v, err)
		}
		if v, err := p.Get(e.k); err != nil || !bytes.Equal(v, e.v) {
			t.Fatalf("prober Get(%x): %x, %v", e.k, v, err)
		}
	}
}

// TestKeyFileRefusesDisorder wants keys out of order or repeated
// refused, as Pebble's writer refuses them, and the file removed on
// Abort.
func TestKeyFileRefusesDisorder(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(filepath.Join(dir, "db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, keys := range [][]string{{"b", "a"}, {"a", "a"}, {"ab", "a"}, {"abcdefghij", "abcdefghii"}} {
		path := filepath.Join(dir, "f.sst")
		f, err := db.NewSortedFile(path, kv.FileOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Add([]byte(keys[0]), nil); err != nil {
			t.Fatal(err)
		}
		if err := f.Add([]byte(keys[1]), nil); err == nil {
			t.Fatalf("%q after %q accepted", keys[1], keys[0])
		}
		f.Abort()
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Fatalf("aborted file left: %v", err)
		}
	}
}

// BenchmarkKeyFile writes the same sorted index keys (as
// BenchmarkSortedFileFormat) into the store's table format with
// Pebble's writer and with keyFile, with the point-lookup filter (as the
// spog ordering) and without (the other orderings), and reports the CPU
// a key:
//
//	go test ./graph/kv/pebblekv -run '^$' -bench KeyFile -benchtime 2x
func BenchmarkKeyFile(b *testing.B) {
	db, err := Open(filepath.Join(b.TempDir(), "db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	keys := asKeyValues(indexKeys(1 << 20))
	path := filepath.Join(b.TempDir(), "f.sst")
	for _, filter := range []bool{false, true} {
		wo := writerOptions(db, filter)
		for _, w := range []struct {
			name  string
			write func()
		}{
			{"pebble", func() { pebbleFile(b, path, wo, keys) }},
			{"keyfile", func() {
				f, err := newKeyFile(path, wo)
				if err != nil {
					b.Fatal(err)
				}
				writeSorted(b, f, keys)
			}},
		} {
			b.Run(fmt.Sprintf("filter=%v/%s", filter, w.name), func(b *testing.B) {
				cpu0 := testenv.CPUTime()
				for b.Loop() {
					w.write()
				}
				cpu := testenv.CPUTime() - cpu0
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*len(keys)), "cpu-ns/key")
			})
		}
	}
}

// TestKeyFileOnlyWhereItMatches wants keyFile left out wherever Pebble's
// writer would write something it does not.
func TestKeyFileOnlyWhereItMatches(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range []struct {
		name   string
		change func(*sstable.WriterOptions)
	}{
		{"columnar format", func(wo *sstable.WriterOptions) { wo.TableFormat = sstable.TableFormatPebblev5 }},
		{"format before v2", func(wo *sstable.WriterOptions) { wo.TableFormat = sstable.TableFormatPebblev1 }},
		{"block property collector", func(wo *sstable.WriterOptions) {
			wo.BlockPropertyCollectors = []func() pebble.BlockPropertyCollector{nil}
		}},
		{"MinLZ", func(wo *sstable.WriterOptions) { wo.Compression = block.MinLZCompression }},
		{"another comparer", func(wo *sstable.WriterOptions) {
			c := *pebble.DefaultComparer
			c.Name = "reversed"
			wo.Comparer = &c
		}},
		{"strict obsolete", func(wo *sstable.WriterOptions) { wo.IsStrictObsolete = true }},
		{"allocator size classes", func(wo *sstable.WriterOptions) { wo.AllocatorSizeClasses = []int{4096, 8192} }},
	} {
		wo := writerOptions(db, true)
		if !canWriteKeyFile(wo) {
			t.Fatal("keyFile cannot write the store's tables")
		}
		c.change(&wo)
		if canWriteKeyFile(wo) {
			t.Errorf("%s: keyFile would write it", c.name)
		}
	}
}
