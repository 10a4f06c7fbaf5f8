// Package warctest lets tests outside crawler/warc run the independent
// WARC verifier that crawler/warc's tests use: Node's warcio.js driven by
// crawler/warc/testdata/verify-warc.mjs, which shares no code with the Go
// writer. Tests that write WARC files call Check on them.
package warctest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// Verdict is the verifier's answer for one file.
type Verdict struct {
	File   string   `json:"file"`
	Valid  bool     `json:"valid"`
	Count  int      `json:"count"`
	Errors []string `json:"errors"`
}

// toolsDir is where .ci/install-warc-tools.sh puts warcio.js.
func toolsDir() string {
	if d := os.Getenv("MNEME_TOOLS"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "mneme-tools")
}

// script is the verifier, found beside this source file.
func script() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "verify-warc.mjs")
}

// ErrUnavailable says node or warcio.js is not installed.
var ErrUnavailable = errors.New("warcio.js (node) not installed: run .ci/install-warc-tools.sh")

// cli returns the path of warcio.js's command line, or ErrUnavailable.
func cli() (string, error) {
	path := filepath.Join(toolsDir(), "warcio", "node_modules", "warcio", "dist", "cli.js")
	_, statErr := os.Stat(path)
	if _, err := exec.LookPath("node"); err != nil || statErr != nil {
		return "", ErrUnavailable
	}
	return path, nil
}

// Verify runs the verifier on the files.
func Verify(paths ...string) ([]Verdict, error) {
	if _, err := cli(); err != nil {
		return nil, err
	}
	cmd := exec.Command("node", append([]string{script()}, paths...)...)
	cmd.Env = append(os.Environ(), "MNEME_TOOLS="+toolsDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		return nil, fmt.Errorf("verifier: %v\n%s", err, stderr.String())
	}
	var vs []Verdict
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var v Verdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("verifier output %q: %v\n%s", sc.Text(), err, stderr.String())
		}
		vs = append(vs, v)
	}
	if len(vs) != len(paths) {
		return nil, fmt.Errorf("verifier gave %d verdicts for %d files: %s", len(vs), len(paths), stderr.String())
	}
	return vs, nil
}

// Check fails t unless every file passes the verifier with at least one
// record. Without the verifier it logs that nothing was checked, and fails
// under CI, where the tools must be installed.
func Check(t testing.TB, paths ...string) {
	t.Helper()
	if len(paths) == 0 {
		t.Fatal("no WARC files to verify")
	}
	vs, err := Verify(paths...)
	if errors.Is(err, ErrUnavailable) && os.Getenv("CI") == "" {
		t.Log(err.Error() + "; WARC files not verified")
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if !v.Valid || v.Count == 0 {
			t.Errorf("verifier rejects %s (%d records): %s", v.File, v.Count, strings.Join(v.Errors, "; "))
		}
	}
}

// Verdicts returns the verifier's verdicts on the files, for tests that
// assert on them (for example that a damaged file is rejected). Without the
// verifier the test skips, except under CI, where that is a failure.
func Verdicts(t testing.TB, paths ...string) []Verdict {
	t.Helper()
	vs, err := Verify(paths...)
	if err != nil {
		fatalOrSkip(t, err)
	}
	return vs
}

// Index returns warcio.js's CDXJ index of a WARC file, its lines sorted, to
// compare with crawler/warc's own indexer. Without warcio.js the test
// skips, except under CI, where that is a failure.
func Index(t testing.TB, path string) []string {
	t.Helper()
	js, err := cli()
	if err != nil {
		fatalOrSkip(t, err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command("node", js, "cdx-index", path)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("warcio cdx-index %s: %v\n%s", path, err, stderr.String())
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	sort.Strings(lines)
	return lines
}

// fatalOrSkip skips t when only the tools are missing outside CI, and
// fails it otherwise.
func fatalOrSkip(t testing.TB, err error) {
	t.Helper()
	if errors.Is(err, ErrUnavailable) && os.Getenv("CI") == "" {
		t.Skip(err.Error())
	}
	t.Fatal(err)
}
