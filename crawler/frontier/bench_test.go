package frontier

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/internal/testenv"
)

// benchCandidates fills cs with distinct URLs number from..from+len(cs)-1,
// spread over hosts queues, scores in [0,1). It avoids fmt so that the
// measurement is mostly the frontier's.
func benchCandidates(cs []Candidate, from, hosts int) {
	var b []byte
	for i := range cs {
		n := from + i
		b = append(b[:0], "www.host"...)
		b = strconv.AppendInt(b, int64(n%hosts), 10)
		b = append(b, ".example.org"...)
		host := string(b)
		b = append(append(b[:0], "http://"...), host...)
		b = append(b, "/section/"...)
		b = strconv.AppendInt(b, int64(n/hosts%97), 10)
		b = append(b, '/')
		via := string(b)
		b = append(b, "article-"...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, ".html?ref="...)
		b = strconv.AppendInt(b, int64(n%7), 10)
		cs[i] = Candidate{URL: string(b), QueueKey: host, Score: float64(n%1000) / 1000, Hops: "LL", Via: via, Update: UpdateMax}
	}
}

// BenchmarkSchedule measures enqueues of new URLs in batches of 1000 (the
// outlinks of a few pages), including the seen-set passes.
func BenchmarkSchedule(b *testing.B) {
	for _, batch := range []int{1, 1 << 14, 1 << 16} {
		b.Run(fmt.Sprintf("SeenBatch=%d", batch), func(b *testing.B) { benchSchedule(b, batch) })
	}
}

func benchSchedule(b *testing.B, seenBatch int) {
	f, err := Open(b.TempDir(), Options{SeenBatch: seenBatch})
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	cs := make([]Candidate, 1000)
	b.ResetTimer()
	n := 0
	for n < b.N {
		k := min(len(cs), b.N-n)
		benchCandidates(cs[:k], n, 10000)
		if err := f.Schedule(cs[:k]); err != nil {
			b.Fatal(err)
		}
		n += k
	}
	if err := f.Flush(); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if got := f.Totals().Queued; got != int64(b.N) {
		b.Fatalf("queued %d, want %d", got, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "enqueues/s")
}

// BenchmarkClaimComplete measures one Next and one Complete (Succeeded) per
// operation, with and without the fsync of completions.
func BenchmarkClaimComplete(b *testing.B) {
	for _, noSync := range []bool{false, true} {
		b.Run(fmt.Sprintf("NoSyncCompletions=%v", noSync), func(b *testing.B) {
			f, err := Open(b.TempDir(), Options{Clock: &fakeClock{t: epoch}, NoSyncCompletions: noSync})
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			cs := make([]Candidate, 1000)
			for n := 0; n < b.N; n += len(cs) {
				benchCandidates(cs, n, 10000)
				if err := f.Schedule(cs); err != nil {
					b.Fatal(err)
				}
			}
			if err := f.Flush(); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				c, _, err := f.Next(context.Background())
				if err != nil || c == nil {
					b.Fatalf("Next: %v, %v", c, err)
				}
				if err := f.Complete(c.URL, Outcome{Status: Succeeded}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestLargeRun is the acceptance benchmark, run only when
// FRONTIER_LARGE_RUN is the number of URLs (e.g. 10000000): it schedules
// that many distinct URLs and reports the rate and peak RSS.
// FRONTIER_CACHE_MB and FRONTIER_SEEN_BATCH override the block cache size
// (default here 256) and Options.SeenBatch; FRONTIER_LARGE_DIR keeps the
// database in a given directory; FRONTIER_PEBBLE_METRICS logs Pebble's
// metrics (levels, compactions, write amplification) at the end.
func TestLargeRun(t *testing.T) {
	total, _ := strconv.Atoi(os.Getenv("FRONTIER_LARGE_RUN"))
	if total <= 0 {
		t.Skip("set FRONTIER_LARGE_RUN=<number of URLs> to run")
	}
	dir := os.Getenv("FRONTIER_LARGE_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	// A larger block cache than the default keeps more of the URL index
	// in memory; it is counted in the peak RSS reported.
	opts := Options{CacheSize: 256 << 20}
	if mb, _ := strconv.Atoi(os.Getenv("FRONTIER_CACHE_MB")); mb > 0 {
		opts.CacheSize = int64(mb) << 20
	}
	opts.SeenBatch, _ = strconv.Atoi(os.Getenv("FRONTIER_SEEN_BATCH"))
	f, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cs := make([]Candidate, 1000)
	start, cpuStart := time.Now(), testenv.CPUTime()
	for n := 0; n < total; n += len(cs) {
		k := min(len(cs), total-n)
		benchCandidates(cs[:k], n, 100000)
		if err := f.Schedule(cs[:k]); err != nil {
			t.Fatal(err)
		}
		if n%(total/10) < len(cs) {
			t.Logf("%d URLs after %v, VmHWM %s, CPU %v", n, time.Since(start).Round(time.Millisecond), vmHWM(t), testenv.CPUTime().Round(time.Millisecond))
		}
	}
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	cpuNew := testenv.CPUTime() - cpuStart
	// Rediscovering known URLs is the common case of a crawl: time a pass
	// of duplicates too.
	dupStart := time.Now()
	for n := 0; n < total/10; n += len(cs) {
		benchCandidates(cs, n*7%total, 100000)
		if err := f.Schedule(cs); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	dupElapsed := time.Since(dupStart)
	cpuDup := testenv.CPUTime() - cpuStart - cpuNew
	tot := f.Totals()
	if tot.Queued != int64(total) {
		t.Fatalf("queued %d, want %d", tot.Queued, total)
	}
	c, _, err := f.Next(context.Background())
	if err != nil || c == nil {
		t.Fatalf("Next after the run: %v, %v", c, err)
	}
	if os.Getenv("FRONTIER_PEBBLE_METRICS") != "" {
		t.Logf("Pebble metrics:\n%s", f.db.Metrics())
	}
	// The CPU time of each phase, per URL, includes Pebble's background
	// flushes and compactions while it ran (and generating the URLs).
	t.Logf("CPU per new URL %.2f µs, per rediscovery %.2f µs",
		float64(cpuNew.Microseconds())/float64(total), float64(cpuDup.Microseconds())/float64(total/10))
	t.Logf("%d URLs in %d queues: %v, %.0f enqueues/s; %d duplicates: %.0f/s; VmHWM %s; process CPU time %v",
		total, tot.Queues, elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds(),
		total/10, float64(total/10)/dupElapsed.Seconds(), vmHWM(t), testenv.CPUTime().Round(time.Millisecond))
}

// vmHWM is the peak resident set size of this process.
func vmHWM(t *testing.T) string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return ""
}
