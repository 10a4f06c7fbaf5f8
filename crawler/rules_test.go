package crawler

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/clock"
	"github.com/mneme-archive/mneme/crawler/fetch"
	"github.com/mneme-archive/mneme/ontology"
)

// TestRobotsRespected crawls a site whose robots.txt disallows with
// wildcards: disallowed URLs are never requested and are logged as -9998,
// robots.txt is fetched once, as a P hop.
func TestRobotsRespected(t *testing.T) {
	site := newSite(t, "", 30)
	site.Robots = "User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /p/1*\nAllow: /p/1$\nDisallow: /*.png$\n"
	disallowed := func(path string) bool {
		return path == "/logo.png" || strings.HasPrefix(path, "/p/1") && path != "/p/1"
	}
	s := testSpec(t, site.URL("/p/0"))
	st := openStore(t, s.Output)
	crawl(t, s, Deps{Store: st, Clock: clock.NewVirtual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))})

	// Expected: the pages reachable from /p/0 through allowed pages.
	want := []string{site.URL("/robots.txt")}
	precluded := map[string]bool{}
	queue := []int{0}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		want = append(want, site.URL(fmt.Sprintf("/p/%d", i)))
		for _, j := range []int{2*i + 1, 2*i + 2} {
			path := fmt.Sprintf("/p/%d", j)
			switch {
			case j >= 30:
			case disallowed(path):
				precluded[site.URL(path)] = true
			default:
				queue = append(queue, j)
			}
		}
	}
	precluded[site.URL("/logo.png")] = true
	slices.Sort(want)
	if got := capturedURLs(t, st, s.ID); !slices.Equal(got, want) {
		t.Errorf("captured:\n got %v\nwant %v", got, want)
	}
	for u := range precluded {
		if n := site.Hits(strings.TrimPrefix(u, site.URL(""))); n != 0 {
			t.Errorf("%s is disallowed but was requested %d times", u, n)
		}
	}
	if n := site.Hits("/robots.txt"); n != 1 {
		t.Errorf("robots.txt requested %d times, want 1", n)
	}
	for _, e := range readLog(t, s.Output, s.ID) {
		switch {
		case e.URI == site.URL("/robots.txt"):
			if e.HopPath != "P" || e.Status != 404 && e.Status != 200 {
				t.Errorf("robots.txt logged with hops %q status %d", e.HopPath, e.Status)
			}
		case precluded[e.URI]:
			if e.Status != fetch.StatusRobotsPrecluded {
				t.Errorf("%s logged with status %d, want %d", e.URI, e.Status, fetch.StatusRobotsPrecluded)
			}
			delete(precluded, e.URI)
		}
	}
	if len(precluded) != 0 {
		t.Errorf("disallowed URLs missing from crawl.log: %v", precluded)
	}
	verifyWARCs(t, s.Output, s.ID)
}

