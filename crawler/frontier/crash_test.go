package frontier

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// simWeb is a small link graph: page n links to 3n+1..3n+3 and back to
// n/2, on four hosts.
const simPages = 150

func simURL(n int) string { return fmt.Sprintf("http://h%d.test/%d", n%4, n) }

func simLinks(n int) []Candidate {
	var out []Candidate
	for _, k := range []int{3*n + 1, 3*n + 2, 3*n + 3, n / 2} {
		if k < simPages {
			out = append(out, Candidate{URL: simURL(k), QueueKey: fmt.Sprintf("h%d", k%4), Score: 1 / float64(1+k), Via: simURL(n)})
		}
	}
	return out
}

func simPage(t *testing.T, url string) int {
	t.Helper()
	var host, n int
	if _, err := fmt.Sscanf(url, "http://h%d.test/%d", &host, &n); err != nil {
		t.Fatalf("claimed a URL outside the simulated web: %q", url)
	}
	return n
}

// crawlStep claims up to three URLs, then for each schedules its links and
// completes it, as the crawl loop does. crash, if not nil, is called
// between scheduling the links of the last URL claimed and completing it.
func crawlStep(t *testing.T, f *Frontier, done map[string]bool, crash func()) bool {
	t.Helper()
	var claims []*Claim
	for len(claims) < 3 {
		c, _, err := f.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if c == nil {
			break
		}
		claims = append(claims, c)
	}
	for i, c := range claims {
		if done[c.URL] {
			t.Fatalf("%s fetched twice", c.URL)
		}
		if err := f.Schedule(simLinks(simPage(t, c.URL))); err != nil {
			t.Fatal(err)
		}
		if i == len(claims)-1 && crash != nil {
			crash()
			return false
		}
		if err := f.Complete(c.URL, Outcome{Status: Succeeded}); err != nil {
			t.Fatal(err)
		}
		done[c.URL] = true
	}
	return len(claims) > 0
}

// TestCrashMidCrawl copies the database at an arbitrary moment without
// flushing Pebble's WAL buffer (what kill -9 leaves on disk), resumes the
// crawl from the copy and checks the promise: every page is fetched, and
// none whose Complete had returned is fetched again.
func TestCrashMidCrawl(t *testing.T) {
	for _, crashAt := range []int{0, 1, 5, 12, 30} {
		for _, c := range []struct{ seenBatch, ingestMin, journalLimit int }{{1, 0, 0}, {16, 0, 0}, {16, 1, 0}, {16, 1, 150}} {
			t.Run(fmt.Sprintf("step=%d/SeenBatch=%d/ingestMin=%d/journalLimit=%d", crashAt, c.seenBatch, c.ingestMin, c.journalLimit), func(t *testing.T) {
				root := t.TempDir()
				opts := Options{Clock: &fakeClock{t: epoch}, SeenBatch: c.seenBatch, ingestMin: c.ingestMin, runPage: 2, journalLimit: c.journalLimit}
				f := open(t, filepath.Join(root, "live"), opts)
				schedule(t, f, Candidate{URL: simURL(0), QueueKey: "h0", Score: 1})
				if err := f.Sync(); err != nil {
					t.Fatal(err)
				}
				done := map[string]bool{}
				image := filepath.Join(root, "image")
				crashed := false
				for step := 0; !crashed; step++ {
					var crash func()
					if step == crashAt {
						crash = func() {
							if err := f.db.Checkpoint(image); err != nil {
								t.Fatal(err)
							}
							crashed = true
						}
					}
					if !crawlStep(t, f, done, crash) && !crashed {
						t.Fatalf("crawl ended at step %d before the crash", step)
					}
				}
				before := len(done)
				f.Close()

				f = open(t, image, opts)
				for crawlStep(t, f, done, nil) {
				}
				if len(done) != simPages {
					var missing []int
					for n := range simPages {
						if !done[simURL(n)] {
							missing = append(missing, n)
						}
					}
					t.Fatalf("%d pages fetched (%d before the crash); never fetched: %v", len(done), before, missing)
				}
				tot := f.Totals()
				if tot.Succeeded != simPages {
					t.Errorf("totals after resume %+v, want all %d succeeded", tot, simPages)
				}
				if tot.Queued != 0 || tot.InFlight != 0 || tot.Pending != 0 {
					t.Errorf("leftovers after the crawl: %+v", tot)
				}
			})
		}
	}
}

