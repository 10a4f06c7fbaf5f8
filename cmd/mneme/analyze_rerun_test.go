package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/mneme-archive/mneme/analysis/gencorpus"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/rdf"
)

// writeQuads commits quads into the store of a data folder.
func writeQuads(t *testing.T, data string, qs []rdf.Quad) {
	t.Helper()
	st, err := crawler.Layout{Data: data}.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b := st.NewBatch()
	for _, q := range qs {
		b.Add(q)
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// analyzeKilledAt runs mneme analyze and SIGKILLs it as soon as it
// reports a line containing at (a stage), and reports whether it was
// killed before it ended.
func analyzeKilledAt(t *testing.T, data, id, at string) bool {
	t.Helper()
	cmd := exec.Command(os.Args[0], "analyze", "--data", data, "--crawl", id, "--batch", "2")
	cmd.Env = append(os.Environ(), asMneme+"=1")
	errs, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log []string
	sc := bufio.NewScanner(errs)
	for sc.Scan() {
		log = append(log, sc.Text())
		if strings.Contains(sc.Text(), at) {
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	for sc.Scan() {
	}
	err = cmd.Wait()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		return true
	}
	if err != nil {
		t.Fatalf("analyze %s: %v\n%s", id, err, strings.Join(log, "\n"))
	}
	return false
}

// TestAnalyzeRerunSurvivesKill analyses a crawl stored in part, stores
// the rest of its captures (as a crawl still running does), and SIGKILLs
// the rerun of the analysis at the end of its text stage and then in its
// crawl-wide stage; a last run, and one with nothing new (which rewrites
// the outdated topic terms), must leave the analysis graphs of both
// crawls as one uninterrupted analysis of the whole crawls leaves them.
func TestAnalyzeRerunSurvivesKill(t *testing.T) {
	c := gencorpus.Generate(gencorpus.Config{Seed: 12, Crawls: 2, PostsPerCrawl: 20})
	ids := []string{c.Crawls[0].ID, c.Crawls[1].ID}
	ref := corpusFolder(t, c)
	crashed := t.TempDir()
	half := len(c.Captures(1)) / 2
	writeQuads(t, crashed, append(c.Quads(0), c.CaptureQuads(1, 0, half)...))
	for _, data := range []string{ref, crashed} {
		for _, id := range ids {
			cmd, out := startMneme(t, "analyze", "--data", data, "--crawl", id)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("analyze %s: %v\n%s", id, err, out)
			}
		}
	}
	writeQuads(t, crashed, c.CaptureQuads(1, half, len(c.Captures(1))))
	killed := 0
	for _, at := range []string{": texts: ", ": measures: "} {
		if analyzeKilledAt(t, crashed, ids[1], at) {
			killed++
		}
	}
	if killed == 0 {
		t.Fatal("no rerun was killed while it ran")
	}
	// The run that finishes the interrupted one may leave texts' topic
	// terms outdated (marked, within its budget); the next, with nothing
	// new, rewrites them all.
	for _, what := range []string{"final analyze", "analyze with nothing new"} {
		cmd, out := startMneme(t, "analyze", "--data", crashed, "--crawl", ids[1])
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, out)
		}
	}
	a, b := analysisDump(t, ref, ids...), analysisDump(t, crashed, ids...)
	if a == "" || a != b {
		t.Fatalf("after %d kills the analysis graphs of the crawl analysed in two parts differ from the whole crawl's (%d and %d quads)",
			killed, strings.Count(b, "\n")+1, strings.Count(a, "\n")+1)
	}
	t.Logf("%d kills; analysis graphs identical (%d quads)", killed, strings.Count(a, "\n")+1)
}
