// Package testenv tells tests what their environment provides, and skips
// them cleanly where it does not: the ../shared folder of test material
// (W3C suites, benchmark data, saved pages) beside the repository, and
// the real CMSs (WordPress, MediaWiki, DokuWiki) served on loopback, which
// it holds for one test at a time.
package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// Locate returns the shared folder: $MNEME_SHARED when set, else the
// "shared" folder beside the repository root (the directory holding
// go.mod). It returns "" when there is none.
func Locate() string {
	if d := os.Getenv("MNEME_SHARED"); d != "" {
		if isDir(d) {
			return d
		}
		return ""
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(filepath.Dir(dir), "shared")
			if isDir(d) {
				return d
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Path returns the path of elems inside the shared folder, and skips the
// test when the folder or that path is absent.
func Path(tb testing.TB, elems ...string) string {
	tb.Helper()
	d := Locate()
	if d == "" {
		tb.Skip("../shared is absent (set MNEME_SHARED to its path): skipping")
	}
	p := filepath.Join(append([]string{d}, elems...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("%s is absent in the shared folder: skipping", filepath.Join(elems...))
	}
	return p
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
