package control

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/adapt"
)

// crawlPage archives the test site's blog post and returns its URL.
func crawlPage(t *testing.T, s *server) string {
	t.Helper()
	site := newSite(t, 1)
	ctx := context.Background()
	c := s.client()
	page := site.URL("/post")
	if _, err := c.Create(ctx, specYAML("r1", page)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(ctx, "r1", "start"); err != nil {
		t.Fatal(err)
	}
	err := c.Events(ctx, "r1", func(st api.Status, end bool) error {
		if end && st.State != "finished" {
			return fmt.Errorf("crawl ended %s: %s", st.State, st.Reason)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// TestReviewLearnedPattern lists a learned title pattern, previews it on
// the archived page (no title before, the headline after), accepts and
// rejects it, and checks the errors of the learned-pattern endpoints.
func TestReviewLearnedPattern(t *testing.T) {
	ctx := context.Background()
	s := newServer(t)
	c := s.client()
	if l, err := c.Learned(ctx); err != nil || len(l.Patterns) != 0 || l.File != adapt.LearnedPath(s.data) {
		t.Fatalf("learned patterns of a new data folder: %+v, %v", l, err)
	}
	page := crawlPage(t, s)
	lf, err := adapt.OpenLearned(adapt.LearnedPath(s.data))
	if err != nil {
		t.Fatal(err)
	}
	p := adapt.Proposal{Status: adapt.Pending, Site: strings.TrimPrefix(page[:strings.LastIndex(page, "/")], "http://"),
		Type: "wordpress", Level: "post", Action: adapt.ActionField, Object: kb.BlogPost, Field: kb.FieldTitle,
		Pattern: ".//h2[contains(@class, 'headline')]", Replaces: []string{".//h1"}, Method: adapt.MethodRelearn,
		Pages: []string{page}, Checked: 3, Learned: time.Now().UTC().Truncate(time.Second)}
	unchecked := p
	unchecked.Pattern, unchecked.Pages = ".//h2", nil
	if _, err := lf.Add(p, unchecked); err != nil {
		t.Fatal(err)
	}
	l, err := c.Learned(ctx)
	if err != nil || len(l.Patterns) != 2 || l.Patterns[0].Pattern != p.Pattern || l.Patterns[0].Status != api.Pending {
		t.Fatalf("learned: %+v, %v", l, err)
	}
	id, noPages := l.Patterns[0].ID, l.Patterns[1].ID

	pv, err := c.Preview(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	if pv.URL != page || len(pv.Preview.Before) != 1 || len(pv.Preview.After) != 1 {
		t.Fatalf("preview: %+v", pv)
	}
	if b, a := pv.Preview.Before[0], pv.Preview.After[0]; b.Title != "" || a.Title != "Barn owls nest again" || !strings.Contains(a.Content, "Two chicks") {
		t.Errorf("title before %q, after %q (content %q)", b.Title, a.Title, a.Content)
	}
	titleFailed := func(fs []api.Failure) bool {
		return slices.ContainsFunc(fs, func(f api.Failure) bool { return f.Field == string(kb.FieldTitle) })
	}
	if !titleFailed(pv.Preview.BeforeFailures) || titleFailed(pv.Preview.AfterFailures) {
		t.Errorf("title failures before %+v, after %+v", pv.Preview.BeforeFailures, pv.Preview.AfterFailures)
	}

	if got, err := c.Review(ctx, id, true); err != nil || got.Status != api.Accepted {
		t.Fatalf("accept: %+v, %v", got, err)
	}
	if got, err := c.Review(ctx, noPages, false); err != nil || got.Status != api.Rejected {
		t.Fatalf("reject: %+v, %v", got, err)
	}
	reread, err := adapt.OpenLearned(adapt.LearnedPath(s.data))
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := reread.Get(id); a.Status != adapt.Accepted {
		t.Errorf("accepted pattern in the file: %+v", a)
	}

	tok := "Bearer " + s.token
	for _, w := range []string{"/api/learned/" + id + "/accept", "/api/learned/" + id + "/reject"} {
		if code, msg := call(t, s, "POST", w, "", ""); code != 401 || !strings.Contains(msg, "bearer token is required") {
			t.Errorf("POST %s without a token: %d %q", w, code, msg)
		}
		if code, msg := call(t, s, "POST", w, "Bearer wrong", ""); code != 403 || !strings.Contains(msg, "wrong bearer token") {
			t.Errorf("POST %s with a wrong token: %d %q", w, code, msg)
		}
	}
	for _, tc := range []struct {
		method, path string
		code         int
		msg          string
	}{
		{"POST", "/api/learned/nope/accept", 404, `learned pattern "nope"`},
		{"POST", "/api/learned/" + id + "/maybe", 404, `no action "maybe"`},
		{"GET", "/api/learned/nope/preview", 404, `learned pattern "nope"`},
		{"GET", "/api/learned/" + noPages + "/preview", 400, "lists no pages: give one with ?url="},
		{"GET", "/api/learned/" + id + "/preview?url=http://127.0.0.1:1/never", 404, "no archived response of http://127.0.0.1:1/never"},
	} {
		if code, msg := call(t, s, tc.method, tc.path, tok, ""); code != tc.code || !strings.Contains(msg, tc.msg) {
			t.Errorf("%s %s: %d %q, want %d %q", tc.method, tc.path, code, msg, tc.code, tc.msg)
		}
	}
	var ae *api.APIError
	if _, err := c.Preview(ctx, id, "http://127.0.0.1:1/never"); !errors.As(err, &ae) || ae.Code != 404 {
		t.Errorf("client preview of a page not archived: %v", err)
	}
}