// TestTrapsCut crawls two traps, an endless calendar and endlessly nested
// relative links: the scope's calendar and repetition rules end both.
func TestTrapsCut(t *testing.T) {
	site := newSite(t, "", 1)
	site.Override["/"] = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<a href="/cal/2030/01/">calendar</a> <a href="/loop/">loop</a>`)
	}
	var mu sync.Mutex
	requested := map[string]bool{}
	trap := func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requested[r.URL.Path] = true
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		var year, month int
		if _, err := fmt.Sscanf(r.URL.Path, "/cal/%d/%d/", &year, &month); err == nil {
			next := time.Date(year, time.Month(month+1), 1, 0, 0, 0, 0, time.UTC)
			fmt.Fprintf(w, `<a href="/cal/%d/%02d/">next month</a>`, next.Year(), next.Month())
			return
		}
		fmt.Fprint(w, `<a href="x/">deeper</a>`)
	}
	site.Lock()
	for _, p := range []string{"/cal/", "/loop/"} {
		site.Override[p] = trap
	}
	site.Unlock()
	// Path-prefix routing for the trap folders.
	site.Wrap(func(inner http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/cal/") || strings.HasPrefix(r.URL.Path, "/loop/") {
				trap(w, r)
				return
			}
			inner.ServeHTTP(w, r)
		})
	})
	s := testSpec(t, site.URL("/"))
	s.Politeness.Off = true
	s.Scope.CalendarYears = []int{2000, 2030}
	st := crawl(t, s, Deps{})
	if st.State != StateFinished {
		t.Fatalf("crawl %s: %s", st.State, st.Reason)
	}
	for p := range requested {
		var year int
		if _, err := fmt.Sscanf(p, "/cal/%d/", &year); err == nil && year > 2030 {
			t.Errorf("calendar trap followed to %s", p)
		}
		if strings.Contains(p, "x/x/x/") {
			t.Errorf("nested links followed to %s", p)
		}
	}
	if !requested["/cal/2030/12/"] || !requested["/loop/x/x/"] {
		t.Errorf("traps cut too early: %v", requested)
	}
}

// TestRedirect follows a redirect as an R hop and describes it as a link.
func TestRedirect(t *testing.T) {
	site := newSite(t, "", 3)
	site.Override["/old"] = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/p/0", http.StatusMovedPermanently)
	}
	s := testSpec(t, site.URL("/old"))
	s.Politeness.Off = true
	st := openStore(t, s.Output)
	crawl(t, s, Deps{Store: st})
	got := capturedURLs(t, st, s.ID)
	for _, u := range []string{"/old", "/p/0", "/p/1", "/p/2"} {
		if !slices.Contains(got, site.URL(u)) {
			t.Errorf("%s not captured (got %v)", u, got)
		}
	}
	hops := objects(t, st, s.ID, ontology.HopPath)
	urls := objects(t, st, s.ID, ontology.URL)
	for capt, u := range urls {
		if u[0] == site.URL("/p/0") && hops[capt][0] != "R" {
			t.Errorf("/p/0 reached by hops %q, want R", hops[capt][0])
		}
	}
	redirects := 0
	kinds := objects(t, st, s.ID, ontology.HopType)
	for link, tg := range objects(t, st, s.ID, ontology.LinkTarget) {
		if tg[0] == site.URL("/p/0") && slices.Contains(kinds[link], ontology.HopRedirect) {
			redirects++
		}
	}
	if redirects != 1 {
		t.Errorf("%d redirect links to /p/0, want 1", redirects)
	}
	verifyWARCs(t, s.Output, s.ID)
}

// TestBackOff retries 429 and 503 answers after Retry-After or the retry
// delay, on a virtual clock, and gives a URL up after max-retries.
func TestBackOff(t *testing.T) {
	site := newSite(t, "", 1)
	site.Override["/p/0"] = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<a href="/busy">busy</a> <a href="/down">down</a> <a href="/never">never</a>`)
	}
	site.Override["/busy"] = func(w http.ResponseWriter, r *http.Request) {
		if site.Hits("/busy") <= 2 {
			w.Header().Set("Retry-After", "120")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		fmt.Fprint(w, "finally")
	}
	site.Override["/down"] = func(w http.ResponseWriter, r *http.Request) {
		if site.Hits("/down") <= 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, "up again")
	}
	site.Override["/never"] = func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests)
	}
	s := testSpec(t, site.URL("/p/0"))
	s.Scope.SeedHosts = true // the seed's folder is /p/
	s.Politeness.RetryDelay = 30 * 1e9
	s.Politeness.MaxRetries = 3
	var ev events
	vc := clock.NewVirtual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	crawl(t, s, Deps{Clock: vc, OnFetch: ev.add})

	attempts := map[string][]Fetch{}
	for _, f := range ev.byQueue(queueKey(site)) {
		attempts[f.URL] = append(attempts[f.URL], f)
	}
	check := func(path string, outcomes []string, waits []time.Duration) {
		t.Helper()
		fs := attempts[site.URL(path)]
		var got []string
		for _, f := range fs {
			got = append(got, f.Outcome)
		}
		if !slices.Equal(got, outcomes) {
			t.Fatalf("%s: outcomes %v, want %v", path, got, outcomes)
		}
		for i, w := range waits {
			if fs[i].Wait != w {
				t.Errorf("%s attempt %d: wait %v, want %v", path, i+1, fs[i].Wait, w)
			}
			if gap := fs[i+1].Claimed.Sub(fs[i].Claimed); gap < w {
				t.Errorf("%s attempt %d came %v after attempt %d, before its retry time %v", path, i+2, gap, i+1, w)
			}
		}
	}
	check("/busy", []string{"retry", "retry", "succeeded"}, []time.Duration{120 * time.Second, 120 * time.Second})
	check("/down", []string{"retry", "succeeded"}, []time.Duration{30 * time.Second})
	check("/never", []string{"retry", "retry", "retry", "failed"}, []time.Duration{30 * time.Second, 30 * time.Second, 30 * time.Second})
	retries := map[string][]string{}
	for _, e := range readLog(t, s.Output, s.ID) {
		retries[e.URI] = append(retries[e.URI], strings.Join(e.Annotations, ","))
	}
	if got := retries[site.URL("/never")]; !slices.Equal(got, []string{"", "1t", "2t", "3t"}) {
		t.Errorf("crawl.log annotations of /never: %q", got)
	}
	verifyWARCs(t, s.Output, s.ID)
}
