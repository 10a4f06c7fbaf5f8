package graph

import (
	"math/rand/v2"
	"testing"

	"github.com/mneme-archive/mneme/internal/testenv"
)

// groupQuads returns n quads shaped like a bulk import group's: subjects
// of some ten statements each, a few dozen predicates of uneven use,
// objects half unique literals and half shared resources (accounts,
// classes, tags), one graph; IDs spread like hashes.
func groupQuads(n int) []IDQuad {
	r := rand.New(rand.NewPCG(1, 2))
	preds := make([]ID, 40)
	for i := range preds {
		preds[i] = ID(r.Uint64())
	}
	shared := make([]ID, n/50+1)
	for i := range shared {
		shared[i] = ID(r.Uint64())
	}
	g := ID(r.Uint64())
	quads := make([]IDQuad, n)
	var s ID
	for i := range quads {
		if i%10 == 0 {
			s = ID(r.Uint64())
		}
		p := preds[min(r.IntN(len(preds)), r.IntN(len(preds)))] // the first ones more used
		o := ID(r.Uint64())
		if r.IntN(2) == 0 {
			o = shared[r.IntN(len(shared))]
		}
		quads[i] = IDQuad{s, p, o, g}
	}
	return quads
}

// BenchmarkSortGroup sorts a group of 2.3 million quads (the statements
// of a 100,000-post import group) in the three graph-last orderings and
// derives their graph-first twins, as commitSegment does:
//
//	go test ./graph -run '^$' -bench SortGroup -benchtime 5x
func BenchmarkSortGroup(b *testing.B) {
	quads := groupQuads(2300000)
	var keys, tmp []cols
	b.ResetTimer()
	cpu0 := testenv.CPUTime()
	for range b.N {
		for _, o := range []Order{SPOG, POSG, OSPG} {
			keys, tmp = sortRun(o, quads, keys, tmp)
			if !byGraph(keys, tmp[:len(keys)]) {
				b.Fatal("byGraph declined")
			}
		}
	}
	b.ReportMetric(float64((testenv.CPUTime()-cpu0).Nanoseconds())/float64(b.N)/float64(len(quads)), "cpu-ns/quad")
}

// BenchmarkMergeKeys merges a sorted group held in memory (no run files)
// and builds each distinct key as mergeOrder does, without writing it:
//
//	go test ./graph -run '^$' -bench MergeKeys -benchtime 5x
func BenchmarkMergeKeys(b *testing.B) {
	quads := groupQuads(2300000)
	keys, _ := sortRun(POSG, quads, nil, nil)
	fresh := makeIDSet(len(quads) / 4)
	for _, q := range quads[:len(quads)/4] {
		fresh.add(q.O)
	}
	var sink byte
	var k [keyWidth]byte
	b.ResetTimer()
	cpu0 := testenv.CPUTime()
	for range b.N {
		err := mergeRuns(nil, keys, fresh.has, func(c cols, old int) error {
			putIndexKey(&k, POSG, c)
			q := unpermute(POSG, c)
			sink ^= k[keyWidth-1] ^ byte(old) ^ byte(q.S)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((testenv.CPUTime()-cpu0).Nanoseconds())/float64(b.N)/float64(len(quads)), "cpu-ns/quad")
	_ = sink
}
