package crawler

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mneme-archive/mneme/crawler/canon"
)

// ErrSeedsFailed is what Run returns (wrapped, with each seed's error) when
// every seed fetched in the run failed and nothing else was fetched: the
// crawl stops at once rather than wait for retries of a site that is not
// there (a typo, a server down). The crawl is stopped, not finished, so
// that 'resume' tries the seeds again.
var ErrSeedsFailed = errors.New("every seed failed")

// SeedFate is how a seed fared in the current run.
type SeedFate struct {
	URL      string
	Attempts int    // fetches of the seed in this run
	Status   int    // of the last attempt: HTTP status or Heritrix code
	Error    string // why the last attempt failed; "" when it did not
	Outcome  string // of the last attempt: succeeded, retry, failed, disregarded
	Next     time.Time
}

// seedWatch follows the seeds through a run: it reports each failed
// attempt at once, with the retry plan, and stops the crawl when every
// seed has failed and nothing else was fetched. It holds one entry per
// seed of the spec.
type seedWatch struct {
	log io.Writer

	mu      sync.Mutex
	stop    func(error) // set by start
	seeds   []*SeedFate
	byURL   map[string]*SeedFate // by canonical URL and as written
	robots  map[string]string    // seed URL → why its robots.txt failed
	fetched bool                 // a URL other than a failed seed was fetched
	stopped bool
}

func newSeedWatch(seeds []canon.URL, log io.Writer) *seedWatch {
	w := &seedWatch{log: log, byURL: map[string]*SeedFate{}, robots: map[string]string{}}
	for _, u := range seeds {
		f := &SeedFate{URL: u.Href}
		w.seeds = append(w.seeds, f)
		w.byURL[u.Canonical], w.byURL[u.Href] = f, f
	}
	return w
}

// start begins a run, which stop ends.
func (w *seedWatch) start(stop func(error)) {
	w.mu.Lock()
	w.stop = stop
	w.mu.Unlock()
}

// observe takes a finished URL; now is the crawl clock's time.
func (w *seedWatch) observe(ev Fetch, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if ev.Outcome == "prerequisite" {
		if f := w.byURL[ev.Via]; f != nil && (ev.Status < 0 || ev.Status >= 500) {
			w.robots[f.URL] = "robots.txt: " + describe(ev)
		}
		return
	}
	f := w.byURL[ev.URL]
	if f == nil || ev.Hops != "" {
		w.fetched = w.fetched || ev.Status > 0 && ev.Status < 400
		return
	}
	f.Attempts++
	f.Status, f.Outcome, f.Error, f.Next = ev.Status, ev.Outcome, "", time.Time{}
	if ev.Status > 0 && ev.Status < 400 {
		w.fetched = true
		return
	}
	f.Error = describe(ev)
	if why, ok := w.robots[f.URL]; ok && ev.Status < 0 {
		f.Error = why
	}
	plan := "not retried"
	switch ev.Outcome {
	case "retry":
		f.Next = now.Add(ev.Wait)
		plan = fmt.Sprintf("retry %d at %s (in %s)", f.Attempts, f.Next.Format("15:04:05"), ev.Wait.Round(time.Second))
	case "failed":
		if retriable(ev.Status) || ev.Status < 0 {
			plan = "no retries left"
		}
	}
	whys, stopping := w.allFailed()
	if stopping {
		// The crawl stops now, so the retry it planned will not come.
		plan, f.Next = "every seed failed, the crawl stops (resume it to try again)", time.Time{}
	}
	fmt.Fprintf(w.log, "seed %s failed: %s; %s\n", f.URL, f.Error, plan)
	if stopping {
		w.stopped = true
		w.stop(fmt.Errorf("%w (%s)", ErrSeedsFailed, strings.Join(whys, "; ")))
	}
}

// allFailed says whether the run must stop because every seed failed and
// nothing else was fetched, with each seed's error.
func (w *seedWatch) allFailed() ([]string, bool) {
	if w.fetched || w.stopped || w.stop == nil {
		return nil, false
	}
	var whys []string
	for _, s := range w.seeds {
		if s.Error == "" {
			return nil, false // not tried yet, or fetched
		}
		whys = append(whys, s.URL+": "+s.Error)
	}
	return whys, true
}

// fates returns a copy of the seeds' fates.
func (w *seedWatch) fates() []SeedFate {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]SeedFate, len(w.seeds))
	for i, f := range w.seeds {
		out[i] = *f
	}
	return out
}

// describe says in words why a fetch failed.
func describe(ev Fetch) string {
	switch {
	case ev.Error != "":
		return ev.Error
	case ev.Status >= 400:
		return "HTTP " + strconv.Itoa(ev.Status) + " " + http.StatusText(ev.Status)
	}
	return errorKind(ev.Status)
}
