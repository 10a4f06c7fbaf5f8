package layers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/mneme-archive/mneme/"

// pkg is a package of the module as go list describes it, paths relative
// to the module.
type pkg struct {
	Path    string
	Deps    []string // of the package itself, without its tests
	Imports []string // direct, its tests' included
}

// under reports whether path is dir or inside it.
func under(path, dir string) bool { return path == dir || strings.HasPrefix(path, dir+"/") }

// internals are the packages that only their own folder may import.
var internals = map[string]string{
	"sparql/syntax":  "sparql",
	"sparql/algebra": "sparql",
	"sparql/eval":    "sparql",
	"graph/kv":       "graph",
}

// tuiBans are what the TUI's packages (tests aside) must not depend on:
// it speaks to the daemon through control/api only.
var tuiBans = []string{"crawler", "graph", "kb", "sparql/eval", "control"}

// violations checks the rules on pkgs.
func violations(pkgs []pkg) []string {
	var out []string
	crawlerToKB, kbToCrawler := "", ""
	for _, p := range pkgs {
		if under(p.Path, "tui") {
			for _, d := range p.Deps {
				for _, ban := range tuiBans {
					// control/api is the TUI's one way to the daemon.
					if under(d, ban) && !(ban == "control" && under(d, "control/api")) {
						out = append(out, fmt.Sprintf("%s depends on %s (the TUI must reach the daemon only through control/api)", p.Path, d))
					}
				}
			}
		}
		for _, d := range p.Imports {
			if home, ok := internals[d]; ok && !under(p.Path, home) {
				out = append(out, fmt.Sprintf("%s imports %s (only %s/ may; use package %s)", p.Path, d, home, home))
			}
			if under(p.Path, "crawler") && under(d, "kb") {
				crawlerToKB = p.Path + " imports " + d
			}
			if under(p.Path, "kb") && under(d, "crawler") {
				kbToCrawler = p.Path + " imports " + d
			}
		}
	}
	if crawlerToKB != "" && kbToCrawler != "" {
		out = append(out, fmt.Sprintf("kb and crawler import each other: %s, and %s", crawlerToKB, kbToCrawler))
	}
	return out
}

// list describes the module's packages.
func list(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps=false", "-json=ImportPath,Deps,Imports,TestImports,XTestImports", module+"...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath                               string
			Deps, Imports, TestImports, XTestImports []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		rel := func(paths []string) []string {
			var r []string
			for _, d := range paths {
				if strings.HasPrefix(d, module) {
					r = append(r, strings.TrimPrefix(d, module))
				}
			}
			return r
		}
		imports := slices.Concat(rel(p.Imports), rel(p.TestImports), rel(p.XTestImports))
		pkgs = append(pkgs, pkg{Path: strings.TrimPrefix(p.ImportPath, module), Deps: rel(p.Deps), Imports: imports})
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	return pkgs
}

func TestLayers(t *testing.T) {
	for _, v := range violations(list(t)) {
		t.Error(v)
	}
}

// TestRulesCatchViolations feeds the rules an import graph that breaks
// each of them.
func TestRulesCatchViolations(t *testing.T) {
	bad := []pkg{
		{Path: "tui/crawls", Deps: []string{"control/api", "control", "crawler/frontier", "graph", "kb", "sparql/eval", "sparql/parse"}},
		{Path: "cmd/mneme", Imports: []string{"sparql/syntax", "sparql", "graph"}},
		{Path: "tui/console", Imports: []string{"sparql/algebra"}},
		{Path: "crawler/frontier", Imports: []string{"graph/kv"}},
		{Path: "crawler", Imports: []string{"kb/vdoc"}},
		{Path: "kb/aah", Imports: []string{"crawler"}},
		{Path: "sparql", Imports: []string{"sparql/eval", "graph"}},
		{Path: "graph", Imports: []string{"graph/kv"}},
	}
	got := violations(bad)
	want := []string{
		"tui/crawls depends on control ", "tui/crawls depends on crawler/frontier", "tui/crawls depends on graph ",
		"tui/crawls depends on kb ", "tui/crawls depends on sparql/eval", "cmd/mneme imports sparql/syntax",
		"tui/console imports sparql/algebra", "crawler/frontier imports graph/kv", "kb and crawler import each other",
	}
	if len(got) != len(want) {
		t.Errorf("%d violations, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, w) }) {
			t.Errorf("no violation %q in:\n%s", w, strings.Join(got, "\n"))
		}
	}
	ok := []pkg{
		{Path: "tui/crawls", Deps: []string{"control/api", "sparql/parse", "sparql/syntax", "rdf"}},
		{Path: "kb/aah", Imports: []string{"crawler"}},
	}
	if got := violations(ok); len(got) != 0 {
		t.Errorf("violations of allowed imports: %q", got)
	}
}
