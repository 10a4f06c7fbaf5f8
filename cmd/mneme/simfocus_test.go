package main

import (
	"strings"
	"testing"
)

func TestSimFocusTable(t *testing.T) {
	code, out, errOut := mneme(t, "", "sim", "focus", "--web-pages", "1200", "--topics", "4", "--pages", "60", "--topic", "1",
		"--settings", "bfs,batch:2:3", "--updates", "AVG,FIRST")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// A header, then breadth-first once and the batch setting with each update function.
	for _, want := range []string{"1200 pages, 4 topics", "\nbreadth-first  -      ", "\nbatch b=2 k=3  AVG    ", "\nbatch b=2 k=3  FIRST  "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestSimFocusUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"sim", "focus", "--settings", "batch:5"},
		{"sim", "focus", "--updates", "MEDIAN"},
		{"sim", "focus", "--topic", "12"},
	} {
		if code, _, _ := mneme(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage)", args, code)
		}
	}
}
