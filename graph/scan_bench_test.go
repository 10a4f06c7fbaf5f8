package graph

import (
	"context"
	"fmt"
	"github.com/mneme-archive/mneme/internal/testenv"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// benchData is a store with one predicate's range to scan and subjects
// to look up with it.
type benchData struct {
	s        *Store
	pred     ID
	subjects []ID
}

// openBenchData opens the LUBM store named by MNEME_LUBM_STORE (read-only;
// the range is ub:memberOf) or else loads a synthetic store of 400,000
// quads: 100,000 subjects with four predicates each.
func openBenchData(b *testing.B) benchData {
	b.Helper()
	ctx := context.Background()
	var s *Store
	var pred rdf.Term
	if dir := os.Getenv("MNEME_LUBM_STORE"); dir != "" {
		var err error
		if s, err = Open(dir, OpenOptions{ReadOnly: true}); err != nil {
			b.Fatal(err)
		}
		pred = rdf.IRI("http://www.lehigh.edu/~zhp2/2004/0401/univ-bench.owl#memberOf")
	} else {
		dir := b.TempDir()
		var err error
		if s, err = Open(dir, OpenOptions{}); err != nil {
			b.Fatal(err)
		}
		l, err := s.NewLoader(ctx, LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		w := l.NewWorker()
		for i := range 100_000 {
			for p := range 4 {
				q := rdf.Quad{S: rdf.IRI(fmt.Sprintf("http://e.org/s%d", i)), P: rdf.IRI(fmt.Sprintf("http://e.org/p%d", p)),
					O: rdf.IRI(fmt.Sprintf("http://e.org/o%d", (i*7+p)%5000))}
				if err := w.Add([]rdf.Quad{q}); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		if _, err := l.Commit(); err != nil {
			b.Fatal(err)
		}
		pred = rdf.IRI("http://e.org/p0")
	}
	b.Cleanup(func() { _ = s.Close() })
	p, ok, err := s.Lookup(pred)
	if err != nil || !ok {
		b.Fatalf("lookup %v: %v %v", pred, ok, err)
	}
	d := benchData{s: s, pred: p}
	it, err := uncached(s.View).Scan(ctx, Pattern{P: p}, ScanOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer it.Close()
	for it.Next() {
		d.subjects = append(d.subjects, it.Quad().S)
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(d.subjects), func(i, j int) {
		d.subjects[i], d.subjects[j] = d.subjects[j], d.subjects[i]
	})
	return d
}

// scanCount scans pat to its end and returns the number of quads.
func scanCount(b *testing.B, v *View, pat Pattern) int {
	it, err := v.Scan(context.Background(), pat, ScanOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer it.Close()
	n := 0
	for it.Next() {
		n++
	}
	if err := it.Err(); err != nil {
		b.Fatal(err)
	}
	return n
}

// lookups runs one Reset per subject (pattern s p) on one reused scan, as
// an index nested-loop join does, and returns the quads found.
func lookups(b *testing.B, v *View, d benchData, subjects []ID) int {
	it, err := v.Scan(context.Background(), Pattern{}, ScanOptions{Order: SPOG})
	if err != nil {
		b.Fatal(err)
	}
	defer it.Close()
	n := 0
	for _, s := range subjects {
		if err := it.Reset(Pattern{S: s, P: d.pred}); err != nil {
			b.Fatal(err)
		}
		for it.Next() {
			n++
		}
	}
	if err := it.Err(); err != nil {
		b.Fatal(err)
	}
	return n
}

// BenchmarkWarmScan compares, in one run, the warm per-key cost of a
// predicate's range scan and the warm cost of a lookup (a Reset to an
// s p prefix and its scan) read from the store and from the posting
// cache.
func BenchmarkWarmScan(b *testing.B) {
	d := openBenchData(b)
	views := []struct {
		name string
		v    *View
	}{{"store", uncached(d.s.View)}, {"cache", d.s.View}}
	for _, view := range views {
		b.Run("scan/"+view.name, func(b *testing.B) {
			n := scanCount(b, view.v, Pattern{P: d.pred}) // warms either
			cpu := testenv.CPUTime()
			for b.Loop() {
				scanCount(b, view.v, Pattern{P: d.pred})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
			b.ReportMetric(float64((testenv.CPUTime()-cpu).Nanoseconds())/float64(b.N*n), "cpu-ns/key")
		})
	}
	subjects := d.subjects[:min(len(d.subjects), 20_000)]
	for _, view := range views {
		b.Run("lookup/"+view.name, func(b *testing.B) {
			lookups(b, view.v, d, subjects)
			cpu := testenv.CPUTime()
			for b.Loop() {
				lookups(b, view.v, d, subjects)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(subjects)), "ns/lookup")
			b.ReportMetric(float64((testenv.CPUTime()-cpu).Nanoseconds())/float64(b.N*len(subjects)), "cpu-ns/lookup")
		})
	}
}
