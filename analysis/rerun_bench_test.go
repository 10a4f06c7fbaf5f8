package analysis

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/analysis/gencorpus"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
)

// addPosts adds the posts (with their comments) of a generated crawl of
// seed and size posts to crawl id's graph, as an incremental crawl's new
// captures would arrive, and returns how many texts they hold.
func addPosts(t testing.TB, st *graph.Store, id string, seed uint64, posts int) int {
	t.Helper()
	more := gencorpus.Generate(gencorpus.Config{Seed: seed, Crawls: 1, PostsPerCrawl: posts})
	from := "urn:mneme:crawl:" + more.Crawls[0].ID
	b := st.NewBatch()
	for _, q := range more.Quads(0) {
		if q.G.Value == from {
			if q.S.Value == from {
				continue
			}
			q.G = rdf.IRI(CrawlIRI(id))
		}
		b.Add(q)
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	return len(more.Crawls[0].Texts)
}

// settle waits (up to a minute) until the process is idle: the store
// compacts what the last run or the benchmark's own writes committed in
// the background, whose CPU would otherwise count as the next run's.
func settle() {
	for range 240 {
		c0 := cpuTime()
		time.Sleep(250 * time.Millisecond)
		if cpuTime()-c0 < 10*time.Millisecond {
			return
		}
	}
}

// BenchmarkRerun measures what an incremental rerun costs against the
// size of the crawl: a generated archive of two crawls of
// MNEME_RERUN_POSTS new posts each (default 1,000) is analysed, then
// MNEME_RERUN_NEW posts (default 30, with their comments) are added to
// the second crawl, whose analysis runs again; and once more with ten
// times as many. It logs the first run of the crawl and each rerun,
// wall and CPU, by stage, each once the process is idle (settle).
// MNEME_RERUN_PROFILE names a file for a CPU
// profile of the reruns alone; MNEME_RERUN_ONCE leaves out the second.
func BenchmarkRerun(b *testing.B) {
	posts, fresh := 1000, 30
	if n, err := strconv.Atoi(os.Getenv("MNEME_RERUN_POSTS")); err == nil && n > 0 {
		posts = n
	}
	if n, err := strconv.Atoi(os.Getenv("MNEME_RERUN_NEW")); err == nil && n > 0 {
		fresh = n
	}
	c := gencorpus.Generate(gencorpus.Config{Seed: 211, Crawls: 2, PostsPerCrawl: posts})
	last := c.Crawls[len(c.Crawls)-1]
	for range b.N {
		b.StopTimer()
		st := loadCorpus(b, c)
		b.StartTimer()
		run := func(what string) {
			b.StopTimer()
			settle()
			b.StartTimer()
			c0, w0 := cpuTime(), time.Now()
			rep, err := Run(context.Background(), Options{Store: st, Crawl: last.ID})
			if err != nil {
				b.Fatal(err)
			}
			var stages []string
			for _, s := range rep.Stages {
				stages = append(stages, fmt.Sprintf("%s %.3f", s.Stage, s.Elapsed.Seconds()))
			}
			b.Logf("%s: %d captures, %d texts read; %.3f s wall, %.3f s CPU; stages (s wall): %s; written anew: %d entities, %d texts' topics, %d versions",
				what, rep.Captures, rep.Texts, time.Since(w0).Seconds(), (cpuTime() - c0).Seconds(), strings.Join(stages, ", "),
				rep.Updated.Entities, rep.Updated.Texts, rep.Updated.Versions)
		}
		if _, err := Run(context.Background(), Options{Store: st, Crawl: c.Crawls[0].ID}); err != nil {
			b.Fatal(err)
		}
		run("first run of the crawl (" + strconv.Itoa(len(last.Texts)) + " texts)")
		if prof := os.Getenv("MNEME_RERUN_PROFILE"); prof != "" {
			f, err := os.Create(prof)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			if err := pprof.StartCPUProfile(f); err != nil {
				b.Fatal(err)
			}
			defer pprof.StopCPUProfile()
		}
		steps := []int{fresh, 10 * fresh}
		if os.Getenv("MNEME_RERUN_ONCE") != "" {
			steps = steps[:1]
		}
		for i, n := range steps {
			b.StopTimer()
			texts := addPosts(b, st, last.ID, uint64(300+i), n)
			b.StartTimer()
			run("rerun after " + strconv.Itoa(n) + " new posts (" + strconv.Itoa(texts) + " texts)")
		}
	}
}
