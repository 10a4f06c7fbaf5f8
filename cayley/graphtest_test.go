package cayley

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/cayley/graph/graphtest"

	"github.com/mneme-archive/mneme/graph"
)

// knownBroken are the tests of Cayley's suite skipped here, each with why.
// (The suite itself skips "delete reinserted dup" on a store whose
// ValueOf still finds a value after its last quad is deleted, "value must
// be garbage-collected": mneme's dictionary keeps its entries, and ValueOf
// reads the dictionary only, see QuadStore.ValueOf.)
var knownBroken = map[string]string{
	// Cayley's recursiveContains keeps the tags of the value it matched
	// before when it finds the next one by iterating (iterator/recursive.go,
	// Contains sets it.tags only for values already seen), so a Has()
	// after FollowRecursive reports a stale "pid" whenever the quads come
	// in an order other than insertion order (the memstore's). The
	// unoptimised variant of the same test, which iterates, passes.
	"TestCayleyGraphTest/paths/^follows_recursive_loop$": "Cayley bug: stale tags in recursiveContains",
}

func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.skip"); f != nil && f.Value.String() == "" {
		var pats []string
		for p := range knownBroken {
			pats = append(pats, p)
		}
		f.Value.Set(strings.Join(pats, "|"))
	}
	os.Exit(m.Run())
}

// openTemp opens a fresh writable store for a test and its QuadStore.
func openTemp(t testing.TB) (*graph.Store, *QuadStore) {
	t.Helper()
	s, err := graph.Open(t.TempDir(), graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, New(s)
}

// TestCayleyGraphTest runs Cayley's own QuadStore suite (graph/graphtest,
// with the path tests and the 30k-quad movie integration queries) against
// the adapter.
func TestCayleyGraphTest(t *testing.T) {
	// The suite reads data/ of Cayley's module as ../../../data (the
	// movie data) or from the first parent holding it (testdata.nq).
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/cayleygraph/cayley").Output()
	if err != nil {
		t.Fatalf("finding Cayley's module: %v", err)
	}
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(strings.TrimSpace(string(out)), "data"), filepath.Join(dir, "data")); err != nil {
		t.Fatal(err)
	}
	wd := filepath.Join(dir, "a", "b", "c")
	if err := os.MkdirAll(wd, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(wd)
	graphtest.TestAll(t, func(t testing.TB) (cgraph.QuadStore, cgraph.Options) {
		_, qs := openTemp(t)
		return qs, nil
	}, &graphtest.Config{AlwaysRunIntegration: true})
}
