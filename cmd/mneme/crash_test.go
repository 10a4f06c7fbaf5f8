package main

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/graph"
)

// asMneme makes the test binary act as the mneme command when a crash
// test starts it as a child process.
const asMneme = "MNEME_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMneme) == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// writeSyntheticNT writes n distinct triples with shared subjects,
// predicates and objects, like crawled data.
func writeSyntheticNT(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "synthetic.nt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range n {
		fmt.Fprintf(w, "<http://e.org/s%d> <http://e.org/p%d> \"v%d\" .\n", i/4, i%4, i%1000+(i/4)*1000)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLoadSurvivesSIGKILL kills a real mneme load at random moments; after
// each kill the store must open and pass the integrity check. The load
// commits in several segments, so kills land before, between and during
// ingests. A final uninterrupted load must then give the full count.
func TestLoadSurvivesSIGKILL(t *testing.T) {
	const triples = 120000
	data := writeSyntheticNT(t, triples)
	store := filepath.Join(t.TempDir(), "store")
	args := []string{"load", "--store", store, "--run-quads", "10000", "--segment-quads", "30000", data}
	start := func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), asMneme+"=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	// One full load in a scratch store tells how long a load lasts, so
	// the kills spread over all of it.
	t0 := time.Now()
	probe := exec.Command(os.Args[0], "load", "--store", filepath.Join(t.TempDir(), "probe"), data)
	probe.Env = append(os.Environ(), asMneme+"=1")
	if out, err := probe.CombinedOutput(); err != nil {
		t.Fatalf("probe load: %v\n%s", err, out)
	}
	full := time.Since(t0)
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 9))
	const kills = 12
	for i := range kills {
		cmd := start()
		wait := time.Duration(r.Int64N(int64(full)))
		time.Sleep(wait)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		checkStore(t, store, fmt.Sprintf("kill %d after %s", i+1, wait))
	}
	cmd := start()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("final load: %v", err)
	}
	st := checkStore(t, store, "final load")
	if st.Quads != triples {
		t.Fatalf("after the final load the store has %d quads, want %d", st.Quads, triples)
	}
}

func checkStore(t *testing.T, dir, when string) *graph.Stats {
	t.Helper()
	s, err := graph.Open(dir, graph.OpenOptions{})
	if err != nil {
		t.Fatalf("%s: open: %v", when, err)
	}
	defer s.Close()
	rep, err := s.Check(context.Background())
	if err != nil {
		t.Fatalf("%s: check: %v", when, err)
	}
	if !rep.OK() {
		t.Fatalf("%s: store inconsistent: %v", when, rep.Problems)
	}
	st, err := s.Stats()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d quads, clean", when, st.Quads)
	return st
}
