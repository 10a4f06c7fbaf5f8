// Package sim measures revisit policies on a simulated site: pages change
// as Poisson processes, a crawler with a fixed politeness budget revisits
// them on a virtual clock, and the run counts the changes it captured.
//
// The crawler side is the real one: each fetch goes through
// revisit.Detector (SHA-1 of the content), revisit.State.Record and the
// policy, and the next URL is the one that has been due the longest, as in
// the frontier. A policy learns only what a crawler learns: whether the
// content differs from its last capture. The change rates and change
// times stay inside the site.
package sim

import (
	"container/heap"
	"context"
	"fmt"
	"time"

	"github.com/mneme-archive/mneme/crawler/clock"
	"github.com/mneme-archive/mneme/crawler/revisit"
)

// Config is one simulation run.
type Config struct {
	Policy string // uniform, ar or poisson
	Mix    string // MixLogUniform or MixStatic80
	Pages  int
	Days   int
	Budget int // requests per simulated day, spread evenly over the day
	Seed   uint64
	// StalenessHorizon sets the poisson policy's τ (0: its default); other
	// policies ignore it.
	StalenessHorizon time.Duration
}

// Result is what a run measured. A captured change is a visit whose
// content differs from the previous capture of the page (first captures
// are requests but not captured changes). Staleness is the age of the
// archive's copy (time since the live page first changed after the last
// capture; zero while the copy is current), averaged over pages and over
// time from each page's first capture to the end.
type Result struct {
	Policy             string  `json:"policy"`
	Mix                string  `json:"mix"`
	Pages              int     `json:"pages"`
	Days               int     `json:"days"`
	BudgetPerDay       int     `json:"budget_per_day"`
	Seed               uint64  `json:"seed"`
	Requests           int64   `json:"requests"`
	IdleSlots          int64   `json:"idle_slots"`
	FirstCaptures      int64   `json:"first_captures"`
	Changes            int64   `json:"changes"`
	Captured           int64   `json:"captured"`
	CapturedPerRequest float64 `json:"captured_per_request"`
	MeanStalenessS     float64 `json:"mean_staleness_s"`
}

// MaxBudget is the largest budget (requests per day) the slot arithmetic
// handles exactly in nanoseconds.
const MaxBudget = 100_000

// start is the virtual clock's origin; any instant would do.
var start = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Validate checks the configuration's numbers and names.
func (c Config) Validate() error {
	switch {
	case c.Pages <= 0:
		return fmt.Errorf("sim: pages must be positive, have %d", c.Pages)
	case c.Days <= 0:
		return fmt.Errorf("sim: days must be positive, have %d", c.Days)
	case c.Mix != MixLogUniform && c.Mix != MixStatic80:
		return fmt.Errorf("sim: unknown mix %q (want %s or %s)", c.Mix, MixLogUniform, MixStatic80)
	case c.StalenessHorizon < 0:
		return fmt.Errorf("sim: staleness horizon must not be negative, have %v", c.StalenessHorizon)
	case c.Budget <= 0 || c.Budget > MaxBudget:
		return fmt.Errorf("sim: budget must be in [1, %d] requests/day, have %d", MaxBudget, c.Budget)
	}
	_, err := revisit.NewPolicy(c.Policy, c.Pages, float64(c.Budget)/86400)
	return err
}

// Run simulates c. It stops early with ctx's error when ctx is done.
func Run(ctx context.Context, c Config) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	policy, _ := revisit.NewPolicy(c.Policy, c.Pages, float64(c.Budget)/86400)
	if p, ok := policy.(*revisit.Poisson); ok && c.StalenessHorizon > 0 {
		p.StalenessHorizon = c.StalenessHorizon
	}
	s := newSite(c.Pages, c.Mix, c.Seed)
	res := Result{Policy: c.Policy, Mix: c.Mix, Pages: c.Pages, Days: c.Days, BudgetPerDay: c.Budget, Seed: c.Seed}
	ev := revisit.DefaultWaits().For("sim.example", "text/html")
	var detector revisit.Detector
	clk := clock.NewVirtual(start)
	states := make([]revisit.State, c.Pages)
	q := make(dueQueue, c.Pages)
	for i := range states {
		states[i].Due = start // every page is discovered at the start
		q[i] = due{at: start, page: i}
	}
	heap.Init(&q)

	// Slot k is at k·day/budget; the crawler fetches in a slot when a URL
	// is due, else it waits for the next slot in which one is.
	slots := int64(c.Days) * int64(c.Budget)
	day, budget := int64(24*time.Hour), int64(c.Budget)
	slotTime := func(k int64) time.Duration { return time.Duration(k/budget*day + k%budget*day/budget) }
	// firstSlotAt is the first slot at or after d.
	firstSlotAt := func(d time.Duration) int64 {
		return int64(d)/day*budget + (int64(d)%day*budget+day-1)/day
	}
	var staleArea float64
	for k := int64(0); k < slots; k++ {
		if k&0xfff == 0 && ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		clk.Set(start.Add(slotTime(k)))
		now := clk.Now()
		if next := q[0].at; next.After(now) {
			// Idle until the slot at or after the next due time.
			nk := max(k+1, firstSlotAt(next.Sub(start)))
			res.IdleSlots += min(nk, slots) - k
			k = nk - 1
			continue
		}
		i := q[0].page
		st := &states[i]
		p := &s.pages[i]
		t := now.Sub(start)
		staleArea += p.capture(t)
		url := fmt.Sprintf("http://sim.example/%d", i)
		v := detector.Compare(st, url, p.content(i))
		v.At = now
		if st.Visits == 0 {
			res.FirstCaptures++
		} else if v.Status == revisit.Changed {
			res.Captured++
		}
		st.Record(v, policy, ev)
		res.Requests++
		q[0].at = st.Due
		heap.Fix(&q, 0)
	}

	end := time.Duration(c.Days) * 24 * time.Hour
	var exposure float64
	for i := range s.pages {
		p := &s.pages[i]
		p.advance(end)
		res.Changes += p.version
		if p.captured < 0 {
			continue
		}
		if p.stale {
			staleArea += sq((end - p.staleSince).Seconds()) / 2
		}
		exposure += (end - p.firstSeen).Seconds()
	}
	if res.Requests > 0 {
		res.CapturedPerRequest = float64(res.Captured) / float64(res.Requests)
	}
	if exposure > 0 {
		res.MeanStalenessS = staleArea / exposure
	}
	return res, nil
}

// due is a page in the crawler's queue with its time of next processing.
type due struct {
	at   time.Time
	page int
}

// dueQueue serves the page that has been due the longest (ties by page
// number, so runs are deterministic).
type dueQueue []due

func (q dueQueue) Len() int { return len(q) }
func (q dueQueue) Less(a, b int) bool {
	if !q[a].at.Equal(q[b].at) {
		return q[a].at.Before(q[b].at)
	}
	return q[a].page < q[b].page
}
func (q dueQueue) Swap(a, b int) { q[a], q[b] = q[b], q[a] }
func (q *dueQueue) Push(x any)   { *q = append(*q, x.(due)) }
func (q *dueQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
