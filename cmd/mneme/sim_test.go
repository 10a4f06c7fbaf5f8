package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSimRevisitJSON(t *testing.T) {
	code, out, errOut := mneme(t, "", "sim", "revisit", "--policy", "ar", "--pages", "200", "--days", "3", "--seed", "5", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	for _, k := range []string{"requests", "changes", "captured", "captured_per_request", "mean_staleness_s"} {
		if _, ok := r[k].(float64); !ok {
			t.Errorf("JSON lacks number %q: %s", k, out)
		}
	}
	// The budget defaults to one request per page per day, all used by ar
	// on the first day's captures and the revisits after.
	if r["budget_per_day"] != 200.0 || r["requests"].(float64) > 600 || r["captured"].(float64) > r["changes"].(float64) {
		t.Errorf("implausible result: %s", out)
	}
}

func TestSimRevisitText(t *testing.T) {
	code, out, errOut := mneme(t, "", "sim", "revisit", "--policy", "poisson", "--mix", "static80", "--pages", "100", "--days", "2", "--budget", "150")
	if code != 0 || !strings.Contains(out, "captured per request") || !strings.Contains(out, "150 requests/day") {
		t.Fatalf("exit %d, out %q, err %q", code, out, errOut)
	}
}

func TestSimRevisitUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"sim", "revisit"},
		{"sim", "revisit", "--policy", "lru"},
		{"sim", "revisit", "--policy", "ar", "--mix", "bimodal"},
		{"sim", "revisit", "--policy", "ar", "--pages", "0"},
		{"sim", "revisit", "--policy", "ar", "extra"},
		{"sim", "nothing"},
	} {
		if code, _, errOut := mneme(t, "", args...); code != 2 {
			t.Errorf("mneme %s: exit %d, want 2 (%s)", strings.Join(args, " "), code, errOut)
		}
	}
}
