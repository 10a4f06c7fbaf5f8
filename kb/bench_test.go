package kb

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mneme-archive/mneme/internal/synthweb"
	"github.com/mneme-archive/mneme/kb/fingerprint"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// naiveEvery picks the pages the naive peer runs on (every naiveEvery-th),
// which tries every fingerprint regex on every page.
const naiveEvery = 20

// BenchmarkDetect measures Detect per page over the 260 saved pages with
// the built-in KB plus the first N fingerprint technologies, N = 0, 1,
// 100, 1,000 and all ("indexed"; unit @types=N, N counting the KB's
// types too), and plus the technologies the pages hold, alone and with
// 1,000 they lack (@held-types=N). With more technologies loaded, more
// are found on the pages, and matching what a page holds is work no
// index spares; the second series keeps that work the same and shows
// what the technologies a page lacks cost. On every 20th page, a naive
// peer ("naive"): each type's patterns tried in turn until one fires,
// with no literal index, and every fingerprint pattern on the whole of
// its field (fingerprint.Set.MatchExhaustive). Pages are parsed
// beforehand (parsing is the crawler's cost, shared with link and object
// extraction) but each detection starts from a document without its
// element index, so the walk that builds it and the lower-casing of the
// markup are counted.
//
// The indexed detectors are measured in one sub-benchmark, each of its
// iterations running every detector over all pages, in an order that
// turns by one detector an iteration: this machine's speed drifts by a
// quarter within minutes, which would tilt detectors measured one after
// the other, and interleaving them puts each under the same drift.
// Reported per detector: the median and 90th percentile of the CPU time
// of the benchmark's thread over all iterations' pages (what a loaded
// machine inflates least), the median wall time, and (first series) the
// median CPU time over the naive peer's pages. The naive peer, a
// thousand times slower, runs after, a sub-benchmark per configuration
// of the first series. Results go to docs/benchmarks.md, section
// "Application detection", by scripts/bench-detect.sh.
func BenchmarkDetect(b *testing.B) {
	dir, pages := loadLabels(b)
	docs := make([]*vdoc.Doc, len(pages))
	for i, p := range pages {
		docs[i] = pageDoc(b, dir, p)
	}
	var few []*vdoc.Doc
	for i := 0; i < len(docs); i += naiveEvery {
		few = append(few, docs[i])
	}
	k := builtinKB(b)
	full := loadFingerprints(b)
	// Two series of sets: the first N technologies by name, and (built
	// for the indexed detectors only) the technologies the pages hold,
	// found with all loaded, alone and with 1,000 of the others (all of
	// them is the whole set again), which keeps the technologies found
	// per page the same and varies only the number loaded that the pages
	// lack.
	type config struct {
		label string // in the metrics' unit: types=N or held-types=N
		fp    *fingerprint.Set
	}
	var configs []config
	for _, n := range []int{0, 1, 100, 1000, full.Stats.Technologies} {
		var fp *fingerprint.Set
		switch {
		case n == full.Stats.Technologies:
			fp = full
		case n > 0:
			fp = full.Subset(fingerprint.First(n))
		}
		configs = append(configs, config{"types", fp})
	}
	types := func(c config) int {
		if c.fp == nil {
			return len(k.Types)
		}
		return len(k.Types) + c.fp.Stats.Technologies
	}
	b.Run("indexed", func(b *testing.B) {
		configs := slices.Clip(configs) // the held series is appended here only
		held := map[string]bool{}
		all := NewDetector(k, full)
		for _, d := range docs {
			for _, m := range all.Detect(fresh(d)).Technologies {
				held[m.Name] = true
			}
		}
		for _, others := range []int{0, 1000} {
			fp := full.Subset(func(name string) bool {
				if held[name] {
					return true
				}
				others--
				return others >= 0
			})
			configs = append(configs, config{"held-types", fp})
		}
		var dets []*Detector
		for _, c := range configs {
			if c.fp == full {
				dets = append(dets, all)
				continue
			}
			dets = append(dets, NewDetector(k, c.fp))
		}
		wall := make([][]time.Duration, len(dets))
		cpu := make([][]time.Duration, len(dets))
		round := 0
		runtime.GC() // the detectors' construction is not theirs to pay
		for b.Loop() {
			for j := range dets {
				i := (round + j) % len(dets)
				w, c := perPage(docs, func(d *vdoc.Doc) { dets[i].Detect(d) })
				wall[i], cpu[i] = append(wall[i], w...), append(cpu[i], c...)
			}
			round++
		}
		for i, c := range configs {
			var sub []time.Duration
			for j := 0; j < len(cpu[i]); j += naiveEvery {
				sub = append(sub, cpu[i][j])
			}
			at := fmt.Sprintf("@%s=%d", c.label, types(c))
			b.ReportMetric(quantile(cpu[i], 0.5).Seconds()*1e3, "median-cpu-ms/page"+at)
			b.ReportMetric(quantile(cpu[i], 0.9).Seconds()*1e3, "p90-cpu-ms/page"+at)
			b.ReportMetric(quantile(wall[i], 0.5).Seconds()*1e3, "median-ms/page"+at)
			if c.label == "types" {
				b.ReportMetric(quantile(sub, 0.5).Seconds()*1e3, "median-cpu-ms/naive-page"+at)
			}
		}
	})
	for _, c := range configs {
		fp := c.fp
		b.Run(fmt.Sprintf("naive/types=%d", types(c)), func(b *testing.B) {
			var wall, cpu []time.Duration
			for b.Loop() {
				wall, cpu = perPage(few, func(d *vdoc.Doc) { naiveDetect(k, fp, d) })
			}
			b.ReportMetric(quantile(cpu, 0.5).Seconds()*1e3, "median-cpu-ms/page")
			b.ReportMetric(quantile(cpu, 0.9).Seconds()*1e3, "p90-cpu-ms/page")
			b.ReportMetric(quantile(wall, 0.5).Seconds()*1e3, "median-ms/page")
		})
	}
}

