package control

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler"
)

var errEnough = errors.New("enough")

// TestLifecycle drives a real crawl through every endpoint with the
// client: create, list, start, events, pause, resume, queues, seeds,
// scope, injection, stop, get, start again to the end, and a refused start
// of the finished crawl.
func TestLifecycle(t *testing.T) {
	ctx := context.Background()
	a, b := newSite(t, 12), newSite(t, 7)
	s := newServer(t)
	c := s.client()

	st, err := c.Create(ctx, specYAML("t1", a.URL("/p/0")))
	if err != nil {
		t.Fatal(err)
	}
	if st.ID != "t1" || st.State != crawler.StateStopped {
		t.Fatalf("created: %+v", st)
	}
	list, err := c.List(ctx)
	if err != nil || len(list) != 1 || list[0].ID != "t1" {
		t.Fatalf("list: %+v, %v", list, err)
	}
	if st, err = c.Do(ctx, "t1", "start"); err != nil || st.State != crawler.StateRunning {
		t.Fatalf("start: %+v, %v", st, err)
	}
	<-a.Hit // the crawl holds /gate: it runs until the gate opens

	var first api.Status
	err = c.Events(ctx, "t1", func(s api.Status, end bool) error {
		first = s
		return errEnough
	})
	if !errors.Is(err, errEnough) || first.ID != "t1" || first.State != crawler.StateRunning || !first.Live {
		t.Fatalf("first event: %+v, %v", first, err)
	}
	if first.Fetched < 1 || len(first.Recent) < 1 || first.Recent[0].URL == "" {
		t.Errorf("first event has no fetches though /gate was reached: %+v", first)
	}

	if st, err = c.Do(ctx, "t1", "pause"); err != nil || st.State != crawler.StatePaused {
		t.Fatalf("pause: %+v, %v", st, err)
	}
	if st, err = c.Status(ctx, "t1"); err != nil || st.State != crawler.StatePaused {
		t.Fatalf("status while paused: %+v, %v", st, err)
	}
	if st, err = c.Do(ctx, "t1", "resume"); err != nil || st.State != crawler.StateRunning {
		t.Fatalf("resume: %+v, %v", st, err)
	}

	qs, err := c.Queues(ctx, "t1", 10)
	if err != nil || qs.Total != 1 || len(qs.Queues) != 1 || !strings.Contains(a.URL(""), qs.Queues[0].Key) {
		t.Fatalf("queues: %+v, %v", qs, err)
	}

	// The scope edit and the blacklist name pages of site b, which the
	// crawl cannot have found before its seed is added below (site a's
	// pages are found as fast as they are fetched).
	excl := "^" + regexp.QuoteMeta(b.URL("/p/5")) + "$"
	sp, err := c.EditScope(ctx, "t1", []byte(`{"exclude": ["`+strings.ReplaceAll(excl, `\`, `\\`)+`"]}`))
	if err != nil || !strings.Contains(sp, "exclude:") {
		t.Fatalf("edit scope: %v\n%s", err, sp)
	}
	score := 0.5
	res, err := c.Inject(ctx, "t1", []api.InjectItem{{URL: b.URL("/extra"), Score: &score}, {URL: b.URL("/p/6"), Blacklisted: true}})
	if err != nil || res.Scheduled != 1 || res.Blacklisted != 1 {
		t.Fatalf("inject: %+v, %v", res, err)
	}
	sp, err = c.AddSeeds(ctx, "t1", b.URL("/p/0"))
	if err != nil || !strings.Contains(sp, b.URL("/p/0")) {
		t.Fatalf("add seeds: %v\n%s", err, sp)
	}

	if st, err = c.Do(ctx, "t1", "stop"); err != nil || st.State != crawler.StateStopped {
		t.Fatalf("stop: %+v, %v", st, err)
	}
	got, err := c.Get(ctx, "t1")
	if err != nil || got.Status.State != crawler.StateStopped || !strings.Contains(got.Spec, b.URL("/p/0")) {
		t.Fatalf("get after stop: %+v, %v", got, err)
	}

	a.Open()
	b.Open()
	if _, err = c.Do(ctx, "t1", "start"); err != nil {
		t.Fatalf("start again: %v", err)
	}
	var last api.Status
	err = c.Events(ctx, "t1", func(s api.Status, end bool) error {
		if end {
			last = s
		}
		return nil
	})
	if err != nil || last.State != crawler.StateFinished {
		t.Fatalf("events to the end: last %+v, %v", last, err)
	}
	if n := b.Hits("/p/5"); n != 0 {
		t.Errorf("site b /p/5, excluded by the scope edit, fetched %d times", n)
	}
	if n := b.Hits("/p/6"); n != 0 {
		t.Errorf("site b /p/6, blacklisted, fetched %d times", n)
	}
	for _, p := range []string{"/p/0", "/p/2", "/extra"} {
		if b.Hits(p) == 0 {
			t.Errorf("site b %s (added seed, its link, injected) never fetched", p)
		}
	}
	_, err = c.Do(ctx, "t1", "start")
	var ae *api.APIError
	if !errors.As(err, &ae) || ae.Code != 409 || !strings.Contains(ae.Message, "finished") {
		t.Errorf("start of a finished crawl: %v, want 409", err)
	}
}

// TestConcurrentClients has several clients poll, list, inject and stream
// events from one running crawl at once.
func TestConcurrentClients(t *testing.T) {
	ctx := context.Background()
	a := newSite(t, 5)
	s := newServer(t)
	c := s.client()
	if _, err := c.Create(ctx, specYAML("busy", a.URL("/p/0"))); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(ctx, "busy", "start"); err != nil {
		t.Fatal(err)
	}
	<-a.Hit
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl := s.client()
			for j := range 10 {
				if _, err := cl.Status(ctx, "busy"); err != nil {
					errs <- err
				}
				if l, err := cl.List(ctx); err != nil || len(l) != 1 {
					errs <- errors.Join(err, errors.New("list is not one crawl"))
				}
				u := a.URL("/x/" + string(rune('a'+i)) + string(rune('a'+j)))
				if r, err := cl.Inject(ctx, "busy", []api.InjectItem{{URL: u}}); err != nil || r.Scheduled != 1 {
					errs <- errors.Join(err, errors.New("injection not scheduled"))
				}
			}
			n := 0
			err := cl.Events(ctx, "busy", func(api.Status, bool) error {
				if n++; n == 2 {
					return errEnough
				}
				return nil
			})
			if !errors.Is(err, errEnough) {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if st, err := c.Do(ctx, "busy", "stop"); err != nil || st.State != crawler.StateStopped {
		t.Fatalf("stop: %+v, %v", st, err)
	}
}

// TestIncrementalFlag checks that a crawl's status says whether it is
// incremental, live and from its folder, so clients draw activity rather
// than progress for it.
func TestIncrementalFlag(t *testing.T) {
	ctx := context.Background()
	a := newSite(t, 2)
	s := newServer(t)
	c := s.client()
	inc := append(specYAML("inc", a.URL("/p/0")), []byte("incremental: {policy: ar}\n")...)
	for id, y := range map[string][]byte{"inc": inc, "snap": specYAML("snap", a.URL("/p/0"))} {
		st, err := c.Create(ctx, y)
		if err != nil {
			t.Fatal(err)
		}
		if st.Incremental != (id == "inc") {
			t.Errorf("created %s: incremental %v", id, st.Incremental)
		}
	}
	list, err := c.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range list {
		if st.Incremental != (st.ID == "inc") {
			t.Errorf("listed %s: incremental %v", st.ID, st.Incremental)
		}
	}
	st, err := crawler.ReadStatus(s.data, "inc")
	if err != nil || !st.Incremental {
		t.Errorf("read from its folder: %+v, %v", st, err)
	}
}
