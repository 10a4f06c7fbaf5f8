package pebblekv

import (
	"bytes"
	"encoding/binary"
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

	"github.com/mneme-archive/mneme/internal/testenv"
)

// BenchmarkSortedFileFormat writes the same sorted index keys (a tag and
// four hash IDs, 33 bytes, no value: a quad in one ordering, about 17
// keys a subject) as a bulk load does, in row blocks (Pebble v4; the
// store's format major version writes v2, without v4's value prefix
// byte and obsolete-key property) and in the columnar formats of newer
// Pebble format versions, with Pebble's writer, and reports the CPU and
// the bytes a key (BenchmarkKeyFile compares the store's own writer):
//
//	go test ./graph/kv/pebblekv -run '^$' -bench SortedFileFormat -count 3
func BenchmarkSortedFileFormat(b *testing.B) {
	keys := indexKeys(1 << 20)
	for _, c := range []struct {
		name   string
		format sstable.TableFormat
		comp   *block.CompressionProfile
	}{
		{"rows-v4-snappy", sstable.TableFormatPebblev4, block.SnappyCompression},
		{"columnar-v5-snappy", sstable.TableFormatPebblev5, block.SnappyCompression},
		{"columnar-v6-minlz", sstable.TableFormatPebblev6, block.MinLZCompression},
	} {
		b.Run(c.name, func(b *testing.B) {
			opts := &pebble.Options{}
			opts.EnsureDefaults()
			wo := opts.MakeWriterOptions(len(opts.Levels)-1, c.format)
			wo.FilterPolicy = nil // as for the orderings read by range
			wo.Compression = c.comp
			path := filepath.Join(b.TempDir(), "f.sst")
			cpu0 := testenv.CPUTime()
			for b.Loop() {
				f, err := vfs.Default.Create(path, vfs.WriteCategoryUnspecified)
				if err != nil {
					b.Fatal(err)
				}
				w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), wo)
				raw := w.Raw()
				for _, k := range keys {
					ik := pebble.InternalKey{UserKey: k, Trailer: pebble.MakeInternalKeyTrailer(0, pebble.InternalKeyKindSet)}
					if err := raw.Add(ik, nil, false); err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			cpu := testenv.CPUTime() - cpu0
			fi, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*len(keys)), "cpu-ns/key")
			b.ReportMetric(float64(fi.Size())/float64(len(keys)), "B/key")
		})
	}
}

// indexKeys returns about n distinct sorted keys of an SPOG-like
// ordering: subjects, predicates and objects drawn from sets of hash IDs
// of a bulk load's proportions, one graph.
func indexKeys(n int) [][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	ids := func(k int) []uint64 {
		s := make([]uint64, k)
		for i := range s {
			s[i] = rng.Uint64()
		}
		return s
	}
	subjects, preds, objects := ids(n/17), ids(30), ids(n/5)
	g := rng.Uint64()
	keys := make([][]byte, 0, n)
	for range n {
		k := make([]byte, 0, 33)
		k = append(k, 's')
		for _, v := range []uint64{subjects[rng.IntN(len(subjects))], preds[rng.IntN(len(preds))], objects[rng.IntN(len(objects))], g} {
			k = binary.BigEndian.AppendUint64(k, v)
		}
		keys = append(keys, k)
	}
	slices.SortFunc(keys, bytes.Compare)
	keys = slices.CompactFunc(keys, bytes.Equal)
	// In one block, in order, as a load builds each key in turn in the
	// same buffer: a key a cache miss would weigh more than the writing.
	slab := make([]byte, 0, len(keys)*33)
	for i, k := range keys {
		slab = append(slab, k...)
		keys[i] = slab[len(slab)-len(k):]
	}
	return keys
}
