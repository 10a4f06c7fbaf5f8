package analysis

import (
	"context"
	"fmt"
	"github.com/mneme-archive/mneme/internal/testenv"
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
		c0 := testenv.CPUTime()
		time.Sleep(250 * time.Millisecond)
		if testenv.CPUTime()-c0 < 10*time.Millisecond {
			return
		}
	}
}

// BenchmarkRerun measures what an incremental rerun costs against the
// size of the crawl, on crawls of two sizes in the same run: for each
// size, a generated archive of two crawls of MNEME_RERUN_POSTS new posts
// each (default 1,000) times the scale (MNEME_RERUN_SCALES, default
// "1,2") is analysed, then MNEME_RERUN_NEW posts (default 30, with their
// comments) are added to the second crawl, whose analysis runs again,
// three times; and once more with ten times as many; and once with
// nothing new, which rewrites the topic terms the reruns left outdated
// (see Options.TopicRefresh). It logs the first run of the crawl
// and each rerun, wall and CPU, by stage, each once the process is idle
// (settle), and a table of the CPU of each run by crawl size: a rerun
// that costs the new captures only costs the same on every size.
// MNEME_RERUN_PROFILE=FILE writes a CPU profile of the first rerun of
// each size to FILE.SCALE.rerun, and of the run with nothing new to
// FILE.SCALE.drain; MNEME_RERUN_ONCE runs the first rerun only.
func BenchmarkRerun(b *testing.B) {
	posts, fresh := 1000, 30
	if n, err := strconv.Atoi(os.Getenv("MNEME_RERUN_POSTS")); err == nil && n > 0 {
		posts = n
	}
	if n, err := strconv.Atoi(os.Getenv("MNEME_RERUN_NEW")); err == nil && n > 0 {
		fresh = n
	}
	scales := []int{1, 2}
	if v := os.Getenv("MNEME_RERUN_SCALES"); v != "" {
		scales = nil
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n <= 0 {
				b.Fatalf("MNEME_RERUN_SCALES=%q: want positive integers separated by commas", v)
			}
			scales = append(scales, n)
		}
	}
	// Three small reruns: the topic terms a rerun rewrites beyond its own
	// texts' come in steps (see coarse), bounded over the runs rather
	// than in each.
	steps := []int{fresh, fresh, fresh, 10 * fresh}
	if os.Getenv("MNEME_RERUN_ONCE") != "" {
		steps = steps[:1]
	}
	type row struct {
		texts int
		cpu   []float64 // first run, then each rerun
	}
	var rows []row
	for range b.N {
		rows = rows[:0]
		for _, scale := range scales {
			b.StopTimer()
			c := gencorpus.Generate(gencorpus.Config{Seed: 211, Crawls: 2, PostsPerCrawl: posts * scale})
			last := c.Crawls[len(c.Crawls)-1]
			st := loadCorpus(b, c)
			b.StartTimer()
			rw := row{texts: len(last.Texts)}
			run := func(what string, profile string) {
				b.StopTimer()
				settle()
				if profile != "" && os.Getenv("MNEME_RERUN_PROFILE") != "" {
					f, err := os.Create(os.Getenv("MNEME_RERUN_PROFILE") + "." + strconv.Itoa(scale) + profile)
					if err != nil {
						b.Fatal(err)
					}
					defer f.Close()
					if err := pprof.StartCPUProfile(f); err != nil {
						b.Fatal(err)
					}
					defer pprof.StopCPUProfile()
				}
				b.StartTimer()
				c0, w0 := testenv.CPUTime(), time.Now()
				rep, err := Run(context.Background(), Options{Store: st, Crawl: last.ID})
				if err != nil {
					b.Fatal(err)
				}
				cpu := (testenv.CPUTime() - c0).Seconds()
				rw.cpu = append(rw.cpu, cpu)
				var stages []string
				for _, s := range rep.Stages {
					stages = append(stages, fmt.Sprintf("%s %.3f", s.Stage, s.Elapsed.Seconds()))
				}
				fmt.Printf("crawl of %d texts, %s: %d captures, %d texts read; %.3f s wall, %.3f s CPU; stages (s wall): %s; written anew: %d entities, %d texts' topics, %d versions; %d texts' topic terms left outdated",
					len(last.Texts), what, rep.Captures, rep.Texts, time.Since(w0).Seconds(), cpu, strings.Join(stages, ", "),
					rep.Updated.Entities, rep.Updated.Texts, rep.Updated.Versions, rep.TopicsPending)
				fmt.Println()
			}
			if _, err := Run(context.Background(), Options{Store: st, Crawl: c.Crawls[0].ID}); err != nil {
				b.Fatal(err)
			}
			run("first run", "")
			for i, n := range steps {
				b.StopTimer()
				texts := addPosts(b, st, last.ID, uint64(300+i), n)
				b.StartTimer()
				profile := ""
				if i == 0 {
					profile = ".rerun"
				}
				run("rerun after "+strconv.Itoa(n)+" new posts ("+strconv.Itoa(texts)+" texts)", profile)
			}
			if len(steps) > 1 {
				run("rerun with nothing new", ".drain")
			}
			rows = append(rows, rw)
		}
	}
	var sb strings.Builder
	sb.WriteString("CPU seconds by crawl size (texts of the second crawl): first run")
	for _, n := range steps {
		sb.WriteString(", rerun after " + strconv.Itoa(n) + " posts")
	}
	if len(steps) > 1 {
		sb.WriteString(", rerun with nothing new")
	}
	for _, rw := range rows {
		sb.WriteString(fmt.Sprintf("\n  %6d texts:", rw.texts))
		for _, c := range rw.cpu {
			sb.WriteString(fmt.Sprintf(" %7.3f", c))
		}
	}
	// Printed, not logged: the benchmark's log keeps ten lines.
	fmt.Println(sb.String())
}