// TestReopenRequeuesInFlight: closing with URLs in flight puts them back
// at their places; a completion of the old claim is refused.
func TestReopenRequeuesInFlight(t *testing.T) {
	dir := t.TempDir()
	clock := &fakeClock{t: epoch}
	opts := Options{Clock: clock, SeenBatch: 1}
	f := open(t, dir, opts)
	schedule(t, f, cand("http://a/1", "a", 0.9), cand("http://a/2", "a", 0.5), cand("http://b/1", "b", 0))
	a1, b1 := next(t, f), next(t, f)
	if a1.URL != "http://a/1" || b1.URL != "http://b/1" {
		t.Fatalf("claims %s, %s", a1.URL, b1.URL)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	f = open(t, dir, opts)
	if tot := f.Totals(); tot.InFlight != 0 || tot.Queued != 3 {
		t.Fatalf("after reopen: %+v", tot)
	}
	if err := f.Complete(a1.URL, Outcome{Status: Succeeded}); !errors.Is(err, ErrNotInFlight) {
		t.Errorf("completing a claim from before the restart: %v", err)
	}
	got := drain(t, f)
	if want := []string{"http://a/1", "http://b/1", "http://a/2"}; !slices.Equal(got, want) {
		t.Errorf("claims after reopen %v, want %v", got, want)
	}
}

// TestReopenKeepsState: totals, queue stats and pending candidates are
// the same after Close and Open.
func TestReopenKeepsState(t *testing.T) {
	dir := t.TempDir()
	clock := &fakeClock{t: epoch}
	opts := Options{Clock: clock, SeenBatch: 10, QueuePolicy: modelPolicy}
	f := open(t, dir, opts)
	for i := range 30 {
		schedule(t, f, cand(fmt.Sprintf("http://h%d/%d", i%3, i), fmt.Sprintf("h%d", i%3), float64(i%4)))
	}
	for range 4 {
		clock.advance(time.Minute)
		c := next(t, f)
		if err := f.Complete(c.URL, Outcome{Status: Succeeded, SnoozeUntil: clock.Now().Add(time.Duration(len(c.URL)) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	schedule(t, f, cand("http://h0/late", "h0", 3)) // stays pending
	stats := func() []QueueStats {
		var out []QueueStats
		f.EachQueue(func(s QueueStats) bool { out = append(out, s); return true })
		return out
	}
	tot, qs := f.Totals(), stats()
	if tot.Pending != 1 {
		t.Fatalf("pending %d, want 1", tot.Pending)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	f = open(t, dir, opts)
	if got := f.Totals(); got != tot {
		t.Errorf("totals after reopen %+v, before %+v", got, tot)
	}
	if got := stats(); !slices.EqualFunc(got, qs, queueStatsEqual) {
		t.Errorf("queues after reopen\n%+v\nbefore\n%+v", got, qs)
	}
}

// TestConcurrentCrawl: workers claiming, scheduling and completing at the
// same time fetch every page of the simulated web exactly once.
func TestConcurrentCrawl(t *testing.T) {
	f, _ := newTestFrontier(t, Options{SeenBatch: 8, QueuePolicy: func(string) QueuePolicy { return QueuePolicy{Valence: 2} }})
	schedule(t, f, Candidate{URL: simURL(0), QueueKey: "h0", Score: 1})
	var mu sync.Mutex
	fetched := map[string]int{}
	errs := make(chan error, 4)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			idle := 0
			for idle < 50 {
				c, _, err := f.Next(context.Background())
				if err != nil {
					errs <- err
					return
				}
				if c == nil {
					// Others may still be scheduling links: look again.
					idle++
					runtime.Gosched()
					continue
				}
				idle = 0
				var n, host int
				fmt.Sscanf(c.URL, "http://h%d.test/%d", &host, &n)
				mu.Lock()
				fetched[c.URL]++
				mu.Unlock()
				if err := f.Schedule(simLinks(n)); err != nil {
					errs <- err
					return
				}
				if err := f.Complete(c.URL, Outcome{Status: Succeeded}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// Workers may all have given up while the last links were pending.
	done := map[string]bool{}
	for u := range fetched {
		done[u] = true
	}
	for crawlStep(t, f, done, nil) {
	}
	for u, n := range fetched {
		if n != 1 {
			t.Errorf("%s fetched %d times", u, n)
		}
	}
	if tot := f.Totals(); tot.Succeeded != simPages || tot.Queued != 0 || tot.InFlight != 0 {
		t.Errorf("totals %+v, want all %d pages done", tot, simPages)
	}
}
