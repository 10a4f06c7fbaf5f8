package frontier

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fakeClock is a settable clock: tests move time instead of sleeping.
type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func open(t *testing.T, dir string, opts Options) *Frontier {
	t.Helper()
	f, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if f.db != nil {
			f.Close()
		}
	})
	return f
}

func newTestFrontier(t *testing.T, opts Options) (*Frontier, *fakeClock) {
	t.Helper()
	clock := &fakeClock{t: epoch}
	opts.Clock = clock
	return open(t, t.TempDir(), opts), clock
}

func schedule(t *testing.T, f *Frontier, cs ...Candidate) {
	t.Helper()
	if err := f.Schedule(cs); err != nil {
		t.Fatal(err)
	}
}

// tryNext claims a URL, or returns nil if none is ready.
func tryNext(t *testing.T, f *Frontier) *Claim {
	t.Helper()
	c, _, err := f.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// next claims a URL and fails the test if none is ready.
func next(t *testing.T, f *Frontier) *Claim {
	t.Helper()
	c, wake, err := f.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c == nil {
		t.Fatalf("nothing ready (next wake %v)", wake)
	}
	return c
}

// drain claims and completes everything ready now, returning the URLs in
// claim order.
func drain(t *testing.T, f *Frontier) []string {
	t.Helper()
	var got []string
	for c := tryNext(t, f); c != nil; c = tryNext(t, f) {
		got = append(got, c.URL)
		if err := f.Complete(c.URL, Outcome{Status: Succeeded}); err != nil {
			t.Fatal(err)
		}
	}
	return got
}

// claimAll claims everything ready now without completing anything.
func claimAll(t *testing.T, f *Frontier) []string {
	t.Helper()
	var got []string
	for c := tryNext(t, f); c != nil; c = tryNext(t, f) {
		got = append(got, c.URL)
	}
	return got
}

func cand(url, queue string, score float64) Candidate {
	return Candidate{URL: url, QueueKey: queue, Score: score, Hops: "L", Via: "http://" + queue + "/"}
}

func TestOrderInsideQueue(t *testing.T) {
	f, _ := newTestFrontier(t, Options{SeenBatch: 1})
	schedule(t, f,
		cand("http://a/1", "a", 0.5),
		cand("http://a/2", "a", 0.9),
		cand("http://a/3", "a", 0.5),
		cand("http://a/4", "a", -1),
		cand("http://a/5", "a", 0.9),
	)
	got := strings.Join(drain(t, f), " ")
	want := "http://a/2 http://a/5 http://a/1 http://a/3 http://a/4"
	if got != want {
		t.Errorf("claim order\n got %s\nwant %s", got, want)
	}
}

func TestClaimCarriesCandidate(t *testing.T) {
	f, _ := newTestFrontier(t, Options{SeenBatch: 1})
	schedule(t, f, Candidate{URL: "http://a/x", QueueKey: "a", Score: 0.25, Hops: "LLE", Via: "http://a/"})
	c := next(t, f)
	want := Claim{URL: "http://a/x", QueueKey: "a", Hops: "LLE", Via: "http://a/", Score: 0.25}
	if !reflect.DeepEqual(*c, want) {
		t.Errorf("claim %+v, want %+v", *c, want)
	}
}

func TestDuplicatesScheduledOnce(t *testing.T) {
	f, _ := newTestFrontier(t, Options{SeenBatch: 4})
	schedule(t, f, cand("http://a/1", "a", 0), cand("http://a/1", "a", 0), cand("http://a/2", "a", 0))
	schedule(t, f, cand("http://a/2", "a", 0), cand("http://a/1", "a", 0))
	if got := drain(t, f); len(got) != 2 {
		t.Fatalf("claimed %v, want each URL once", got)
	}
	schedule(t, f, cand("http://a/1", "a", 0))
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	if tot := f.Totals(); tot.Queued != 0 || tot.Succeeded != 2 {
		t.Errorf("totals %+v, want nothing queued after a done URL is rediscovered", tot)
	}
}

// TestPolitenessSnooze: a queue waits until the snooze time given at
// completion; other queues are served meanwhile, in the order they became
// ready.
func TestPolitenessSnooze(t *testing.T) {
	f, clock := newTestFrontier(t, Options{SeenBatch: 1})
	schedule(t, f, cand("http://a/1", "a", 0), cand("http://a/2", "a", 0))
	clock.advance(time.Second)
	schedule(t, f, cand("http://b/1", "b", 0))

	c := next(t, f)
	if c.URL != "http://a/1" {
		t.Fatalf("first claim %s, want the queue ready first", c.URL)
	}
	if st, _ := f.Queue("a"); st.State != Busy {
		t.Errorf("queue a is %s while its URL is in flight, want busy", st.State)
	}
	wait := DefaultPoliteness.Wait(2*time.Second, 0)
	if wait != 10*time.Second {
		t.Fatalf("Heritrix wait for a 2 s fetch = %v, want 10s", wait)
	}
	if err := f.Complete(c.URL, Outcome{Status: Succeeded, FetchDuration: 2 * time.Second, SnoozeUntil: clock.Now().Add(wait)}); err != nil {
		t.Fatal(err)
	}
	st, _ := f.Queue("a")
	if st.State != Snoozed || !st.NextReady.Equal(clock.Now().Add(wait)) || st.LastFetch != 2*time.Second {
		t.Errorf("queue a after completion: %+v", st)
	}
	if c := next(t, f); c.URL != "http://b/1" {
		t.Fatalf("claim during snooze: %s, want b's URL", c.URL)
	}
	c2, wake, err := f.Next(context.Background())
	if err != nil || c2 != nil {
		t.Fatalf("Next while everything waits: %v, %v", c2, err)
	}
	if !wake.Equal(clock.Now().Add(wait)) {
		t.Errorf("wake %v, want %v", wake, clock.Now().Add(wait))
	}
	clock.advance(wait)
	if c := next(t, f); c.URL != "http://a/2" {
		t.Errorf("claim after snooze: %s", c.URL)
	}
}

func TestValence(t *testing.T) {
	f, _ := newTestFrontier(t, Options{SeenBatch: 1, QueuePolicy: func(key string) QueuePolicy {
		if key == "wide" {
			return QueuePolicy{Valence: 2}
		}
		return QueuePolicy{}
	}})
	schedule(t, f, cand("http://w/1", "wide", 0), cand("http://w/2", "wide", 0), cand("http://w/3", "wide", 0),
		cand("http://n/1", "narrow", 0), cand("http://n/2", "narrow", 0))
	got := claimAll(t, f)
	// wide is served, goes to the back behind narrow, then serves again.
	want := "http://w/1 http://n/1 http://w/2"
	if strings.Join(got, " ") != want {
		t.Errorf("claims without completion: %v, want %s", got, want)
	}
	if st, _ := f.Queue("wide"); st.InFlight != 2 || st.State != Busy || st.Valence != 2 {
		t.Errorf("wide queue: %+v", st)
	}
}

func TestBudget(t *testing.T) {
	f, _ := newTestFrontier(t, Options{SeenBatch: 1, QueuePolicy: func(string) QueuePolicy { return QueuePolicy{Budget: 2} }})
	schedule(t, f, cand("http://a/1", "a", 0), cand("http://a/2", "a", 0), cand("http://a/3", "a", 0))
	if got := drain(t, f); len(got) != 2 {
		t.Fatalf("claimed %v with a budget of 2", got)
	}
	st, _ := f.Queue("a")
	if st.State != Exhausted || st.Size != 1 || st.BudgetUsed != 2 {
		t.Errorf("queue after budget: %+v", st)
	}
	if ok, err := f.SetQueuePolicy("a", QueuePolicy{Budget: 3}); !ok || err != nil {
		t.Fatalf("SetQueuePolicy: %v, %v", ok, err)
	}
	if got := drain(t, f); len(got) != 1 || got[0] != "http://a/3" {
		t.Errorf("after raising the budget: %v", got)
	}
	if ok, _ := f.SetQueuePolicy("nope", QueuePolicy{}); ok {
		t.Error("SetQueuePolicy reported an unknown queue as existing")
	}
}

func TestRetryLater(t *testing.T) {
	f, clock := newTestFrontier(t, Options{SeenBatch: 1})
	schedule(t, f, cand("http://a/1", "a", 0), cand("http://a/2", "a", 0))
	c := next(t, f)
	retryAt, ok := DefaultPoliteness.Retry(clock.Now(), c.Retries+1, 0)
	if !ok || !retryAt.Equal(clock.Now().Add(900*time.Second)) {
		t.Fatalf("Retry = %v, %v", retryAt, ok)
	}
	if err := f.Complete(c.URL, Outcome{Status: RetryLater, RetryAt: retryAt}); err != nil {
		t.Fatal(err)
	}
	if c, wake, _ := f.Next(context.Background()); c != nil || !wake.Equal(retryAt) {
		t.Fatalf("during the retry delay: claim %v, wake %v", c, wake)
	}
	clock.advance(900 * time.Second)
	c = next(t, f)
	if c.URL != "http://a/1" || c.Retries != 1 {
		t.Errorf("retried claim %+v, want a/1 first again with 1 retry", *c)
	}
	if _, ok := DefaultPoliteness.Retry(clock.Now(), 31, 0); ok {
		t.Error("Retry allowed more than MaxRetries")
	}
	if at, _ := DefaultPoliteness.Retry(clock.Now(), 1, time.Hour); !at.Equal(clock.Now().Add(time.Hour)) {
		t.Errorf("Retry-After of an hour gives %v", at)
	}
	if at, _ := DefaultPoliteness.Retry(clock.Now(), 1, 30*24*time.Hour); !at.Equal(clock.Now().Add(DefaultPoliteness.MaxRetryDelay)) {
		t.Errorf("Retry-After of 30 days gives %v, want the %v cap", at, DefaultPoliteness.MaxRetryDelay)
	}
}

// TestRetryURLLater: a URL retried by itself waits while its queue serves
// its other URLs, and comes back once due with its retry counted.
func TestRetryURLLater(t *testing.T) {
	f, clock := newTestFrontier(t, Options{SeenBatch: 1})
	schedule(t, f, cand("http://a/1", "a", 0), cand("http://a/2", "a", 0))
	c := next(t, f)
	if c.URL != "http://a/1" {
		t.Fatalf("first claim %s", c.URL)
	}
	at := clock.Now().Add(10 * time.Second)
	if err := f.Complete(c.URL, Outcome{Status: RetryLater, RetryURLAt: at}); err != nil {
		t.Fatal(err)
	}
	c = next(t, f) // the queue is not snoozed
	if c.URL != "http://a/2" {
		t.Fatalf("during a/1's retry delay: claim %s, want a/2", c.URL)
	}
	if err := f.Complete(c.URL, Outcome{Status: Succeeded}); err != nil {
		t.Fatal(err)
	}
	if c, wake, _ := f.Next(context.Background()); c != nil || !wake.Equal(at) {
		t.Fatalf("with only a/1 waiting: claim %v, wake %v, want %v", c, wake, at)
	}
	clock.advance(10 * time.Second)
	c = next(t, f)
	if c.URL != "http://a/1" || c.Retries != 1 || c.History != nil {
		t.Fatalf("retried claim %+v, want a/1 with 1 retry and no history", *c)
	}
	if err := f.Complete(c.URL, Outcome{Status: Succeeded}); err != nil {
		t.Fatal(err)
	}
	if tot := f.Totals(); tot.Succeeded != 2 || tot.Waiting != 0 || tot.Queued != 0 {
		t.Errorf("totals %+v", tot)
	}
}

func TestCompleteErrors(t *testing.T) {
	f, _ := newTestFrontier(t, Options{SeenBatch: 1})
	schedule(t, f, cand("http://a/1", "a", 0))
	if err := f.Complete("http://a/1", Outcome{Status: Succeeded}); !errors.Is(err, ErrNotInFlight) {
		t.Errorf("completing a queued URL: %v", err)
	}
	if err := f.Complete("http://nowhere/", Outcome{Status: Failed}); !errors.Is(err, ErrNotInFlight) {
		t.Errorf("completing an unknown URL: %v", err)
	}
	c := next(t, f)
	if err := f.Complete(c.URL, Outcome{}); err == nil || !strings.Contains(err.Error(), "unknown status") {
		t.Errorf("completing without a status: %v", err)
	}
	if err := f.Complete(c.URL, Outcome{Status: Disregarded}); err != nil {
		t.Fatal(err)
	}
	if err := f.Complete(c.URL, Outcome{Status: Disregarded}); !errors.Is(err, ErrNotInFlight) {
		t.Errorf("completing twice: %v", err)
	}
	if tot := f.Totals(); tot.Disregarded != 1 || tot.InFlight != 0 {
		t.Errorf("totals %+v", tot)
	}
}

// TestScheduleAllOrNothing: one bad candidate rejects the whole batch.
func TestScheduleAllOrNothing(t *testing.T) {
	f, _ := newTestFrontier(t, Options{})
	for _, bad := range []Candidate{
		{URL: "", QueueKey: "a"},
		{URL: "http://a/", QueueKey: ""},
		{URL: "http://a/", QueueKey: "a", Score: nan()},
		{URL: "http://a/", QueueKey: "a", Update: 9},
	} {
		err := f.Schedule([]Candidate{cand("http://a/ok", "a", 0), bad})
		if err == nil || !strings.Contains(err.Error(), "candidate 1") {
			t.Errorf("Schedule with %+v: %v", bad, err)
		}
	}
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	if tot := f.Totals(); tot.Queued != 0 || tot.Pending != 0 {
		t.Errorf("rejected batches left %+v", tot)
	}
	if err := f.UpdatePriority([]Rescore{{URL: "http://a/", Score: nan()}}); err == nil {
		t.Error("UpdatePriority accepted a NaN score")
	}
	if err := f.Blacklist([]string{""}); err == nil {
		t.Error("Blacklist accepted an empty URL")
	}
}

func nan() float64 { var z float64; return z / z }

func TestParseUpdateFunc(t *testing.T) {
	for _, u := range []UpdateFunc{UpdateFirst, UpdateLast, UpdateMax, UpdateSum, UpdateAvg} {
		got, err := ParseUpdateFunc(u.String())
		if err != nil || got != u {
			t.Errorf("ParseUpdateFunc(%q) = %v, %v", u.String(), got, err)
		}
	}
	if _, err := ParseUpdateFunc("MEDIAN"); err == nil {
		t.Error("ParseUpdateFunc accepted MEDIAN")
	}
}

// TestUpdateFunctions checks that re-scoring queued URLs reorders their
// queue as each update function defines: x, y, z start at 0.5, 0.4, 0.3;
// rediscovery brings x 0.05, y 0.35, z 0.6, then the injection service
// sends z 0.05. Every function gives a different order.
func TestUpdateFunctions(t *testing.T) {
	for _, tc := range []struct {
		u    UpdateFunc
		want string // claim order
	}{
		{UpdateFirst, "x y z"}, // 0.5 0.4 0.3
		{UpdateLast, "y x z"},  // 0.05 0.35 0.05 (x before z: inserted first)
		{UpdateMax, "z x y"},   // 0.5 0.4 0.6
		{UpdateSum, "z y x"},   // 0.55 0.75 0.95
		{UpdateAvg, "y z x"},   // 0.275 0.375 0.3167
	} {
		t.Run(tc.u.String(), func(t *testing.T) {
			f, _ := newTestFrontier(t, Options{SeenBatch: 2})
			schedule(t, f, cand("x", "q", 0.5), cand("y", "q", 0.4), cand("z", "q", 0.3))
			up := func(url string, s float64) Candidate { c := cand(url, "q", s); c.Update = tc.u; return c }
			schedule(t, f, up("x", 0.05), up("y", 0.35), up("z", 0.6))
			if err := f.UpdatePriority([]Rescore{{URL: "z", Score: 0.05, Update: tc.u}}); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(drain(t, f), " "); got != tc.want {
				t.Errorf("%s: order %q, want %q", tc.u, got, tc.want)
			}
		})
	}
}

func TestBlacklist(t *testing.T) {
	f, _ := newTestFrontier(t, Options{SeenBatch: 100})
	schedule(t, f, cand("http://a/1", "a", 0), cand("http://a/2", "a", 0), cand("http://a/3", "a", 0))
	flying := next(t, f) // flushes and claims a/1
	if err := f.Blacklist([]string{"http://a/2", "http://a/1", "http://evil/", "http://a/2"}); err != nil {
		t.Fatal(err)
	}
	// Later sightings and updates are ignored.
	schedule(t, f, cand("http://evil/", "evil", 1), cand("http://a/2", "a", 1))
	if err := f.UpdatePriority([]Rescore{{URL: "http://a/2", Score: 5, Update: UpdateLast}}); err != nil {
		t.Fatal(err)
	}
	if err := f.Complete(flying.URL, Outcome{Status: RetryLater}); err != nil {
		t.Fatal(err)
	}
	if got := drain(t, f); len(got) != 1 || got[0] != "http://a/3" {
		t.Errorf("claimed %v, want only the URL never blacklisted", got)
	}
	tot := f.Totals()
	if tot.Blacklisted != 3 || tot.Queued != 0 || tot.InFlight != 0 || tot.Succeeded != 1 {
		t.Errorf("totals %+v", tot)
	}
}

// TestBlacklistInFlightSurvivesCrash: a URL blacklisted while in flight is
// not requeued by reopening.
func TestBlacklistInFlightSurvivesCrash(t *testing.T) {
	dir := t.TempDir()
	f := open(t, dir, Options{SeenBatch: 1})
	schedule(t, f, cand("http://a/1", "a", 0), cand("http://b/1", "b", 0))
	a, b := next(t, f), next(t, f)
	if err := f.Blacklist([]string{a.URL}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	f = open(t, dir, Options{SeenBatch: 1})
	if got := drain(t, f); len(got) != 1 || got[0] != b.URL {
		t.Errorf("after reopen claimed %v, want only %s", got, b.URL)
	}
	if tot := f.Totals(); tot.Blacklisted != 1 || tot.InFlight != 0 || tot.Queued != 0 {
		t.Errorf("totals %+v", tot)
	}
}

func TestQueueStates(t *testing.T) {
	f, clock := newTestFrontier(t, Options{SeenBatch: 1})
	schedule(t, f, cand("http://a/1", "a", 0))
	st, ok := f.Queue("a")
	if !ok || st.State != Ready || st.Size != 1 || !st.NextReady.Equal(clock.Now()) {
		t.Errorf("new queue: %+v", st)
	}
	c := next(t, f)
	if err := f.Complete(c.URL, Outcome{Status: Succeeded, SnoozeUntil: clock.Now().Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	var states []QueueState
	f.EachQueue(func(s QueueStats) bool { states = append(states, s.State); return true })
	if len(states) != 1 || states[0] != Empty {
		t.Errorf("drained queue states %v, want [empty]", states)
	}
	schedule(t, f, cand("http://a/2", "a", 0))
	if st, _ := f.Queue("a"); st.State != Snoozed {
		t.Errorf("queue with a URL during its snooze: %s", st.State)
	}
	if _, ok := f.Queue("zzz"); ok {
		t.Error("unknown queue reported")
	}
}

func TestClosed(t *testing.T) {
	f, _ := newTestFrontier(t, Options{})
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.Next(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Next after Close: %v", err)
	}
	if err := f.Schedule([]Candidate{cand("http://a/", "a", 0)}); !errors.Is(err, ErrClosed) {
		t.Errorf("Schedule after Close: %v", err)
	}
	if err := f.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close: %v", err)
	}
}

func TestNextHonoursContext(t *testing.T) {
	f, _ := newTestFrontier(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := f.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Next with a cancelled context: %v", err)
	}
}
