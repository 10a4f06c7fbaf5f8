package fakeapi

import (
	"context"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/social/platform"
)

// CheckFaults has the server answer with each fault of Faults in turn
// (set(f)) and checks that the Fetch of q fails with an error saying
// prefix (the platform, method and URL) and want[f], and none of secrets;
// then, the fault cleared (set(Nothing)), that the next Fetch works and
// its page is as ok says.
func CheckFaults(t testing.TB, p platform.Platform, env platform.Env, q platform.Query, set func(Fault),
	prefix string, want map[Fault][]string, secrets []string, ok func(platform.Page) bool) {
	t.Helper()
	for _, f := range Faults {
		set(f)
		_, err := p.Fetch(context.Background(), env, q, nil)
		if err == nil {
			t.Fatalf("%s: no error", f)
		}
		msg := err.Error()
		for _, w := range append([]string{prefix}, want[f]...) {
			if !strings.Contains(msg, w) {
				t.Fatalf("%s: error %q does not say %q", f, msg, w)
			}
		}
		for _, s := range secrets {
			if strings.Contains(msg, s) {
				t.Fatalf("%s: error shows a secret: %s", f, msg)
			}
		}
		set(Nothing)
		if page, err := p.Fetch(context.Background(), env, q, nil); err != nil || !ok(page) {
			t.Fatalf("after %s: %v, %d posts", f, err, len(page.Posts))
		}
	}
}
