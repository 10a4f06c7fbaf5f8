package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQueryHeldStore checks mneme query on a store that mneme serve
// holds: the query goes to the server's endpoint (every output format,
// graphs included), --explain and a store held without a note say what
// to do, and --endpoint queries a server directly.
func TestQueryHeldStore(t *testing.T) {
	store := loadStore(t, queryData)
	const bobName = "SELECT ?n WHERE { <http://e.org/bob> <http://e.org/name> ?n }"
	const wantCSV = "n\r\n\"Bob\nsecond line\"\r\n"
	local := mustRun(t, "query", "--store", store, "--format", "table", bobName)
	construct := "CONSTRUCT { ?s <http://e.org/called> ?n } WHERE { ?s <http://e.org/name> ?n }"
	localGraph := mustRun(t, "query", "--store", store, "--format", "ntriples", construct)

	// A note left by a server that is gone does not stand in the way.
	if err := os.WriteFile(filepath.Join(store, servedURLFile), []byte("http://127.0.0.1:1/sparql\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := mneme(t, "", "query", "--store", store, "--format", "csv", bobName); code != 0 || out != wantCSV || errOut != "" {
		t.Fatalf("stale note: exit %d, %q, %q", code, out, errOut)
	}

	endpoint := startServe(t, store)
	if got, err := os.ReadFile(filepath.Join(store, servedURLFile)); err != nil || strings.TrimSpace(string(got)) != endpoint {
		t.Fatalf("note %q (%v), want %s", got, err, endpoint)
	}
	code, out, errOut := mneme(t, "", "query", "--store", store, "--format", "csv", bobName)
	if code != 0 || out != wantCSV || !strings.Contains(errOut, "held by another mneme process") || !strings.Contains(errOut, endpoint) {
		t.Errorf("held store, csv: exit %d, %q, stderr %q", code, out, errOut)
	}
	if out := mustRun(t, "query", "--store", store, "--format", "table", bobName); out != local {
		t.Errorf("held store, table:\n%s\nwant\n%s", out, local)
	}
	if out := mustRun(t, "query", "--store", store, "--format", "ntriples", construct); !sameLines(out, localGraph) {
		t.Errorf("held store, CONSTRUCT:\n%s\nwant\n%s", out, localGraph)
	}
	if out := mustRun(t, "query", "--store", store, "--format", "jsonld", construct); !strings.Contains(out, `"http://e.org/called":[{"@value":"Bob\nsecond line"}]`) {
		t.Errorf("held store, CONSTRUCT as JSON-LD:\n%s", out)
	}
	if out := mustRun(t, "query", "--endpoint", endpoint, "--format", "table", "ASK { ?s ?p ?o }"); out != "true\n" {
		t.Errorf("--endpoint ASK: %q", out)
	}
	if code, _, errOut := mneme(t, "", "query", "--store", store, "--explain", bobName); code != 1 || !strings.Contains(errOut, "query without --explain") {
		t.Errorf("held store, --explain: exit %d, %q", code, errOut)
	}
	if code, _, errOut := mneme(t, "", "query", "--endpoint", endpoint, "SELECT * { ?s ?p }"); code != 1 || !strings.Contains(errOut, "query:1:") {
		t.Errorf("--endpoint, syntax error: exit %d, %q", code, errOut)
	}
	if err := os.Remove(filepath.Join(store, servedURLFile)); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := mneme(t, "", "query", "--store", store, bobName); code != 1 || !strings.Contains(errOut, "in use by another process") || !strings.Contains(errOut, "--endpoint") {
		t.Errorf("held store without a note: exit %d, %q", code, errOut)
	}
	for _, args := range [][]string{
		{"query", "--store", store, "--endpoint", endpoint, "ASK {}"},
		{"query", "--endpoint", endpoint, "--explain", "ASK {}"},
	} {
		if code, _, _ := mneme(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// sameLines reports whether a and b hold the same lines in any order.
func sameLines(a, b string) bool {
	la, lb := strings.Split(strings.TrimSpace(a), "\n"), strings.Split(strings.TrimSpace(b), "\n")
	if len(la) != len(lb) {
		return false
	}
	seen := map[string]int{}
	for _, l := range la {
		seen[l]++
	}
	for _, l := range lb {
		if seen[l]--; seen[l] < 0 {
			return false
		}
	}
	return true
}
