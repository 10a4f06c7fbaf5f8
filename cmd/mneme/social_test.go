package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSocialImportListStatus imports a tweet collection as a campaign and
// reads it back with social list and social status, as tables.
func TestSocialImportListStatus(t *testing.T) {
	data := t.TempDir()
	code, out, errOut := mneme(t, "", "social", "list", "--data", data)
	if code != 0 || out != "ID  STATE  PASS  POSTS  REQUESTS  PAIRS\n--  -----  ----  -----  --------  -----\nno campaigns\n" {
		t.Errorf("list of none: exit %d\n%s%s", code, out, errOut)
	}
	file, err := filepath.Abs("../../social/importer/testdata/mixed.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if code, out, errOut = mneme(t, "", "social", "import", "--data", data, "--id", "tw", file); code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = mneme(t, "", "social", "list", "--data", data)
	if row := regexp.MustCompile(`(?m)^tw\s+done\s+1\s+5\s+0\s+1$`); code != 0 || !row.MatchString(out) {
		t.Errorf("list: exit %d, want a row of campaign tw, done, 5 posts, 1 pair\n%s%s", code, out, errOut)
	}
	code, out, errOut = mneme(t, "", "social", "status", "tw", "--data", data)
	if code != 0 || !strings.HasPrefix(out, "campaign tw: done") || !regexp.MustCompile(`(?m)^import\s+list\s+`+regexp.QuoteMeta(file)+`\s`).MatchString(out) {
		t.Errorf("status: exit %d, want the campaign's line and its pair's row\n%s%s", code, out, errOut)
	}
}
