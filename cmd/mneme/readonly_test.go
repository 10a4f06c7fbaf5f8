package main

import (
	"context"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/tui/backend"
)

// readOnlyCopy copies the store in dir to a place this process cannot
// write to: a read-only bind mount when it may mount (root), else a copy
// whose directories lack write permission. It returns the store's path
// there.
func readOnlyCopy(t *testing.T, dir string) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "store")
	if out, err := exec.Command("cp", "-a", dir, src).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	ro := t.TempDir()
	if syscall.Mount(src, ro, "", syscall.MS_BIND, "") == nil {
		t.Cleanup(func() {
			if err := syscall.Unmount(ro, 0); err != nil {
				t.Errorf("unmount %s: %v", ro, err)
			}
		})
		if err := syscall.Mount("", ro, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, ""); err != nil {
			t.Fatalf("remount %s read-only: %v", ro, err)
		}
		return ro
	}
	if os.Geteuid() == 0 {
		t.Skip("root without the right to mount: a directory without write permission would not stop this process")
	}
	if err := os.Chmod(src, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(src, 0o755) })
	return src
}

// listing is every file under dir with its size and modification time.
func listing(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		files[path] = fi.Mode().String() + " " + fi.ModTime().Format(time.RFC3339Nano) + " " + strconv.FormatInt(fi.Size(), 10)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestReadOnlyStore queries, exports and serves a store on read-only
// media: each opens it without writing anything (no LOCK file appears,
// no file changes).
func TestReadOnlyStore(t *testing.T) {
	built := loadStore(t, queryData)
	if err := os.Remove(filepath.Join(built, "LOCK")); err != nil {
		t.Fatal(err) // a store copied without its lock file, as from an archive
	}
	store := readOnlyCopy(t, built)
	before := listing(t, store)
	const bobName = "SELECT ?n WHERE { <http://e.org/bob> <http://e.org/name> ?n }"
	const wantCSV = "n\r\n\"Bob\nsecond line\"\r\n"

	if code, out, errOut := mneme(t, "", "query", "--store", store, "--format", "csv", bobName); code != 0 || out != wantCSV {
		t.Errorf("query: exit %d, %q, stderr %q", code, out, errOut)
	}
	exported := filepath.Join(t.TempDir(), "all.nt")
	if code, _, errOut := mneme(t, "", "export", "--store", store, "--format", "nt", exported); code != 0 {
		t.Errorf("export: exit %d, %q", code, errOut)
	}
	if b, err := os.ReadFile(exported); err != nil || strings.Count(string(b), "\n") != 8 || !strings.Contains(string(b), `"Bob\nsecond line"`) {
		t.Errorf("export wrote %q (%v), want the 8 triples", b, err)
	}
	endpoint := startServe(t, store)
	if out := mustRun(t, "query", "--endpoint", endpoint, "--format", "csv", bobName); out != wantCSV {
		t.Errorf("serve, query: %q", out)
	}
	if _, err := os.Stat(filepath.Join(store, servedURLFile)); err == nil {
		t.Error("serve wrote its note into a read-only store")
	}
	if after := listing(t, store); len(after) != len(before) {
		t.Errorf("files changed: %d before, %d after", len(before), len(after))
	} else {
		for f, was := range before {
			if after[f] != was {
				t.Errorf("%s changed: %s, now %s", f, was, after[f])
			}
		}
	}
}

// TestReadOnlyTUI starts the TUI's server on a data folder on read-only
// media and runs a query through the TUI's backend: the store opens
// read-only, there is no control API, the TUI's own files go to the user
// cache directory, and nothing in the data folder is created or changed.
func TestReadOnlyTUI(t *testing.T) {
	built := loadStore(t, queryData)
	if err := os.Remove(filepath.Join(built, "LOCK")); err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	if out, err := exec.Command("cp", "-a", built, filepath.Join(src, "store")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	data := readOnlyCopy(t, src)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	before := listing(t, data)

	srv, err := startTUIServer(data, knowledgeOptions{})
	if err != nil {
		t.Fatalf("start on a read-only data folder: %v", err)
	}
	if !srv.readOnly {
		t.Error("the server did not notice the data folder is read-only")
	}
	if !strings.HasPrefix(srv.own, cache) {
		t.Errorf("the TUI's files go to %s, want a folder under the user cache %s", srv.own, cache)
	}
	b, err := backend.NewHTTP(srv.url)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := b.Query(context.Background(), "SELECT ?n WHERE { <http://e.org/bob> <http://e.org/name> ?n }")
	if err != nil {
		t.Fatalf("query: %v", err)
	}
	var got []string
	for rows.Next() {
		got = append(got, rows.Row()[0].Value)
	}
	if err := rows.Err(); err != nil {
		t.Errorf("rows: %v", err)
	}
	rows.Close()
	if len(got) != 1 || got[0] != "Bob\nsecond line" {
		t.Errorf("query answered %q, want Bob's name", got)
	}
	if resp, err := http.Get(strings.TrimSuffix(srv.url, "/sparql") + "/api/crawls"); err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("control API answered %s on a read-only folder, want none (404)", resp.Status)
		}
	}
	if err := b.Close(); err != nil {
		t.Error(err)
	}
	if err := srv.close(); err != nil {
		t.Errorf("close: %v", err)
	}
	after := listing(t, data)
	if len(after) != len(before) {
		t.Errorf("files changed: %d before, %d after", len(before), len(after))
	}
	for f, was := range before {
		if after[f] != was {
			t.Errorf("%s changed: %s, now %s", f, was, after[f])
		}
	}
}
