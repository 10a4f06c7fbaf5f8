package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// mneme runs one command line in-process and returns its exit code and
// outputs.
func mneme(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestVersion(t *testing.T) {
	code, out, _ := mneme(t, "", "version")
	if code != 0 || !strings.HasPrefix(out, "mneme ") || !strings.Contains(out, "go1.") {
		t.Fatalf("version: code %d, out %q", code, out)
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"no-such-command"},
		{"rdf", "no-such-command"},
		{"version", "extra"},
		{"--no-such-flag"},
		{"rdf", "validate"},
		{"rdf", "convert", "only-one"},
		{"rdf", "validate", "--from", "klingon", "x.nt"},
	} {
		code, _, errOut := mneme(t, "", args...)
		if code != 2 {
			t.Errorf("mneme %s: exit %d, want 2 (stderr %q)", strings.Join(args, " "), code, errOut)
		}
	}
}

func TestHelpOnEveryCommand(t *testing.T) {
	var walk func(path []string)
	root := newRootCmd()
	seen := 0
	walk = func(path []string) {
		code, out, errOut := mneme(t, "", append(path, "--help")...)
		if code != 0 || !strings.Contains(out, "Usage:") {
			t.Errorf("mneme %s --help: exit %d, out %q, err %q", strings.Join(path, " "), code, out, errOut)
		}
		seen++
	}
	walk(nil)
	for _, c := range root.Commands() {
		walk([]string{c.Name()})
		for _, sub := range c.Commands() {
			walk([]string{c.Name(), sub.Name()})
		}
	}
	if seen < 4 {
		t.Fatalf("only %d commands checked", seen)
	}
}
