package warc

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIndexSpills writes many more records than the writer's index keeps
// in memory: the entries held stay under the chunk after every write, and
// the index merged from the runs is the one IndexFile makes by reading the
// whole file, with no run left behind.
func TestIndexSpills(t *testing.T) {
	dir := t.TempDir()
	w := newTestWriter(t, dir, 0)
	w.indexChunk = 4
	const pages = 41
	for i := range pages {
		// Descending URLs: each run holds lines that sort before the
		// earlier runs', so the merge must interleave them all.
		u := fmt.Sprintf("http://example.com/p/%03d", pages-i)
		mustWrite(t, w, Exchange{URL: u, Request: request(u), Response: response("200 OK", "text/html", "page "+u)})
		if n := len(w.idx.pairs); n >= w.indexChunk {
			t.Fatalf("after %d writes the index holds %d entries in memory, chunk %d", i+1, n, w.indexChunk)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := warcFiles(t, dir)[0]
	want, err := IndexFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != pages {
		t.Fatalf("IndexFile: %d lines, want %d", len(want), pages)
	}
	written, err := os.ReadFile(IndexPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if string(written) != strings.Join(want, "\n")+"\n" {
		t.Errorf("written CDXJ:\n%s\nIndexFile:\n%s", written, strings.Join(want, "\n"))
	}
	assertNoRuns(t, dir)

	// WriteIndex, as Recover runs it, spills the same way.
	if err := os.Remove(IndexPath(path)); err != nil {
		t.Fatal(err)
	}
	if err := writeIndexChunked(path, 3, nil); err != nil {
		t.Fatal(err)
	}
	again, err := os.ReadFile(IndexPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(written) {
		t.Errorf("WriteIndex in chunks of 3:\n%s\nwant:\n%s", again, written)
	}
	assertNoRuns(t, dir)
}

// TestRecoverRemovesRuns: the runs of an index a crash cut short are
// deleted, and the index is written again from the file.
func TestRecoverRemovesRuns(t *testing.T) {
	dir := t.TempDir()
	w := newTestWriter(t, dir, 0)
	mustWrite(t, w, Exchange{URL: "http://example.com/a", Request: request("http://example.com/a"), Response: response("200 OK", "text/plain", "a")})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := warcFiles(t, dir)[0]
	want, err := os.ReadFile(IndexPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(IndexPath(path)); err != nil {
		t.Fatal(err)
	}
	left := IndexPath(path) + runSuffix + "123"
	if err := os.WriteFile(left, []byte("half a run"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Recover(dir); err != nil {
		t.Fatal(err)
	}
	assertNoRuns(t, dir)
	if got, err := os.ReadFile(IndexPath(path)); err != nil || string(got) != string(want) {
		t.Errorf("index after Recover: %q, %v; want %q", got, err, want)
	}
}

func assertNoRuns(t *testing.T, dir string) {
	t.Helper()
	runs, err := filepath.Glob(filepath.Join(dir, "*"+runSuffix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) > 0 {
		t.Errorf("index runs left behind: %v", runs)
	}
}
