package sparql_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/sparql"
)

// TestLUBM runs the LUBM queries on a store already loaded with
// lubm-univ8-seed0.nt.gz (mneme load --store DIR ...), named by
// MNEME_LUBM_STORE, checks the row counts of EXPECTED.txt and logs the
// warm timings and the --explain of q2. Without the variable it is
// skipped: loading a million triples is not a unit test.
func TestLUBM(t *testing.T) {
	dir := os.Getenv("MNEME_LUBM_STORE")
	if dir == "" {
		t.Skip("MNEME_LUBM_STORE is not set (a store loaded with lubm-univ8-seed0.nt.gz)")
	}
	lubm := testenv.Path(t, "data", "bench", "lubm")
	expected, err := os.ReadFile(filepath.Join(lubm, "EXPECTED.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	// The LUBM(8) section: "  name.rq -> N rows" and qc's "?c = N".
	for _, m := range regexp.MustCompile(`(?m)^\s+(\S+\.rq) -> (\d+) rows`).FindAllStringSubmatch(string(expected), -1) {
		if _, dup := want[m[1]]; !dup {
			want[m[1]], _ = strconv.Atoi(m[2])
		}
	}
	s, err := graph.Open(dir, graph.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	names := []string{"q1.rq", "q2.rq", "qc.rq"}
	for _, n := range []string{"01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "11b", "12", "13", "14"} {
		names = append(names, "lubm-q"+n+".rq")
	}
	for _, name := range names {
		src, err := os.ReadFile(filepath.Join(lubm, name))
		if err != nil {
			t.Fatal(err)
		}
		q, err := sparql.Prepare(string(src), sparql.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var rows int
		var cold, warm time.Duration
		for run := range 2 {
			start := time.Now()
			rows = count(t, q, s.View)
			if run == 0 {
				cold = time.Since(start)
			} else {
				warm = time.Since(start)
			}
		}
		if w, ok := want[name]; ok && rows != w {
			t.Errorf("%s: %d rows, want %d", name, rows, w)
		}
		t.Logf("%-14s %7d rows  cold %8s  warm %8s", name, rows, cold.Round(time.Microsecond), warm.Round(time.Microsecond))
		if name == "q2.rq" {
			out, err := q.Explain(context.Background(), s.View, true)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("explain q2:\n%s", out)
		}
	}
}

func count(t testing.TB, q *sparql.Query, v *graph.View) int {
	t.Helper()
	r, err := q.Exec(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := 0
	for r.Next() {
		n++
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

// BenchmarkLUBM runs each LUBM query warm on the store named by
// MNEME_LUBM_STORE (see TestLUBM), one sub-benchmark per query, so that
// a profile (-cpuprofile) covers exactly the queries picked with -bench.
func BenchmarkLUBM(b *testing.B) {
	dir := os.Getenv("MNEME_LUBM_STORE")
	if dir == "" {
		b.Skip("MNEME_LUBM_STORE is not set (a store loaded with lubm-univ8-seed0.nt.gz)")
	}
	lubm := testenv.Path(b, "data", "bench", "lubm")
	s, err := graph.Open(dir, graph.OpenOptions{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	names := []string{"q1", "q2", "qc"}
	for _, n := range []string{"01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "11b", "12", "13", "14"} {
		names = append(names, "lubm-q"+n)
	}
	for _, name := range names {
		src, err := os.ReadFile(filepath.Join(lubm, name+".rq"))
		if err != nil {
			b.Fatal(err)
		}
		q, err := sparql.Prepare(string(src), sparql.Options{})
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		b.Run(name, func(b *testing.B) {
			cpu := testenv.CPUTime()
			for b.Loop() {
				count(b, q, s.View)
			}
			// CPU time per query, GC workers included: the machine is
			// shared, so wall time alone says little.
			b.ReportMetric(float64((testenv.CPUTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkQueryFiles runs the queries of the files matching the glob
// MNEME_BENCH_QUERIES warm on the store MNEME_BENCH_STORE, one
// sub-benchmark per file, reporting CPU time per query as BenchmarkLUBM
// does (for profiling a workload such as scripts/bench/queries/lubm-features).
func BenchmarkQueryFiles(b *testing.B) {
	dir, glob := os.Getenv("MNEME_BENCH_STORE"), os.Getenv("MNEME_BENCH_QUERIES")
	if dir == "" || glob == "" {
		b.Skip("MNEME_BENCH_STORE and MNEME_BENCH_QUERIES are not set")
	}
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		b.Fatalf("no query files match %s (%v)", glob, err)
	}
	s, err := graph.Open(dir, graph.OpenOptions{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		q, err := sparql.Prepare(string(src), sparql.Options{})
		if err != nil {
			b.Fatalf("%s: %v", f, err)
		}
		b.Run(strings.TrimSuffix(filepath.Base(f), ".rq"), func(b *testing.B) {
			cpu := testenv.CPUTime()
			for b.Loop() {
				count(b, q, s.View)
			}
			b.ReportMetric(float64((testenv.CPUTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
