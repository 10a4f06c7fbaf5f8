package analysis

import (
	"context"
	"github.com/mneme-archive/mneme/internal/testenv"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/analysis/gencorpus"
	"github.com/mneme-archive/mneme/analysis/nlp"
	"github.com/mneme-archive/mneme/rdf"
)

// BenchmarkNLP measures the text stage alone: nlp.Analyze on the texts
// of a generated crawl, one goroutine.
func BenchmarkNLP(b *testing.B) {
	c := gencorpus.Generate(gencorpus.Config{Seed: 201, Crawls: 1, PostsPerCrawl: 300})
	a := nlp.NewAnalyzer(nil, nlp.Options{})
	texts := c.Crawls[0].Texts
	var bytes int64
	for _, t := range texts {
		bytes += int64(len(t.Content))
	}
	b.ResetTimer()
	cpu0 := testenv.CPUTime()
	for range b.N {
		for _, t := range texts {
			a.Analyze(t.Content)
		}
	}
	s := b.Elapsed().Seconds()
	cpu := (testenv.CPUTime() - cpu0).Seconds()
	b.ReportMetric(float64(b.N*len(texts))/s, "texts/s")
	b.ReportMetric(float64(int64(b.N)*bytes)/s/1e6, "MB/s")
	b.ReportMetric(1000*cpu/float64(b.N*len(texts)), "cpu-ms/text")
}

// BenchmarkPipeline measures a whole analysis job per stage on a
// generated archive of four crawls (GOMAXPROCS workers), then the cost
// of an incremental rerun: the last crawl's graph grows by a tenth more
// captures (as an incremental crawl's would) and the job runs again.
func BenchmarkPipeline(b *testing.B) {
	c := gencorpus.Generate(gencorpus.Config{Seed: 202, Crawls: 4, PostsPerCrawl: 300})
	for range b.N {
		b.StopTimer()
		st := loadCorpus(b, c)
		b.StartTimer()
		var texts int
		var bytes int64
		stages := map[string]time.Duration{}
		t0, cpu0 := time.Now(), testenv.CPUTime()
		for _, cr := range c.Crawls {
			c0, w0 := testenv.CPUTime(), time.Now()
			rep, err := Run(context.Background(), Options{Store: st, Crawl: cr.ID})
			if err != nil {
				b.Fatal(err)
			}
			b.Logf("crawl %s: %d texts, %.2f s wall, %.2f s CPU", cr.ID, rep.Texts, time.Since(w0).Seconds(), (testenv.CPUTime() - c0).Seconds())
			texts += rep.Texts
			bytes += rep.Bytes
			for _, s := range rep.Stages {
				stages[s.Stage] += s.Elapsed
			}
		}
		all, cpu := time.Since(t0).Seconds(), (testenv.CPUTime() - cpu0).Seconds()
		b.ReportMetric(float64(texts)/all, "texts/s")
		b.ReportMetric(float64(bytes)/all/1e6, "MB/s")
		b.ReportMetric(1000*cpu/float64(texts), "cpu-ms/text")
		for s, d := range stages {
			b.Logf("stage %-24s %6.2f s  %8.0f texts/s  %7.3f MB/s", s, d.Seconds(), float64(texts)/d.Seconds(), float64(bytes)/d.Seconds()/1e6)
		}
		b.Logf("whole job: %d texts, %.2f MB in %.2f s wall, %.2f s CPU (%.2f ms CPU per text)", texts, float64(bytes)/1e6, all, cpu, 1000*cpu/float64(texts))

		// The incremental rerun: 30 more posts with their comments in the
		// last crawl's graph.
		b.StopTimer()
		more := gencorpus.Generate(gencorpus.Config{Seed: 203, Crawls: 1, PostsPerCrawl: 30})
		last := c.Crawls[len(c.Crawls)-1]
		batch := st.NewBatch()
		for _, q := range more.Quads(0) {
			if q.G.Value == "urn:mneme:crawl:"+more.Crawls[0].ID {
				q.G = rdf.IRI(CrawlIRI(last.ID))
				if q.S.Value == q.G.Value || q.S.Value == "urn:mneme:crawl:"+more.Crawls[0].ID {
					continue
				}
			}
			batch.Add(q)
		}
		if _, err := batch.Commit(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		t1, cpu1 := time.Now(), testenv.CPUTime()
		rep, err := Run(context.Background(), Options{Store: st, Crawl: last.ID})
		if err != nil {
			b.Fatal(err)
		}
		var textStage time.Duration
		for _, s := range rep.Stages {
			if s.Stage == "texts" {
				textStage = s.Elapsed
			}
		}
		b.Logf("incremental rerun: %d new captures, %d texts read; %.2f s wall (texts stage %.2f s), %.2f s CPU (first run of that crawl: %d texts)",
			rep.Captures, rep.Texts, time.Since(t1).Seconds(), textStage.Seconds(), (testenv.CPUTime() - cpu1).Seconds(), len(last.Texts))
	}
}
