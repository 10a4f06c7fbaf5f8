package pebblekv

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/mneme-archive/mneme/graph/kv"
)

func TestBatchSnapshotIngestReadOnly(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir, Options{CacheBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	b := db.NewBatch()
	b.Set([]byte("a"), []byte("1"))
	b.Set([]byte("c"), []byte("3"))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b.Close()
	snap := db.NewSnapshot()
	defer snap.Close()

	// A sorted file ingested atomically, replacing an existing key.
	path := filepath.Join(t.TempDir(), "f.sst")
	f, err := db.NewSortedFile(path, kv.FileOptions{RangeReadsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"b", "c"} {
		if err := f.Add([]byte(k), []byte(k+"!")); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := db.Ingest(context.Background(), []string{path}); err != nil {
		t.Fatal(err)
	}
	scan := func(r kv.Reader, lower, upper string) string {
		it, err := r.NewIter([]byte(lower), []byte(upper))
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		out := ""
		for ok := it.First(); ok; ok = it.Next() {
			out += string(it.Key()) + "=" + string(it.Value()) + " "
		}
		if it.Err() != nil {
			t.Fatal(it.Err())
		}
		return out
	}
	if got := scan(db, "a", "z"); got != "a=1 b=b! c=c! " {
		t.Fatalf("after ingest: %q", got)
	}
	if got := scan(db, "b", "c"); got != "b=b! " {
		t.Fatalf("bounded scan: %q", got)
	}
	if got := scan(snap, "a", "z"); got != "a=1 c=3 " {
		t.Fatalf("snapshot sees later writes: %q", got)
	}
	if _, err := db.Get([]byte("x")); !errors.Is(err, kv.ErrNotFound) {
		t.Fatalf("missing key: %v", err)
	}
	if err := snap.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	ro, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if v, err := ro.Get([]byte("b")); err != nil || string(v) != "b!" {
		t.Fatalf("read-only get: %q %v", v, err)
	}
	w := ro.NewBatch()
	defer w.Close()
	w.Set([]byte("z"), nil)
	if err := w.Commit(); !errors.Is(err, kv.ErrReadOnly) {
		t.Fatalf("read-only commit: %v", err)
	}
	if _, err := ro.NewSortedFile(path, kv.FileOptions{}); !errors.Is(err, kv.ErrReadOnly) {
		t.Fatalf("read-only sorted file: %v", err)
	}
}
