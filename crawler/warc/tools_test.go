package warc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// External tools (.ci/install-warc-tools.sh installs them). Without them the
// tests that need them skip, except under CI, where that is a failure.

func toolsDir() string {
	if d := os.Getenv("MNEME_TOOLS"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "mneme-tools")
}

// warcioCLI returns the path of warcio.js's command line, or skips.
func warcioCLI(t *testing.T) string {
	t.Helper()
	cli := filepath.Join(toolsDir(), "warcio", "node_modules", "warcio", "dist", "cli.js")
	_, statErr := os.Stat(cli)
	if _, err := exec.LookPath("node"); err != nil || statErr != nil {
		msg := "warcio.js 2.4.11 (node) not installed: run .ci/install-warc-tools.sh"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return cli
}

type verdict struct {
	File   string   `json:"file"`
	Valid  bool     `json:"valid"`
	Count  int      `json:"count"`
	Errors []string `json:"errors"`
}

// verifyFiles runs the independent verifier on WARC files and returns its verdicts.
func verifyFiles(t *testing.T, paths ...string) []verdict {
	t.Helper()
	warcioCLI(t)
	cmd := exec.Command("node", append([]string{filepath.Join("testdata", "verify-warc.mjs")}, paths...)...)
	cmd.Env = append(os.Environ(), "MNEME_TOOLS="+toolsDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		t.Fatalf("verifier: %v\n%s", err, stderr.String())
	}
	var vs []verdict
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var v verdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("verifier output %q: %v\n%s", sc.Text(), err, stderr.String())
		}
		vs = append(vs, v)
	}
	if len(vs) != len(paths) {
		t.Fatalf("verifier gave %d verdicts for %d files: %s\n%s", len(vs), len(paths), out, stderr.String())
	}
	return vs
}

// mustVerify fails the test unless every file passes the verifier.
func mustVerify(t *testing.T, paths ...string) {
	t.Helper()
	for _, v := range verifyFiles(t, paths...) {
		if !v.Valid || v.Count == 0 {
			t.Errorf("verifier rejects %s (%d records): %s", v.File, v.Count, strings.Join(v.Errors, "; "))
		}
	}
}

// warcioIndex returns warcio.js's CDXJ of a file, sorted like ours.
func warcioIndex(t *testing.T, path string) []string {
	t.Helper()
	cli := warcioCLI(t)
	out, err := exec.Command("node", cli, "cdx-index", path).Output()
	if err != nil {
		t.Fatalf("warcio cdx-index %s: %v", path, err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	sort.Strings(lines)
	return lines
}
