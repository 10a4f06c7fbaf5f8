package kb

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// BenchmarkDetect measures Detect per page over the 260 saved pages with
// the built-in KB plus the first N fingerprint technologies, N = 0, 1,
// 100, 1,000 and all. Pages are parsed beforehand (parsing is the
// crawler's cost, shared with link and object extraction) but each
// detection starts from a document without its element index, so the walk
// that builds it is counted. Reported: the mean (ns/op is per pass over
// all pages), the median wall time per page, and the median CPU time of
// the benchmark's thread per page, which a loaded machine inflates less.
// Results go to docs/benchmarks.md, section "Application detection".
func BenchmarkDetect(b *testing.B) {
	dir, pages := loadLabels(b)
	docs := make([]*vdoc.Doc, len(pages))
	for i, p := range pages {
		docs[i] = pageDoc(b, dir, p)
	}
	k := builtinKB(b)
	full := loadFingerprints(b)
	for _, n := range []int{0, 1, 100, 1000, full.Stats.Technologies} {
		det := NewDetector(k, full.Subset(n))
		if n == 0 {
			det = NewDetector(k, nil)
		}
		b.Run(fmt.Sprintf("types=%d", len(k.Types)+n), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var wall, cpu []time.Duration
			for b.Loop() {
				wall, cpu = wall[:0], cpu[:0]
				for _, d := range docs {
					fresh := &vdoc.Doc{URL: d.URL, Base: d.Base, Header: d.Header, Root: d.Root, HTTP: d.HTTP,
						Cookies: d.Cookies, Body: d.Body}
					c0, t0 := threadCPU(), time.Now()
					det.Detect(fresh)
					wall = append(wall, time.Since(t0))
					cpu = append(cpu, threadCPU()-c0)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(docs))/1e6, "ms/page")
			b.ReportMetric(median(wall).Seconds()*1e3, "median-ms/page")
			b.ReportMetric(median(cpu).Seconds()*1e3, "median-cpu-ms/page")
		})
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// threadCPU is the CPU time the calling OS thread has used.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		panic(err)
	}
	return time.Duration(ts.Nano())
}
