package crawler

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"testing"

	"github.com/mneme-archive/mneme/crawler/inject"
	"github.com/mneme-archive/mneme/crawler/spec"
)

// TestEdit adds a seed on another site and an exclusion to an open crawl:
// the new site is crawled, the excluded page is not, spec.yaml keeps the
// edit, a bad edit changes nothing and a closed crawl refuses edits.
func TestEdit(t *testing.T) {
	a, b := newSite(t, "", 7), newSite(t, "", 3)
	s := testSpec(t, a.URL("/p/0"))
	s.Politeness.Off = true
	c, err := New(s, Deps{Store: openStore(t, s.Output)})
	if err != nil {
		t.Fatal(err)
	}
	sc := c.Spec().Scope
	bad := sc
	bad.Exclude = []string{"("}
	if err := c.Edit([]string{a.URL("/p/0"), b.URL("/p/0")}, bad); err == nil {
		t.Fatal("a scope with a bad regexp was accepted")
	}
	if got := c.Spec().Seeds; len(got) != 1 {
		t.Fatalf("a failed edit changed the seeds: %v", got)
	}
	sc.Exclude = []string{"^" + regexp.QuoteMeta(a.URL("/p/2")) + "$"}
	seeds := []string{a.URL("/p/0"), b.URL("/p/0")}
	if err := c.Edit(seeds, sc); err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/p/1", "/p/3", "/p/4"} {
		if a.Hits(p) != 1 {
			t.Errorf("site a %s fetched %d times, want 1", p, a.Hits(p))
		}
	}
	if n := a.Hits("/p/2"); n != 0 {
		t.Errorf("excluded /p/2 fetched %d times", n)
	}
	for _, p := range []string{"/p/0", "/p/1", "/p/2"} {
		if b.Hits(p) != 1 {
			t.Errorf("added seed's site %s fetched %d times, want 1", p, b.Hits(p))
		}
	}
	saved, err := spec.Load(Layout{Data: s.Output}.Spec(s.ID))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(saved.Seeds, seeds) || !slices.Equal(saved.Scope.Exclude, sc.Exclude) {
		t.Errorf("spec.yaml after the edit: seeds %v, exclude %v", saved.Seeds, saved.Scope.Exclude)
	}
	if st, err := ReadStatus(s.Output, s.ID); err != nil || st.State != StateFinished || st.ID != s.ID {
		t.Errorf("ReadStatus after the run: %+v, %v; want %s finished", st, err, s.ID)
	}
	if err := c.Edit(seeds, sc); !errors.Is(err, inject.ErrNotRunning) {
		t.Errorf("edit of a closed crawl: %v, want ErrNotRunning", err)
	}
}