// perPage runs detect on each of docs, each on a fresh document, and
// returns the wall and CPU (of the calling thread) times of each.
func perPage(docs []*vdoc.Doc, detect func(*vdoc.Doc)) (wall, cpu []time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, d := range docs {
		d = fresh(d)
		c0, t0 := threadCPU(), time.Now()
		detect(d)
		wall = append(wall, time.Since(t0))
		cpu = append(cpu, threadCPU()-c0)
	}
	return wall, cpu
}

// fresh returns a copy of d without its element index or lower-cased
// markup, as a page is before its first detection.
func fresh(d *vdoc.Doc) *vdoc.Doc {
	return &vdoc.Doc{URL: d.URL, Base: d.Base, Header: d.Header, Root: d.Root, HTTP: d.HTTP, Cookies: d.Cookies, Body: d.Body}
}

// naiveDetect is detection without an index: every type's patterns in
// turn until one fires, and every fingerprint pattern on its whole field.
// It returns the type Detect would name by the knowledge base (the one
// whose fired pattern comes earliest in its list, then the first), with
// that pattern, and the technologies found.
func naiveDetect(k *KB, fp *fingerprint.Set, doc *vdoc.Doc) (*Type, *Pattern, []fingerprint.Match) {
	var typ *Type
	var pat *Pattern
	rank := 0
	markup, _ := doc.Lower()
	for _, t := range k.Types {
		all := make([]int, len(t.Detect))
		for i := range all {
			all[i] = i
		}
		ev := Evidence(t, all, func(p *Pattern) bool { return p.MatchIndexed(doc.Root, doc) })
		var own *SiteFiles
		for _, sf := range t.SiteFiles {
			if sf.Holds(doc, markup) {
				own = sf
				ev = ev.with("asset")
				break
			}
		}
		if ev.Confidence < MinConfidence && !t.structured(doc) {
			continue
		}
		p, pi := own, len(t.Detect) // the site's files rank last
		var pp *Pattern
		if p != nil {
			pp = p.Pattern
		}
		for i, q := range t.Detect {
			if q.MatchIndexed(doc.Root, doc) {
				pp, pi = q, i
				break
			}
		}
		if pp != nil && (typ == nil || pi < rank) {
			typ, pat, rank = t, pp, pi
		}
	}
	var techs []fingerprint.Match
	if fp != nil {
		techs = fp.MatchExhaustive(doc)
	}
	return typ, pat, techs
}

// quantile returns the q-quantile of ds (nearest rank).
func quantile(ds []time.Duration, q float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// threadCPU is the CPU time the calling OS thread has used.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		panic(err)
	}
	return time.Duration(ts.Nano())
}

// BenchmarkPossible measures Possible, the crawl's detection prefilter
// with the knowledge base alone, on the heads (vdoc.Head: unparsed) of
// the 260 saved pages and of 300 pages of the generated site the crawl
// benchmark fetches, each call on a fresh document. Reported: the median
// over iterations of the benchmark thread's CPU time per byte of markup.
func BenchmarkPossible(b *testing.B) {
	dir, pages := loadLabels(b)
	var saved [][2]string
	for _, p := range pages {
		body, err := os.ReadFile(filepath.Join(dir, p.file))
		if err != nil {
			b.Fatal(err)
		}
		saved = append(saved, [2]string{"file:///" + p.file, string(body)})
	}
	site := synthweb.NewBigSite(synthweb.BigOptions{Pages: 300})
	var generated [][2]string
	for i := range 300 {
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest("GET", site.Path(i), nil))
		generated = append(generated, [2]string{"http://127.0.0.1" + site.Path(i), rec.Body.String()})
	}
	det := NewDetector(builtinKB(b), nil)
	for _, set := range []struct {
		name  string
		pages [][2]string
	}{{"saved", saved}, {"generated", generated}} {
		heads := make([]*vdoc.Doc, len(set.pages))
		size := 0
		for i, p := range set.pages {
			h, err := vdoc.Head(p[0], nil, []byte(p[1]))
			if err != nil {
				b.Fatal(err)
			}
			heads[i] = h
			size += len(p[1])
		}
		b.Run("pages="+set.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.SetBytes(int64(size))
			var cpu []time.Duration
			for b.Loop() {
				c0 := threadCPU()
				for _, h := range heads {
					det.Possible(&vdoc.Doc{URL: h.URL, Base: h.Base, Header: h.Header, Root: h.Root, HTTP: h.HTTP,
						Cookies: h.Cookies, Body: h.Body})
				}
				cpu = append(cpu, threadCPU()-c0)
			}
			b.ReportMetric(float64(quantile(cpu, 0.5).Nanoseconds())/float64(size), "median-cpu-ns/byte")
		})
	}
}
