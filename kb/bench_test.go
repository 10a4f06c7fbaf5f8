package kb

import (
	"fmt"
	"testing"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// BenchmarkDetect measures Detect per page over the 260 saved pages
// (parsed beforehand: parsing is the crawler's cost, shared with link and
// object extraction) with the built-in KB plus the first N fingerprint
// technologies, N = 1, 100, 1,000 and all. Results go to
// docs/benchmarks.md, section "Application detection".
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
			for b.Loop() {
				for _, d := range docs {
					det.Detect(d)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(docs))/1e6, "ms/page")
		})
	}
}
