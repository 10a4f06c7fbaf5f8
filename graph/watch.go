package graph

import (
	"context"
	"math/bits"

	"github.com/mneme-archive/mneme/graph/kv"
)

// watchedStore is the store's backend as every writer of the package uses
// it: batches and ingests announce themselves to the posting cache and
// mark what they change before they apply, so that cached posting lists
// they make stale are no longer served.
type watchedStore struct {
	kv.Store
	pc *postingCache
}

func (w watchedStore) NewBatch() kv.Batch {
	return &watchedBatch{Batch: w.Store.NewBatch(), pc: w.pc}
}

// Ingest may add any key (a load's sorted files), so it invalidates every
// posting list.
func (w watchedStore) Ingest(ctx context.Context, paths []string) error {
	g := w.pc.beginWrite()
	defer w.pc.endWrite()
	raise(&w.pc.all, g)
	return w.Store.Ingest(ctx, paths)
}

// watchedBatch notes which mark buckets its index keys fall in (a bit
// set, so that memory does not grow with the batch) and marks them at
// Commit.
type watchedBatch struct {
	kv.Batch
	pc      *postingCache
	buckets []uint64 // bit set over markBuckets, nil until an index key
}

func (b *watchedBatch) note(key []byte) {
	if len(key) != keyWidth || key[0] < tagSPOG || key[0] > tagGOSP {
		return
	}
	if b.buckets == nil {
		b.buckets = make([]uint64, markBuckets/64)
	}
	for _, n := range prefixLens {
		i := b.pc.bucketIndex(key[:n])
		b.buckets[i/64] |= 1 << (i % 64)
	}
}

func (b *watchedBatch) Set(key, value []byte) {
	b.note(key)
	b.Batch.Set(key, value)
}

func (b *watchedBatch) Delete(key []byte) {
	b.note(key)
	b.Batch.Delete(key)
}

func (b *watchedBatch) Commit() error {
	if b.buckets == nil {
		return b.Batch.Commit()
	}
	g := b.pc.beginWrite()
	defer b.pc.endWrite()
	for w, word := range b.buckets {
		for ; word != 0; word &= word - 1 {
			raise(&b.pc.marks[w*64+bits.TrailingZeros64(word)], g)
		}
	}
	return b.Batch.Commit()
}
