package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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
