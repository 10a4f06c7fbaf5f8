package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/crawllog"
	"github.com/mneme-archive/mneme/crawler/warc"
	"github.com/mneme-archive/mneme/crawler/warc/warctest"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/sitetest"
)

// TestCrawlSurvivesKill crawls a 5,000-page local site with a real mneme
// process, SIGKILLs it at 10 random moments and resumes it each time. At the
// end every page is captured, no page was fetched twice beyond what can be
// in flight at each kill (workers + 2 RDF batches), the RDF agrees with the
// WARC files and every WARC file passes the independent verifier.
func TestCrawlSurvivesKill(t *testing.T) {
	const pages, kills, workers, batch = 5000, 10, 4, 32
	site := sitetest.Serve(t, sitetest.Options{Pages: pages})
	data := t.TempDir()
	spec := fmt.Sprintf("workers: %d\nrdf:\n  batch: %d\n  interval: 50ms\nwarc:\n  max-size: 200000\n", workers, batch)
	// A kill moment is chosen by progress (up to ~300 more crawl.log
	// lines, so that ten kills cannot outrun the site on a fast machine)
	// plus a random delay, so it lands anywhere: start-up, fetching,
	// writing WARC, committing RDF, completing.
	crashCrawl(t, data, "crash", spec, site.URL("/p/0"), kills, func(rng *rand.Rand) int64 { return int64(rng.IntN(300)) * 100 })

	// No page lost, none fetched twice beyond what was in flight.
	extra := checkRefetches(t, site, pages, kills, workers, batch)
	t.Logf("%d kills, %d pages fetched again, robots.txt fetched %d times", kills, extra, site.Hits("/robots.txt"))

	_, rep := checkArchive(t, data, "crash")
	// A page fetched again after a kill may keep both captures (its batch
	// committed, its completion not yet synced), never more than fetches.
	extraCaptures := 0
	for i := range pages {
		u := site.URL(fmt.Sprintf("/p/%d", i))
		if rep.URLs[u] == 0 {
			t.Errorf("%s has no capture in RDF", u)
		}
		extraCaptures += max(rep.URLs[u]-1, 0)
	}
	if extraCaptures > extra {
		t.Errorf("%d extra captures in RDF for %d extra fetches", extraCaptures, extra)
	}
	if len(rep.URLs) != pages+1 { // the pages and robots.txt
		t.Errorf("RDF has captures of %d URLs, want %d", len(rep.URLs), pages+1)
	}
	files, err := filepath.Glob(filepath.Join(crawler.Layout{Data: data}.WARCs("crash"), "*.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	warctest.Check(t, files...)
}

// startMneme starts the test binary as the mneme command with args; its
// output goes to the returned buffer.
func startMneme(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asMneme+"=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

// crashCrawl runs crawl id of seed with the spec text in a real mneme
// process, SIGKILLs it kills times (each after grow(rng) more bytes of
// crawl.log, see killAfter) and resumes it each time, then lets the last
// run finish the crawl.
func crashCrawl(t *testing.T, data, id, spec, seed string, kills int, grow func(*rand.Rand) int64) {
	t.Helper()
	specFile := filepath.Join(t.TempDir(), "spec.yaml")
	if err := os.WriteFile(specFile, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	rngSeed := uint64(time.Now().UnixNano())
	t.Logf("random seed %d", rngSeed)
	rng := rand.New(rand.NewPCG(rngSeed, 1))
	args := []string{"crawl", "--spec", specFile, "--data", data, "--id", id, "--politeness", "off", seed}
	for k := range kills {
		killAfter(t, k+1, crawler.Layout{Data: data}.CrawlLog(id), grow(rng), rng, args...)
		args = []string{"crawl", "resume", "--data", data, id}
	}
	cmd, out := startMneme(t, args...)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("final run: %v\n%s", err, out)
	}
	if !strings.Contains(out.String(), "crawl "+id+" finished:") {
		t.Fatalf("final run did not finish the crawl:\n%s", out)
	}
	t.Logf("final run: %s", strings.TrimSpace(out.String()))
}

// killAfter starts mneme with args, lets it grow the crawl.log at logPath
// by grow bytes, waits a random moment more and SIGKILLs it; run numbers
// the run in failures.
func killAfter(t *testing.T, run int, logPath string, grow int64, rng *rand.Rand, args ...string) {
	t.Helper()
	logSize := func() int64 {
		fi, err := os.Stat(logPath)
		if err != nil {
			return 0
		}
		return fi.Size()
	}
	target := logSize() + grow
	cmd, out := startMneme(t, args...)
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	for logSize() < target {
		select {
		case <-exited:
			t.Fatalf("run %d ended before the kill: %s", run, out)
		case <-time.After(2 * time.Millisecond):
		}
	}
	time.Sleep(time.Duration(rng.IntN(50)) * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatalf("run %d ended before the kill: %s", run, out)
	}
}

// checkArchive opens the store of data read-only (closed when the test
// ends) and reports every disagreement between crawl id's RDF and WARC files.
func checkArchive(t *testing.T, data, id string) (*graph.Store, *crawler.ArchiveReport) {
	t.Helper()
	st, err := graph.Open(crawler.Layout{Data: data}.Store(), graph.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rep, err := crawler.CheckArchive(context.Background(), data, id, st)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Problems {
		t.Error(p)
	}
	return st, rep
}

// TestCrawlKilledAtRandomTimes is the crash contract of package crawler
// (spec.RDF.CommitWithin) at its defaults but the batch: a 5,000-page
// crawl with 8 workers is SIGKILLed 10 times, each at a random moment up
// to 5 s into its run, and resumed each time. Then every page is
// captured; no page was fetched again beyond what can be in flight at a
// kill (workers + 2 RDF batches); every crawl.log line of a fetch has its
// WARC record; every response or revisit record has a capture or is
// marked abandoned and left out of the CDXJ index; and the independent
// verifier passes every file. The site answers each page after 50 ms, so
// that ten runs of up to 5 s cannot finish the crawl.
func TestCrawlKilledAtRandomTimes(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a crawl 10 times (about 40 s)")
	}
	const pages, kills, workers, batch = 5000, 10, 8, 64
	site := sitetest.Serve(t, sitetest.Options{Pages: pages, Delay: 50 * time.Millisecond})
	data := t.TempDir()
	const id = "kills"
	specFile := filepath.Join(t.TempDir(), "spec.yaml")
	spec := fmt.Sprintf("workers: %d\nrdf:\n  batch: %d\nwarc:\n  max-size: 500000\n", workers, batch)
	if err := os.WriteFile(specFile, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("random seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	args := []string{"crawl", "--spec", specFile, "--data", data, "--id", id, "--politeness", "off", site.URL("/p/0")}
	for k := range kills {
		cmd, out := startMneme(t, args...)
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		at := time.Duration(1+rng.IntN(5000)) * time.Millisecond
		select {
		case <-exited:
			t.Fatalf("run %d ended before its kill at %v: %s", k+1, at, out)
		case <-time.After(at):
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		<-exited
		t.Logf("run %d killed after %v", k+1, at)
		// A run killed before it wrote the crawl's spec has not begun the
		// crawl: the next run starts it again rather than resuming it.
		if _, err := os.Stat(crawler.Layout{Data: data}.Spec(id)); err == nil {
			args = []string{"crawl", "resume", "--data", data, id}
		} else if err := os.RemoveAll(crawler.Layout{Data: data}.Crawl(id)); err != nil {
			t.Fatal(err)
		}
	}
	cmd, out := startMneme(t, args...)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("final run: %v\n%s", err, out)
	}
	if !strings.Contains(out.String(), "crawl "+id+" finished:") {
		t.Fatalf("final run did not finish the crawl:\n%s", out)
	}

	extra := checkRefetches(t, site, pages, kills, workers, batch)
	_, rep := checkArchive(t, data, id)
	for i := range pages {
		if u := site.URL(fmt.Sprintf("/p/%d", i)); rep.URLs[u] == 0 {
			t.Errorf("%s has no capture in RDF", u)
		}
	}
	for _, o := range rep.Orphans {
		t.Errorf("WARC record without a capture or an abandonment mark: %s", o)
	}
	l := crawler.Layout{Data: data}
	files, err := filepath.Glob(filepath.Join(l.WARCs(id), "*.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	// Abandoned records are out of the index; every crawl.log line of a
	// fetch has a record of its URL that is not abandoned.
	records := map[string]int{}
	for _, f := range files {
		recs, err := warc.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			typ := r.Type()
			if (typ == "response" || typ == "revisit") && rep.Abandoned[fmt.Sprintf("%s:%d", filepath.Base(f), r.Offset)] == "" {
				records[r.Header.Get("WARC-Target-URI")]++
			}
		}
		idx, err := os.ReadFile(warc.IndexPath(f))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(idx)), "\n") {
			if line == "" {
				continue // a file of only its warcinfo
			}
			var e struct {
				Offset string `json:"offset"`
			}
			if i := strings.IndexByte(line, '{'); i < 0 || json.Unmarshal([]byte(line[i:]), &e) != nil {
				t.Fatalf("%s: bad CDXJ line %q", warc.IndexPath(f), line)
			}
			if id := rep.Abandoned[filepath.Base(f)+":"+e.Offset]; id != "" {
				t.Errorf("abandoned record %s is in the index: %s", id, line)
			}
		}
	}
	lf, err := os.Open(l.CrawlLog(id))
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	lines := map[string]int{}
	r := crawllog.NewReader(lf, l.CrawlLog(id))
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if e.Status > 0 {
			lines[e.URI]++
		}
	}
	for u, n := range lines {
		if records[u] < n {
			t.Errorf("%s: %d crawl.log lines, %d WARC records", u, n, records[u])
		}
	}
	t.Logf("%d kills: %d pages fetched again (bound %d), %d records abandoned, %d crawl.log lines of fetches, robots.txt fetched %d times",
		kills, extra, kills*(workers+2*batch), len(rep.Abandoned), len(lines), site.Hits("/robots.txt"))
	warctest.Check(t, files...)
}

// checkRefetches checks that each of the site's pages /p/0… was fetched
// and that no more were fetched again than can be in flight at kills
// kills (crawler package doc: a batch being committed, a batch's worth
// queued for the RDF writer, and one URL per worker); it returns how many
// were fetched again.
func checkRefetches(t *testing.T, site *sitetest.Site, pages, kills, workers, batch int) int {
	t.Helper()
	extra := 0
	for i := range pages {
		n := site.Hits(fmt.Sprintf("/p/%d", i))
		if n == 0 {
			t.Errorf("/p/%d never fetched", i)
		}
		extra += max(n-1, 0)
	}
	if bound := kills * (workers + 2*batch); extra > bound {
		t.Errorf("%d pages fetched again, more than the %d that can be in flight over %d kills", extra, bound, kills)
	}
	return extra
}
