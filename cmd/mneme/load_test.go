package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/graph/kv/pebblekv"
	"github.com/mneme-archive/mneme/rdf"
)

const sampleNQ = `<http://e.org/a> <http://e.org/p> "x" .
<http://e.org/a> <http://e.org/p> "x"@en <http://e.org/g1> .
_:b1 <http://e.org/q> <http://e.org/a> <http://e.org/g1> .
_:b1 <http://e.org/q> "1"^^<http://www.w3.org/2001/XMLSchema#integer> <http://e.org/g2> .
<http://e.org/a> <http://e.org/p> "x" <http://e.org/g2> .
`

const sampleTTL = `@prefix e: <http://e.org/> .
e:a e:p "x", "y" ; e:q [ e:p e:a ] .
`

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := mneme(t, "", args...)
	if code != 0 {
		t.Fatalf("mneme %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

func TestLoadExportLoadRoundTrip(t *testing.T) {
	nq := writeFile(t, "in.nq.gz", sampleNQ)
	ttl := writeFile(t, "in.ttl", sampleTTL)
	store1 := filepath.Join(t.TempDir(), "s1")
	out := mustRun(t, "load", "--store", store1, "--graph", "http://e.org/crawl", nq, ttl)
	// The first N-Quads line lands in --graph, where Turtle says it again.
	if !strings.Contains(out, "loaded 9 quads (8 new") {
		t.Fatalf("load said %q", out)
	}
	// Loading again adds nothing to the quads without blank nodes; the
	// blank nodes of a new load are new ones.
	out = mustRun(t, "load", "--store", store1, nq)
	if !strings.Contains(out, "loaded 5 quads (3 new") {
		t.Fatalf("second load said %q", out)
	}
	dump1 := filepath.Join(t.TempDir(), "dump1.nq")
	mustRun(t, "export", "--store", store1, dump1)
	store2 := filepath.Join(t.TempDir(), "s2")
	mustRun(t, "load", "--store", store2, dump1)
	dump2 := filepath.Join(t.TempDir(), "dump2.nq")
	mustRun(t, "export", "--store", store2, dump2)
	q1, q2 := readAll(t, dump1), readAll(t, dump2)
	if len(q1) != 11 {
		t.Fatalf("export has %d quads, want 11", len(q1))
	}
	// The same export to standard output.
	file, err := os.ReadFile(dump1)
	if err != nil {
		t.Fatal(err)
	}
	if got := mustRun(t, "export", "--store", store1, "-"); got != string(file) {
		t.Fatalf("export to standard output differs from the file:\n%s", got)
	}
	if diff := rdf.IsomorphismDiff(q2, q1); diff != "" {
		t.Fatalf("load → export → load changed the store:\n%s", diff)
	}
	// Default-graph triples of the first load went into --graph.
	crawl := filepath.Join(t.TempDir(), "crawl.nt")
	mustRun(t, "export", "--store", store1, "--graph", "http://e.org/crawl", crawl)
	if got := readAll(t, crawl); len(got) != 4 {
		t.Fatalf("graph export has %d triples, want 4 (from N-Quads and Turtle, one in both)", len(got))
	}
	for _, dir := range []string{store1, store2} {
		if out := mustRun(t, "store", "check", dir); !strings.HasPrefix(out, "ok: ") {
			t.Fatalf("check: %q", out)
		}
	}
	stats := mustRun(t, "store", "stats", store2)
	if !strings.Contains(stats, "quads\t11\n") || !strings.Contains(stats, "graphs\t4\n") {
		t.Fatalf("stats:\n%s", stats)
	}
}

func TestLoadStopsAtFirstErrorWithPosition(t *testing.T) {
	bad := writeFile(t, "bad.nt", "<http://e.org/a> <http://e.org/p> \"x\" .\n<http://e.org/a> <http://e.org/p> .\n<http://e.org/b> <http://e.org/p> \"y\" .\n")
	store := filepath.Join(t.TempDir(), "s")
	code, _, errOut := mneme(t, "", "load", "--store", store, bad)
	if code != 1 || !strings.Contains(errOut, "bad.nt:2:") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if out := mustRun(t, "store", "stats", store); !strings.HasPrefix(out, "quads\t0\n") {
		t.Fatalf("a failed load left quads:\n%s", out)
	}
	out := mustRun(t, "load", "--store", store, "--skip-invalid", bad)
	if !strings.Contains(out, "loaded 2 quads") || !strings.Contains(out, "skipped 1 invalid statement") {
		t.Fatalf("skip-invalid load said %q", out)
	}
}

func TestLoadUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"load", "x.nt"},
		{"load", "--store", t.TempDir(), "x.unknown"},
		{"export"},
		{"store", "stats"},
	} {
		if code, _, errOut := mneme(t, "", args...); code != 2 {
			t.Errorf("mneme %s: exit %d, want 2 (%s)", strings.Join(args, " "), code, errOut)
		}
	}
}

func TestStoreCheckExitsOneOnInconsistency(t *testing.T) {
	store := filepath.Join(t.TempDir(), "s")
	mustRun(t, "load", "--store", store, writeFile(t, "in.nq", sampleNQ))
	// Damage the store behind mneme's back: drop the totals key.
	db, err := pebblekv.Open(store, pebblekv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := db.NewBatch()
	b.Delete([]byte("sT"))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := mneme(t, "", "store", "check", store)
	if code != 1 || !strings.Contains(out, "statistics: stored 0 quads") || !strings.Contains(errOut, "inconsistent") {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
}
