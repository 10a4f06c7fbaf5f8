package crawler

import (
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/clock"
	"github.com/mneme-archive/mneme/crawler/spec"
)

// events collects the fetches of a crawl.
type events struct {
	mu sync.Mutex
	fs []Fetch
}

func (e *events) add(f Fetch) {
	e.mu.Lock()
	e.fs = append(e.fs, f)
	e.mu.Unlock()
}

// byQueue returns the fetches of the queue's URLs (prerequisites left
// out), in claim order.
func (e *events) byQueue(queue string) []Fetch {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []Fetch
	for _, f := range e.fs {
		if f.Queue == queue && f.Outcome != "prerequisite" {
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(a, b Fetch) int { return a.Claimed.Compare(b.Claimed) })
	return out
}

func queueKey(s *site) string { return s.Host() }

// checkIntervals verifies that each fetch of a queue was claimed exactly
// the politeness wait of the one before after it (the virtual clock jumps
// to the moment a queue is ready, never past it), and that want gives each
// wait.
func checkIntervals(t *testing.T, name string, fs []Fetch, want func(Fetch) time.Duration) {
	t.Helper()
	if len(fs) < 3 {
		t.Fatalf("%s: only %d fetches", name, len(fs))
	}
	for i, f := range fs {
		if w := want(f); f.Wait != w {
			t.Errorf("%s: %s: wait %v, want %v (fetch took %v)", name, f.URL, f.Wait, w, f.Duration)
		}
		if i == 0 {
			continue
		}
		prev := fs[i-1]
		if gap := f.Claimed.Sub(prev.Claimed); gap != prev.Wait {
			t.Errorf("%s: %s claimed %v after %s, whose wait was %v", name, f.URL, gap, prev.URL, prev.Wait)
		}
	}
}

// TestPolitenessDelays crawls three hosts on a virtual clock: one whose
// robots.txt asks for a Crawl-delay above the cap, one with a host rule raising the
// minimum delay, one slow enough for the delay factor to decide.
func TestPolitenessDelays(t *testing.T) {
	a, b, c := newSite(t, "127.0.0.1", 6), newSite(t, "127.0.0.2", 6), newSite(t, "127.0.0.3", 3)
	a.Robots = "User-agent: *\nCrawl-delay: 7\n"
	for i := range 3 {
		path := "/p/" + strconv.Itoa(i)
		c.Override[path] = func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(700 * time.Millisecond)
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<a href=\"/p/0\">0</a><a href=\"/p/1\">1</a><a href=\"/p/2\">2</a>"))
		}
	}
	s := testSpec(t, a.URL("/p/0"), b.URL("/p/0"), c.URL("/p/0"))
	s.Politeness.MaxCrawlDelay = spec.Duration(6 * time.Second) // caps the Crawl-delay of 7
	ten, twenty := spec.Duration(10*time.Second), spec.Duration(20*time.Second)
	s.Politeness.Hosts = []spec.HostRule{{Pattern: "127.0.0.2:*", MinDelay: &ten, MaxDelay: &twenty}}
	var ev events
	vc := clock.NewVirtual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	st := crawl(t, s, Deps{Clock: vc, OnFetch: ev.add})
	if st.State != StateFinished {
		t.Fatalf("state %s: %s", st.State, st.Reason)
	}
	checkIntervals(t, "crawl-delay host", ev.byQueue(queueKey(a)), func(Fetch) time.Duration { return 6 * time.Second })
	checkIntervals(t, "host rule", ev.byQueue(queueKey(b)), func(Fetch) time.Duration { return 10 * time.Second })
	checkIntervals(t, "slow host", ev.byQueue(queueKey(c)), func(f Fetch) time.Duration {
		return min(max(time.Duration(5*float64(f.Duration)), 3*time.Second), 30*time.Second)
	})
	if got := vc.Now().Sub(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)); got < 5*10*time.Second {
		t.Errorf("virtual clock advanced %v, less than the host rule's 5 × 10 s", got)
	}
	verifyWARCs(t, s.Output, s.ID)
}

