package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/adapt"
)

// TestKBLearned lists a data folder's learned patterns, rejects one, and
// checks the learned file with kb check.
func TestKBLearned(t *testing.T) {
	data := t.TempDir()
	code, out, _ := mneme(t, "", "kb", "learned", "--data", data)
	if code != 0 || !strings.Contains(out, "no learned patterns") {
		t.Fatalf("empty folder: code %d, %q", code, out)
	}
	l, err := adapt.OpenLearned(adapt.LearnedPath(data))
	if err != nil {
		t.Fatal(err)
	}
	p := adapt.Proposal{Status: adapt.Pending, Site: "127.0.0.1:8082", Type: "mediawiki", Level: "article",
		Action: adapt.ActionField, Object: kb.WikiArticle, Field: kb.FieldModified, Pattern: "//li[@id='lastmod']",
		Replaces: []string{"//li[@id='footer-info-lastmod']"}, Method: adapt.MethodRelax, Relaxations: 1,
		Pages: []string{"a", "b", "c"}, Checked: 3, Learned: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}
	if _, err := l.Add(p); err != nil {
		t.Fatal(err)
	}
	id := l.List()[0].ID
	code, out, errOut := mneme(t, "", "kb", "learned", "--data", data)
	if code != 0 || !strings.Contains(out, id+" pending") || !strings.Contains(out, "//li[@id='lastmod']") || !strings.Contains(out, "worked on 3 of 3 pages") {
		t.Fatalf("list: code %d, %q %q", code, out, errOut)
	}
	if code, _, errOut := mneme(t, "", "kb", "learned", "--data", data, "--reject", id); code != 0 {
		t.Fatalf("reject: code %d, %q", code, errOut)
	}
	if _, out, _ := mneme(t, "", "kb", "learned", "--data", data); !strings.Contains(out, id+" rejected") {
		t.Errorf("after reject: %q", out)
	}
	if code, _, _ := mneme(t, "", "kb", "learned", "--data", data, "--accept", "nosuch"); code == 0 {
		t.Error("accepting an unknown ID succeeded")
	}
	code, out, errOut = mneme(t, "", "kb", "check", adapt.LearnedPath(data))
	if code != 0 || !strings.Contains(out, "1 learned patterns") {
		t.Errorf("kb check of the learned file: code %d, %q %q", code, out, errOut)
	}
	bad := filepath.Join(t.TempDir(), "learned.yaml")
	os.WriteFile(bad, []byte("learned:\n  - status: pending\n"), 0o644)
	code, _, errOut = mneme(t, "", "kb", "check", bad)
	if code == 0 || !strings.Contains(errOut, bad+":2:") {
		t.Errorf("kb check of a bad learned file: code %d, %q", code, errOut)
	}
}
