package revisit

import (
	"fmt"
	"math"
	"time"
)

// Policy decides how long to wait before visiting a URL again. Wait is
// called by [State.Record] after the visit is recorded in s (counters,
// history, validators; s.Wait still holds the previous wait); status is
// what the visit found and ev the evaluator chosen for the URL, whose
// bounds every policy respects.
type Policy interface {
	Name() string
	Wait(s *State, status Status, ev Evaluator) time.Duration
}

// Uniform revisits every URL after the same wait: the baseline, which a
// crawler gets by setting the wait to (URLs in the queue) / (requests per
// unit time the politeness budget allows).
type Uniform struct{ Every time.Duration }

// Name returns "uniform".
func (Uniform) Name() string { return "uniform" }

// Wait returns the fixed wait.
func (u Uniform) Wait(*State, Status, Evaluator) time.Duration { return u.Every }

// Adaptive is the thesis's heuristic ("ar"): the evaluator's multiplicative
// update of the previous wait ([Evaluator.Next]).
type Adaptive struct{}

// Name returns "ar".
func (Adaptive) Name() string { return "ar" }

// Wait applies the evaluator.
func (Adaptive) Wait(s *State, status Status, ev Evaluator) time.Duration {
	return ev.Next(s.Wait, s.Overdue, status)
}

// Poisson models each URL's changes as a Poisson process, estimates its
// rate λ from the visit history ([EstimateRate]) and chooses each URL's
// revisit interval T by a per-URL Lagrangian after Cho and Garcia-Molina
// ("Effective page refresh policies for web crawlers", ACM TODS 28(4),
// 2003), with the costs a web archive cares about:
//
//	maximise  (1 − e^(−λT))/T  −  RequestCost/T  −  StalenessCost · Ā(T)
//
// where the first term is captured changes per unit time (a visit captures
// a change when at least one happened since the last), the second prices
// each request in captured changes, and Ā(T) = T/2 − 1/λ + (1 − e^(−λT))/(λ²T)
// is the time-averaged age of the archive's copy (how long the live page
// has differed from it). Pricing requests makes the policy skip visits
// that would rarely find a change (it does not spend the budget on pages
// that do not change); pricing staleness keeps slowly changing pages from
// going unvisited for weeks.
//
// The politeness budget enters as the Lagrange multiplier of the
// constraint Σ 1/T ≤ budget: it adds to the price of a request. The policy
// keeps the queue's demand Σ 1/T over its URLs incrementally and, while the
// demand exceeds the budget, scales RequestCost by demand/budget, which
// lengthens every wait until the demand fits (the frontier meanwhile
// serves the URL due the longest). One Poisson value serves one politeness
// queue.
//
// Until a URL has shown a change its estimate is the prior's (see
// [EstimateRate]), so unvisited and quiet URLs are explored at waits that
// grow as evidence of no change accumulates, up to the evaluator's Max.
type Poisson struct {
	// Rate is the queue's budget in requests per second (1 / politeness
	// delay for a queue with one connection).
	Rate float64
	// Demand is Σ 1/Wait (visits per second) over the URLs of the queue
	// that have been visited; the crawler persists it with the queue (or
	// rebuilds it from the States' Wait).
	Demand float64
	// RequestCost is what a request costs in captured changes
	// (DefaultRequestCost when 0).
	RequestCost float64
	// StalenessCost is what a day of staleness of one page's copy costs,
	// in captured changes per day (DefaultStalenessCost when 0).
	StalenessCost float64
}

// Default costs of the Poisson policy: a revisit has to be worth half a
// captured change at the margin, and a page's copy being a day out of date
// for a day costs as much as missing one change.
const (
	DefaultRequestCost   = 0.5
	DefaultStalenessCost = 1.0
)

// Name returns "poisson".
func (*Poisson) Name() string { return "poisson" }

// Wait re-estimates λ from s's history and returns the interval that
// maximises the objective within the evaluator's bounds, updating the
// queue's demand.
func (p *Poisson) Wait(s *State, _ Status, ev Evaluator) time.Duration {
	lambda := EstimateRate(s.History, ev.Initial)
	s.Lambda = lambda
	kappa, mu := p.RequestCost, p.StalenessCost
	if kappa <= 0 {
		kappa = DefaultRequestCost
	}
	if mu <= 0 {
		mu = DefaultStalenessCost
	}
	if p.Demand > p.Rate {
		kappa *= p.Demand / p.Rate
	}
	t := bestInterval(lambda, kappa, mu/(86400*86400), ev.Min.Seconds(), ev.Max.Seconds())
	w := clampWait(t*float64(time.Second), ev.Min, ev.Max)
	p.Demand = max(0, p.Demand+visitRate(w)-visitRate(s.Wait))
	return w
}

// visitRate is 1/w in visits per second (0 for no wait yet).
func visitRate(w time.Duration) float64 {
	if w <= 0 {
		return 0
	}
	return 1 / w.Seconds()
}

// bestInterval maximises the policy's objective over T in [lo, hi]
// seconds by golden-section search on log T (the objective has one peak).
func bestInterval(lambda, kappa, mu, lo, hi float64) float64 {
	j := func(u float64) float64 {
		t := math.Exp(u)
		x := lambda * t
		p := -math.Expm1(-x) // 1 − e^(−x): a change happened
		var h float64        // λ·Ā(T) = x/2 − 1 + (1 − e^(−x))/x
		if x < 1e-3 {
			h = x * x / 6 * (1 - x/4)
		} else {
			h = x/2 - 1 + p/x
		}
		return (p-kappa)/t - mu*h/lambda
	}
	a, b := math.Log(lo), math.Log(hi)
	const g = 0.6180339887498949
	c, d := b-g*(b-a), a+g*(b-a)
	jc, jd := j(c), j(d)
	for b-a > 1e-4 {
		if jc >= jd {
			b, d, jd = d, c, jc
			c = b - g*(b-a)
			jc = j(c)
		} else {
			a, c, jc = c, d, jd
			d = a + g*(b-a)
			jd = j(d)
		}
	}
	return math.Exp((a + b) / 2)
}

// Forget removes a URL from the queue's demand, when the URL is parked or
// leaves the crawl.
func (p *Poisson) Forget(s *State) {
	p.Demand = max(0, p.Demand-visitRate(s.Wait))
}

// Policy names accepted by [NewPolicy].
const (
	PolicyUniform  = "uniform"
	PolicyAdaptive = "ar"
	PolicyPoisson  = "poisson"
)

// NewPolicy returns the named policy for one politeness queue of urls URLs
// allowed rate requests per second.
func NewPolicy(name string, urls int, rate float64) (Policy, error) {
	if rate <= 0 || math.IsInf(rate, 0) || math.IsNaN(rate) {
		return nil, fmt.Errorf("revisit: request rate must be positive and finite, have %g", rate)
	}
	switch name {
	case PolicyUniform:
		return Uniform{Every: time.Duration(float64(max(urls, 1)) / rate * float64(time.Second))}, nil
	case PolicyAdaptive:
		return Adaptive{}, nil
	case PolicyPoisson:
		return &Poisson{Rate: rate}, nil
	}
	return nil, fmt.Errorf("revisit: unknown policy %q (want %s, %s or %s)", name, PolicyUniform, PolicyAdaptive, PolicyPoisson)
}