// TestValence lets at most valence fetches of one host run at once.
func TestValence(t *testing.T) {
	for _, valence := range []int{1, 2} {
		site := newSite(t, "", 15)
		var mu sync.Mutex
		cur, peak := 0, 0
		for i := range 15 {
			site.Override["/p/"+strconv.Itoa(i)] = func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				cur++
				peak = max(peak, cur)
				mu.Unlock()
				time.Sleep(50 * time.Millisecond)
				mu.Lock()
				cur--
				mu.Unlock()
				w.Header().Set("Content-Type", "text/html")
				for _, j := range []int{2*i + 1, 2*i + 2} {
					if j < 15 {
						w.Write([]byte("<a href=\"/p/" + strconv.Itoa(j) + "\">x</a>"))
					}
				}
			}
		}
		s := testSpec(t, site.URL("/p/0"))
		s.Workers = 6
		zero := spec.Duration(0)
		factor := 0.0
		s.Politeness.Hosts = []spec.HostRule{{Pattern: "*", Valence: &valence, MinDelay: &zero, MaxDelay: &zero, DelayFactor: &factor}}
		if st := crawl(t, s, Deps{}); st.Fetched != 16 {
			t.Fatalf("valence %d: %d fetched, want 16", valence, st.Fetched)
		}
		if peak > valence {
			t.Errorf("valence %d: %d fetches of the host ran at once", valence, peak)
		}
	}
}

// TestRetryDelaysTheURLNotItsHost: on a polite crawl (virtual clock), a
// 503 of one page with a Retry-After of 30 days has that page retried
// after the retry delay capped by max-retry-delay, while the other pages
// of its host go on at the politeness pace.
func TestRetryDelaysTheURLNotItsHost(t *testing.T) {
	a := newSite(t, "127.0.0.1", 15) // /p/0 links /p/1 and /p/2, /p/2 the pages under it
	served := false
	var mu sync.Mutex
	a.Override["/p/1"] = func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		first := !served
		served = true
		mu.Unlock()
		if first {
			w.Header().Set("Retry-After", strconv.Itoa(30*24*3600))
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("done"))
	}
	s := testSpec(t, a.URL("/p/0"))
	s.Politeness.RetryDelay = spec.Duration(10 * time.Minute)
	s.Politeness.MaxRetryDelay = spec.Duration(20 * time.Minute)
	var ev events
	vc := clock.NewVirtual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if st := crawl(t, s, Deps{Clock: vc, OnFetch: ev.add}); st.State != StateFinished {
		t.Fatalf("state %s: %s", st.State, st.Reason)
	}
	var failed time.Time
	var retried, others []Fetch
	for _, f := range ev.byQueue(queueKey(a)) {
		switch {
		case f.URL == a.URL("/p/1") && f.Outcome == "retry":
			failed = f.Claimed // the virtual clock stands still during a fetch
			if f.Wait != 20*time.Minute {
				t.Errorf("retry wait %v, want the 20m max-retry-delay", f.Wait)
			}
		case f.URL == a.URL("/p/1"):
			retried = append(retried, f)
		case !failed.IsZero():
			others = append(others, f)
		}
	}
	if failed.IsZero() || len(retried) != 1 || len(others) < 6 { // /p/2's subtree but one at least
		t.Fatalf("failure at %v, %d retries, %d other fetches after it", failed, len(retried), len(others))
	}
	if retried[0].Claimed.Before(failed.Add(20 * time.Minute)) {
		t.Errorf("/p/1 retried %v after its failure, before its 20m delay", retried[0].Claimed.Sub(failed))
	}
	// Before the fix the host waited too: every other page came after the retry.
	if last := others[len(others)-1]; !last.Claimed.Before(failed.Add(10 * time.Minute)) {
		t.Errorf("the host's other pages waited for /p/1's retry: the last one claimed %v after the failure", last.Claimed.Sub(failed))
	}
}
